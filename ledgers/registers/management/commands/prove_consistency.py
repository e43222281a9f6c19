import json

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _  # eager: argparse needs real strings

from ledgers.registers.models import Register
from ledgers.registers.treeheads import consistency_proof


class Command(BaseCommand):
    help = _(
        "Preuve de cohérence (JSON) entre deux têtes d'arbre pour un registre : son arbre de Merkle dans la "
        "seconde prolonge celui de la première (RFC 9162), avec sa place dans chacune ; à vérifier avec "
        "docs/verify_export.py et la clé publique."
    )
    requires_system_checks = []

    def add_arguments(self, parser):
        parser.add_argument("register", metavar="REGISTER")
        parser.add_argument("first", type=int, metavar="FIRST", help=_("n° de la première tête d'arbre"))
        parser.add_argument(
            "second", type=int, nargs="?", metavar="SECOND", help=_("n° de la seconde (par défaut la plus récente)")
        )

    def handle(self, *args, register: str, first: int, second: int | None, **options) -> None:
        found = Register.objects.filter(number=register).first()
        if found is None:
            raise CommandError(_("Registre inconnu : %(numbers)s") % {"numbers": register})
        proof = consistency_proof(found, first, second)
        if proof is None:
            raise CommandError(
                _("Ces têtes d'arbre ne signent pas toutes deux l'arbre de ce registre, ou ne sont pas dans l'ordre.")
            )
        self.stdout.write(json.dumps(proof, sort_keys=True, indent=1, ensure_ascii=False))
