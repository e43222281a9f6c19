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

        # The séance opening checks (SLOT-38, 50), the closing checks (SLOT-36, 38, 43, 44, 46, 48,
        # 49) and the incidents staff report (INC-06, INC-16).
        from . import hooks  # noqa: F401
        from .services import jpm, progressives, reports, staffing, unclaimed  # noqa: F401
