import json
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured
from django.core.management.base import BaseCommand, CommandError
from django.db import connection
from django.utils.translation import gettext as _  # eager: argparse needs real strings

from ledgers.registers.evidence import verify_objects
from ledgers.registers.integrity import verify_rows
from ledgers.registers.models import Register
from ledgers.registers.selectors import registers_named
from ledgers.registers.treeheads import tree_head_anchors, verify_against_tree_head, verify_tree_heads
from ledgers.registers.verification import snapshot, verify_against_export, verify_register


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
        "sinon."
    )

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

    def handle(self, *args, **options) -> None:
        try:
            self.verify(**options)
        except ImproperlyConfigured as exc:  # no checkpoint key here: say so, without a traceback
            raise CommandError(str(exc)) from exc

    def verify(
        self, *, numbers: list[str], against: list[Path], tree_head: list[Path], chain_only: bool, **options
    ) -> None:
        if numbers:
            registers, unknown = registers_named(numbers)
            if unknown:
                raise CommandError(_("Registre inconnu : %(numbers)s") % {"numbers": ", ".join(unknown)})
        else:
            registers = Register.objects.order_by("number")
        first_bad = None

        def report(name: str, finding) -> None:
            nonlocal first_bad
            if finding is None:
                self.stdout.write(f"OK\t{name}")
            else:
                self.stdout.write(f"ÉCHEC\t{finding}")
                first_bad = first_bad or finding

        heads = [self._tree_head(path) for path in tree_head]
        anchors = tree_head_anchors(heads)
        # Everything is checked, so that one bad volume does not hide another; the first one
        # found is named in the exit message.
        for register in registers:
            report(register.number, verify_register(register, anchors.get(register.number)))
        for path in self._exports(against):
            with path.open(encoding="utf-8") as lines:
                finding = verify_against_export(lines)
            report(_("export %(path)s") % {"path": path}, finding)
        for document in heads:
            for label, finding in verify_against_tree_head(document):
                report(label, finding)
        if not numbers:
            for label, finding in verify_tree_heads():
                report(label, finding)
        if not numbers and not chain_only:
            with snapshot():
                for label, finding in verify_objects():
                    report(label, finding)
                for label, finding in verify_rows():
                    report(label, finding)
            if connection.vendor != "postgresql":
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
