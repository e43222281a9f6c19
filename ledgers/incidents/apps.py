from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class IncidentsConfig(AppConfig):
    name = "ledgers.incidents"
    label = "incidents"
    verbose_name = _("Incidents")

    def ready(self) -> None:
        # The incident categories, register kind and hooks.
        from . import categories, hooks, registers  # noqa: F401
