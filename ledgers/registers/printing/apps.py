from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PrintingConfig(AppConfig):
    """The printed volumes of the registers and their print history (REG-21): a Django app of its
    own, beside the ledger engine, so that its tables and migrations stay apart from the engine's."""

    name = "ledgers.registers.printing"
    label = "printing"
    verbose_name = _("Registres imprimés")
