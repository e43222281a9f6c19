import json
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured
from django.core.management.base import BaseCommand, CommandError
from django.db import DEFAULT_DB_ALIAS, connections
from django.utils.translation import gettext as _  # eager: argparse needs real strings

from ledgers.registers import timestamps
from ledgers.registers.cosign import cosignatures_verify
from ledgers.registers.digests import Sealed
from ledgers.registers.evidence import scan_entries, verify_row_digests, verify_states
from ledgers.registers.integrity import verify_rows
from ledgers.registers.models import Register, TreeHead
from ledgers.registers.selectors import registers_named
from ledgers.registers.treeheads import tree_head_anchors, verify_against_tree_head, verify_tree_heads
from ledgers.registers.verification import (
    beside,
    chain_end,
    first_unsealed_transaction,
    snapshot,
    verify_against_export,
    verify_since,
    verify_whole,
)


class Command(BaseCommand):
    help = _(
        "Vérifie la chaîne d'empreintes de tous les registres (ou de ceux nommés) : numéros d'ordre sans "
        "lacune, empreintes, liens, visas, points de contrôle et têtes d'arbre signés, tête du registre ; avec "
        "--against, qu'un export antérieur s'y retrouve à l'identique ; avec --tree-head, que chaque registre "
        "couvert par une tête d'arbre signée sortie de l'établissement la contient encore ; sans numéro ni "
        "--chain-only, que chaque objet "
        "suivi est dans l'état de son dernier historique et que chaque historique d'un objet réglementé a "
        "été écrit avec une entrée de registre. Une ligne OK par registre ou modèle intègre ; code de sortie "
        "1 et nom du premier en défaut (registre et n° d'entrée, ou modèle, objet et champ), avec le motif, "
        "sinon. Avec des témoins configurés (LEDGERS_WITNESSES), chaque cosignature gardée doit porter sur le "
        "registre, l'âge de la plus récente est écrit, une tête scellée ne peut attendre la cosignature d'un "
        "témoin plus de LEDGERS_WITNESS_MAX_DELAY_MINUTES, et la dernière tête que sert chaque témoin doit être "
        "celle du registre. Avec --since-checkpoint, chaque chaîne n'est relue qu'à partir de son dernier "
        "point de contrôle scellé ; avec --database, tout est lu sur cette base (une réplique en lecture seule)."
    )
    requires_system_checks = []  # run daily on a deployed site: the system checks would cost more than the work

    def add_arguments(self, parser):
        parser.add_argument("numbers", nargs="*", metavar="NUMBER", help=_("Numéros des registres (tous si omis)."))
        parser.add_argument(
            "--against",
            action="append",
            default=[],
            type=Path,
            metavar="EXPORT",
            help=_(
                "Export JSON Lines antérieur (fichier, ou répertoire de fichiers .jsonl) "
                "dont chaque ligne doit se retrouver à l'identique ; répétable."
            ),
        )
        parser.add_argument(
            "--tree-head",
            action="append",
            default=[],
            type=Path,
            metavar="FILE",
            help=_("Tête d'arbre signée (JSON de seal_checkpoints --out) à laquelle tenir la base ; répétable."),
        )
        parser.add_argument(
            "--chain-only",
            action="store_true",
            help=_("Ne vérifie que les registres, pas les objets et leurs historiques."),
        )
        parser.add_argument(
            "--since-checkpoint",
            action="store_true",
            help=_(
                "Vérification incrémentale : chaque chaîne à partir de son dernier point de contrôle scellé "
                "(les entrées antérieures ont été vérifiées au scellement et le sceau couvre leur empreinte), "
                "les historiques et les entrées des transactions écrites depuis, les objets qu'elles ont écrits "
                "(chacun comparé à son dernier historique) et la dernière tête d'arbre ; les points de contrôle "
                "et têtes d'arbre antérieurs, les comptes de lignes des tables et les autres objets sont laissés "
                "à la vérification complète."
            ),
        )
        parser.add_argument(
            "--witness",
            action="store_true",
            help=_(
                "Base témoin (copie par réplication logique des seules insertions, filtrée par établissement) : "
                "la tête de chaque registre est celle de sa chaîne, et les comptes de lignes des têtes d'arbre, "
                "qui portent sur toute la base, ne sont pas tenus."
            ),
        )
        parser.add_argument(
            "--heads",
            action="store_true",
            help=_(
                "Écrit aussi, par registre, la fin de sa chaîne (TÊTE, numéro, n° et empreinte de la dernière "
                "entrée), à comparer ligne à ligne avec la même commande lancée sur une autre copie."
            ),
        )
        parser.add_argument(
            "--offline",
            action="store_true",
            help=_(
                "Ne demande pas aux témoins (LEDGERS_WITNESSES) la dernière tête qu'ils ont cosignée de chaque "
                "registre ; les cosignatures gardées en base sont vérifiées quand même."
            ),
        )
        parser.add_argument(
            "--database",
            default=DEFAULT_DB_ALIAS,
            metavar="ALIAS",
            help=_("Base à lire (alias de DATABASES, par exemple « replica ») ; rien n'y est écrit."),
        )

    def handle(self, *args, **options) -> None:
        try:
            self.verify(**options)
        except ImproperlyConfigured as exc:  # no checkpoint key here: say so, without a traceback
            raise CommandError(str(exc)) from exc

    def verify(
        self,
        *,
        numbers: list[str],
        against: list[Path],
        tree_head: list[Path],
        chain_only: bool,
        since_checkpoint: bool,
        database: str,
        witness: bool = False,
        heads: bool = False,
        offline: bool = False,
        **options,
    ) -> None:
        if database not in connections:
            raise CommandError(_("Base inconnue : %(alias)s") % {"alias": database})
        if numbers:
            registers, unknown = registers_named(numbers, using=database)
            if unknown:
                raise CommandError(_("Registre inconnu : %(numbers)s") % {"numbers": ", ".join(unknown)})
        else:
            registers = Register.objects.using(database).order_by("number")
        first_bad = None

        def report(name: str, finding) -> None:
            nonlocal first_bad
            if finding is None:
                self.stdout.write(f"OK\t{name}")
            else:
                self.stdout.write(f"ÉCHEC\t{finding}")
                first_bad = first_bad or finding

        # One snapshot for the whole run: every register, tree head, object and history row as they
        # stood together when it began, at one transaction's cost.
        objects = not numbers and not chain_only
        with snapshot(using=database, shared=objects or not since_checkpoint) as exported:
            documents = [self._tree_head(path) for path in tree_head]
            anchors = tree_head_anchors(documents)
            # Everything is checked, so that one bad volume does not hide another; the first one
            # found is named in the exit message. All the registers are read at once, their entries
            # in one scan. A full run gathers the digests its entries seal as it walks them, for the
            # history digests check (every chain walked to its end: one stopped by a finding is read
            # again).
            sealed: Sealed | None = {} if objects and not since_checkpoint else None
            verified = (
                verify_since(list(registers), anchors, using=database, head=not witness)
                if since_checkpoint
                else verify_whole(
                    list(registers), anchors, using=database, head=not witness, gathered=sealed, exported=exported
                )
            )
            if objects:
                # The object and row checks need no entry: a second connection in the same snapshot
                # runs them while the chains are walked (here, in order, where it cannot).
                # Incremental: the entries and history rows of the transactions since the seals
                # (what precedes them was verified when sealed; the full run re-reads it).
                # The checks that read the entries share one read of them.
                since = first_unsealed_transaction(database) if since_checkpoint else 0

                def besides() -> tuple[list, list]:
                    scanned = scan_entries(database, since)
                    return verify_states(database, since, scanned), list(verify_rows(database, since, scanned))

                checked = beside(besides, exported, database)
            # The table counts are the whole tables': the daily run leaves them to the full one.
            counts = not witness and not since_checkpoint
            # The stored tree heads need no entry either: checked beside the walk too.
            tree_heads = (
                None
                if numbers
                else beside(
                    lambda: list(verify_tree_heads(database, counts=counts, newest_only=since_checkpoint)),
                    exported,
                    database,
                )
            )
            for register, finding in verified:
                report(register.number, finding)
                if finding is not None:
                    sealed = None
                # The witnesses: each cosignature, its age, the gaps, and the heads they serve.
                cosigned = cosignatures_verify(register, database, ask=not offline)
                for line in cosigned.lines:
                    self.stdout.write(line)
                if cosigned.finding is not None:
                    report(register.number, cosigned.finding)
                if heads:
                    seq, digest = chain_end(register, using=database)
                    self.stdout.write(f"TÊTE\t{register.number}\t{seq}\t{digest}")
            for path in self._exports(against):
                with path.open(encoding="utf-8") as lines:
                    finding = verify_against_export(lines, using=database)
                report(_("export %(path)s") % {"path": path}, finding)
            for document in documents:
                for label, finding in verify_against_tree_head(document, database, counts=counts):
                    report(label, finding)
            if tree_heads is not None:
                for label, finding in tree_heads():
                    report(label, finding)
            # Tokens are checked (the stored tree heads' without register numbers) but their authority is not.
            tokens = any(document.get("timestamp_token") for document in documents) or (
                not numbers and TreeHead.objects.using(database).exclude(timestamp_token="").exists()
            )
            if tokens and timestamps.any_authority():
                self.stdout.write(
                    _(
                        "NON VÉRIFIÉ\tautorité d'horodatage : sans LEDGERS_TSA_ROOTS, le jeton de n'importe quelle "
                        "autorité est accepté (sa date n'est pas garantie)"
                    )
                )
            if objects:
                states, rows = checked()
                for label, finding in states + verify_row_digests(database, since, sealed) + rows:
                    report(label, finding)
                if connections[database].vendor != "postgresql":
                    self.stdout.write(_("NON VÉRIFIÉ\ttransactions des historiques (PostgreSQL seulement)"))
        if first_bad is not None:
            raise CommandError(_("En défaut : %(finding)s") % {"finding": first_bad})

    @staticmethod
    def _tree_head(path: Path) -> dict:
        try:
            return json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise CommandError(_("Tête d'arbre illisible : %(path)s") % {"path": path}) from exc

    @staticmethod
    def _exports(paths: list[Path]) -> list[Path]:
        files = []
        for path in paths:
            if path.is_dir():
                files.extend(sorted(path.glob("*.jsonl")))
            elif path.is_file():
                files.append(path)
            else:
                raise CommandError(_("Export introuvable : %(path)s") % {"path": path})
        return files
