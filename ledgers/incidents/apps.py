from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class IncidentsConfig(AppConfig):
    name = "ledgers.incidents"
    label = "incidents"
    verbose_name = _("Incidents")

    def ready(self) -> None:
        from ledgers.notifications.models import NoticeKind
        from ledgers.notifications.services import on_acknowledged

        from . import categories, dashboard, registers, services  # noqa: F401

        on_acknowledged(NoticeKind.INCIDENT, services.incident_notice_acknowledged)
