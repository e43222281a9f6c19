from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class IncidentsConfig(AppConfig):
    name = "ledgers.incidents"
    label = "incidents"
    verbose_name = _("Incidents")

    def ready(self) -> None:
        # The incident categories, register kind, hooks and dashboard panels.
        from . import categories, dashboard, hooks, registers  # noqa: F401
