from django.core.exceptions import ImproperlyConfigured
from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _  # eager: argparse needs real strings

from ledgers.registers.cosign import log_vkey


class Command(BaseCommand):
    help = _(
        "Écrit la clé publique des registres au format vkey (c2sp.org/signed-note) : le nom LEDGERS_LOG_ORIGIN et "
        "la clé de scellement, à donner au témoin du régulateur (python -m witness add-log)."
    )
    requires_system_checks = []

    def handle(self, *args, **options) -> None:
        try:
            self.stdout.write(log_vkey())
        except ImproperlyConfigured as exc:  # no signing key here: say so, without a traceback
            raise CommandError(str(exc)) from exc
