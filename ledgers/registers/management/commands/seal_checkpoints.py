import json
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured
from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _  # eager: argparse needs real strings

from ledgers.core.models import Establishment
from ledgers.registers.cosign import cosignatures_request
from ledgers.registers.services import checkpoints_seal
from ledgers.registers.treeheads import newest_document, tree_heads_seal
from ledgers.registers.verification import Finding


class Command(BaseCommand):
    help = _(
        "Scelle un point de contrôle de chaque registre dont la tête a avancé depuis le dernier : le n° et "
        "l'empreinte de sa dernière entrée, signés par la clé Ed25519 LEDGERS_SIGNING_KEY, après avoir vérifié "
        "le registre depuis son dernier point de contrôle (tout le registre avec --full) ; puis une tête "
        "d'arbre signée par établissement. Une ligne par registre scellé (numéro, n°, empreinte, clé, "
        "signature) et par tête d'arbre à conserver hors de la base ; avec --out, la dernière tête d'arbre en "
        "JSON ; puis demande aux témoins configurés (LEDGERS_WITNESSES) de cosigner la nouvelle tête de chaque "
        "registre, une ligne par réponse ; code de sortie 1 si un registre en défaut n'a pas été scellé (un "
        "témoin injoignable n'arrête rien : le scellement suivant rattrape)."
    )
    requires_system_checks = []  # run daily on a deployed site: the system checks would cost more than the work

    def add_arguments(self, parser):
        parser.add_argument(
            "--full",
            action="store_true",
            help=_("Vérifie chaque registre depuis son acte d'ouverture avant de le sceller."),
        )
        parser.add_argument(
            "--out", type=Path, metavar="FILE", help=_("Écrit la dernière tête d'arbre signée (JSON) dans FILE.")
        )
        parser.add_argument(
            "--establishment",
            metavar="CODE",
            help=_("Établissement dont la tête d'arbre est écrite (requis s'il y en a plusieurs)."),
        )

    def handle(self, *args, full: bool, out: Path | None, establishment: str | None, **options) -> None:
        refused = None
        try:
            results = checkpoints_seal(full=full)
            tree_heads = tree_heads_seal()
            outcomes = cosignatures_request()
        except ImproperlyConfigured as exc:  # no signing key here: say so, without a traceback
            raise CommandError(str(exc)) from exc
        for result in results:
            if isinstance(result, Finding):
                self.stdout.write(f"ÉCHEC\t{result}")
                refused = refused or result
            else:
                self.stdout.write(
                    f"SCELLÉ\t{result.register.number}\t{result.seq}\t{result.entry_hash}\t{result.key_id}\t"
                    f"{result.signature}"
                )
        for tree_head in tree_heads:
            self.stdout.write(
                f"ARBRE\t{tree_head.establishment.code}\t{tree_head.number}\t{tree_head.root_hash}\t"
                f"{tree_head.tree_hash}\t{tree_head.key_id}\t{tree_head.signature}"
            )
        for outcome in outcomes:
            self.stdout.write(
                f"TÉMOIN\t{outcome.register}\t{outcome.witness}\t{outcome.size}\t{outcome.status}\t{outcome.detail}"
            )
        if out is not None:
            self._write(out, establishment)
        if refused is not None:
            raise CommandError(_("Registre en défaut, non scellé : %(finding)s") % {"finding": refused})

    @staticmethod
    def _write(out: Path, code: str | None) -> None:
        sealed = Establishment.objects.filter(tree_heads__isnull=False).distinct()
        if code:
            sealed = sealed.filter(code=code)
        establishments = list(sealed.order_by("code"))
        if len(establishments) != 1:
            raise CommandError(
                _("Précisez --establishment parmi : %(codes)s")
                % {
                    "codes": ", ".join(
                        e.code for e in Establishment.objects.filter(tree_heads__isnull=False).distinct()
                    )
                }
                if len(establishments) > 1 or not code
                else _("Aucune tête d'arbre pour %(code)s") % {"code": code}
            )
        document = newest_document(establishments[0])
        out.write_text(json.dumps(document, sort_keys=True, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
