from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SlotsConfig(AppConfig):
    name = "ledgers.slots"
    label = "slots"
    verbose_name = _("Machines à sous")

    def ready(self) -> None:
        # The register kinds, the meter incident category and the dashboard panel.
        from . import dashboard, registers, rules  # noqa: F401

        # The relève and the intervention as key purposes, and the fleet size (issue 9).
        from .purposes import declare

        declare()

        # The séance closing checks of progressives (SLOT-36, SLOT-38) and orphans (SLOT-43, SLOT-44).
        from . import progressives, unclaimed  # noqa: F401
