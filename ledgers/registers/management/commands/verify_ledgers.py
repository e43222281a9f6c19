from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _  # eager: argparse needs real strings

from ledgers.registers.models import Register
from ledgers.registers.selectors import registers_named
from ledgers.registers.verification import verify_register


class Command(BaseCommand):
    help = _(
        "Vérifie la chaîne d'empreintes de tous les registres (ou de ceux nommés) : numéros d'ordre sans "
        "lacune, empreintes, liens, visas et tête du registre. Une ligne OK par registre intègre ; code de "
        "sortie 1 et nom du premier registre en défaut, avec le n° d'entrée et le motif, sinon."
    )

    def add_arguments(self, parser):
        parser.add_argument("numbers", nargs="*", metavar="NUMBER", help=_("Numéros des registres (tous si omis)."))

    def handle(self, *args, numbers: list[str], **options) -> None:
        if numbers:
            registers, unknown = registers_named(numbers)
            if unknown:
                raise CommandError(_("Registre inconnu : %(numbers)s") % {"numbers": ", ".join(unknown)})
        else:
            registers = Register.objects.order_by("number")
        first_bad = None
        # Every register is checked, so that one bad volume does not hide another; the first
        # one found is named in the exit message.
        for register in registers:
            finding = verify_register(register)
            if finding is None:
                self.stdout.write(f"OK\t{register.number}")
            else:
                self.stdout.write(f"ÉCHEC\t{finding}")
                first_bad = first_bad or finding
        if first_bad is not None:
            raise CommandError(_("Registre en défaut : %(finding)s") % {"finding": first_bad})
