from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SlotsConfig(AppConfig):
    name = "ledgers.slots"
    label = "slots"
    verbose_name = _("Machines à sous")

    def ready(self) -> None:
        # The register kinds, the meter incident category and the dashboard panel.
        from . import dashboard, registers, rules  # noqa: F401
