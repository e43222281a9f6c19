from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from ledgers.registers.models import Register
from ledgers.reports.documents import register_pdf
from ledgers.reports.sealing import SealUnavailable


class Command(BaseCommand):
    help = "Imprime un registre coté et paraphé en PDF (scellé PAdES avec --sealed)."

    def add_arguments(self, parser):
        parser.add_argument("number", help="numéro du registre, p. ex. MCB-MAINCOURANTE-001")
        parser.add_argument("--out", required=True, help="fichier PDF à écrire")
        parser.add_argument("--sealed", action="store_true", help="sceller avec le certificat de l'établissement")
        parser.add_argument("--volume", type=int, help="tome à imprimer (par défaut : le tome en cours)")
        parser.add_argument("--lang", choices=[code for code, _ in settings.LANGUAGES], default=settings.LANGUAGE_CODE)

    def handle(self, *args, number: str, out: str, sealed: bool, lang: str, volume: int | None, **options):
        register = Register.objects.select_related("establishment").filter(number=number).first()
        if register is None:
            raise CommandError(f"no register numbered {number!r}")
        try:
            with open(out, "wb") as f:
                rendered = register_pdf(register, f, lang=lang, sealed=sealed, volume=volume)
        except (SealUnavailable, ValidationError) as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(
            f"{out}: {register.number}, volume {rendered.volume.number}, {rendered.pages} pages, "
            f"entries 1-{rendered.head_seq}, "
            f"head {rendered.head_hash[:16]}{', sealed' if sealed else ''}"
        )
