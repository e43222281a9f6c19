import json

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _  # eager: argparse needs real strings

from ledgers.registers.models import Register
from ledgers.registers.treeheads import entry_proof


class Command(BaseCommand):
    help = _(
        "Preuve d'une entrée (JSON) : l'entrée, son chemin d'inclusion RFC 9162 dans l'arbre de Merkle du "
        "registre à la taille que signe une tête d'arbre, la place du registre dans cette tête d'arbre et "
        "la tête d'arbre signée ; à vérifier avec docs/verify_export.py et la clé publique."
    )
    requires_system_checks = []  # run daily on a deployed site: the system checks would cost more than the work

    def add_arguments(self, parser):
        parser.add_argument("register", metavar="REGISTER")
        parser.add_argument("seq", type=int, metavar="SEQ")
        parser.add_argument(
            "--tree-head", type=int, metavar="N", help=_("le n° de la tête d'arbre (par défaut la plus récente)")
        )

    def handle(self, *args, register: str, seq: int, tree_head: int | None, **options) -> None:
        found = Register.objects.filter(number=register).first()
        if found is None:
            raise CommandError(_("Registre inconnu : %(numbers)s") % {"numbers": register})
        proof = entry_proof(found, seq, tree_head)
        if proof is None:
            raise CommandError(_("Aucune tête d'arbre signée ne couvre encore cette entrée."))
        self.stdout.write(json.dumps(proof, sort_keys=True, indent=1, ensure_ascii=False))
