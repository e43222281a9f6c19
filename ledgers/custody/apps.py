from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CustodyConfig(AppConfig):
    name = "ledgers.custody"
    label = "custody"
    verbose_name = _("Garde des matériels réglementés")

    def ready(self) -> None:
        from ledgers.core.hooks import on_table_closing
        from ledgers.notifications.models import NoticeKind
        from ledgers.notifications.services import on_acknowledged

        from . import approvals, registers  # noqa: F401
        from .services import check_all_returned, destruction_notice_acknowledged

        on_table_closing(check_all_returned)
        on_acknowledged(NoticeKind.DESTRUCTION, destruction_notice_acknowledged)
