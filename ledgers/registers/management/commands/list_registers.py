from django.core.management.base import BaseCommand
from django.utils.translation import gettext as _  # eager: argparse needs real strings

from ledgers.registers.selectors import registers_with_counts


class Command(BaseCommand):
    help = _(
        "Liste les registres, un par ligne, séparés par des tabulations : numéro, type de registre "
        "(code), nombre d'entrées."
    )
    requires_system_checks = []  # run daily on a deployed site: the system checks would cost more than the work

    def add_arguments(self, parser):
        parser.add_argument("--establishment", metavar="CODE", help=_("Seulement les registres de cet établissement."))

    def handle(self, *args, establishment: str | None, **options) -> None:
        for register in registers_with_counts(establishment_code=establishment):
            self.stdout.write(f"{register.number}\t{register.kind}\t{register.entry_count}")
