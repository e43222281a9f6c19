from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CustodyConfig(AppConfig):
    name = "ledgers.custody"
    label = "custody"
    verbose_name = _("Garde des matériels réglementés")

    def ready(self) -> None:
        from ledgers.core.hooks import on_table_closing

        from . import approvals, registers  # noqa: F401
        from .services import check_all_returned

        on_table_closing(check_all_returned)
