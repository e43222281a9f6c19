from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _  # eager: argparse needs real strings

from ledgers.registers.models import Register
from ledgers.registers.selectors import registers_named
from ledgers.registers.verification import export_lines


class Command(BaseCommand):
    help = _(
        "Exporte un registre en JSON Lines : une entrée par ligne, avec tous les champs couverts par "
        "l'empreinte et l'empreinte (entry_hash). Vers la sortie standard, ou vers DIR/<numéro>.jsonl "
        "avec --out ; --all exporte tous les registres (--out obligatoire). Le format est décrit dans "
        "docs/ledger-format.md."
    )
    requires_system_checks = []  # run daily on a deployed site: the system checks would cost more than the work

    def add_arguments(self, parser):
        parser.add_argument("number", nargs="?", metavar="NUMBER", help=_("Numéro du registre."))
        parser.add_argument("--all", dest="all_registers", action="store_true", help=_("Tous les registres."))
        parser.add_argument("--out", metavar="DIR", type=Path, help=_("Répertoire de destination."))

    def handle(self, *args, number: str | None, all_registers: bool, out: Path | None, **options) -> None:
        if all_registers == bool(number):
            raise CommandError(_("Donnez un numéro de registre, ou --all."))
        if all_registers and out is None:
            raise CommandError(_("--all exige --out DIR."))
        if all_registers:
            registers = Register.objects.order_by("number")
        else:
            found, _unknown = registers_named([number])
            if not found:
                raise CommandError(_("Registre inconnu : %(numbers)s") % {"numbers": number})
            registers = found
        if out is None:
            for line in export_lines(registers[0]):
                self.stdout.write(line)
            return
        out.mkdir(parents=True, exist_ok=True)
        for register in registers:
            path = out / f"{register.number}.jsonl"
            with path.open("w", encoding="utf-8", newline="\n") as file:
                for line in export_lines(register):
                    file.write(line + "\n")
            self.stderr.write(str(path))
