from django.core.exceptions import ImproperlyConfigured
from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _  # eager: argparse needs real strings

from ledgers.registers.services import checkpoints_seal
from ledgers.registers.verification import Finding


class Command(BaseCommand):
    help = _(
        "Scelle un point de contrôle de chaque registre dont la tête a avancé depuis le dernier : le n° et "
        "l'empreinte de sa dernière entrée, sous la clé LEDGERS_CHECKPOINT_KEY, après avoir vérifié le registre "
        "depuis son dernier point de contrôle (tout le registre avec --full). Une ligne par registre scellé "
        "(numéro, n°, empreinte, sceau) à conserver hors de la base ; "
        "code de sortie 1 si un registre en défaut n'a pas été scellé."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--full",
            action="store_true",
            help=_("Vérifie chaque registre depuis son acte d'ouverture avant de le sceller."),
        )

    def handle(self, *args, full: bool, **options) -> None:
        refused = None
        try:
            results = checkpoints_seal(full=full)
        except ImproperlyConfigured as exc:  # no checkpoint key here: say so, without a traceback
            raise CommandError(str(exc)) from exc
        for result in results:
            if isinstance(result, Finding):
                self.stdout.write(f"ÉCHEC\t{result}")
                refused = refused or result
            else:
                self.stdout.write(f"SCELLÉ\t{result.register.number}\t{result.seq}\t{result.entry_hash}\t{result.mac}")
        if refused is not None:
            raise CommandError(_("Registre en défaut, non scellé : %(finding)s") % {"finding": refused})
