from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class EquipmentConfig(AppConfig):
    name = "ledgers.equipment"
    label = "equipment"
    verbose_name = _("Sabots, mélangeurs, cylindres et roues")

    def ready(self) -> None:
        from ledgers.core import hooks

        from . import approvals, checks, dashboard, domains, registers  # noqa: F401

        # The shuffler first: a started shuffler with its dealing attachment stands in for the sabot.
        hooks.on_table_opening(checks.check_shuffler_started)
        hooks.on_table_opening(checks.check_shoe_allocated)
        hooks.on_table_opening(checks.check_wheel_ready)
        hooks.on_table_closing(checks.check_shuffler_ended)
        hooks.on_table_closing(checks.check_lid_locked)
