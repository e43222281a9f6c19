from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class EquipmentConfig(AppConfig):
    name = "ledgers.equipment"
    label = "equipment"
    verbose_name = _("Sabots, mélangeurs, cylindres et roues")

    def ready(self) -> None:
        # The register kinds, approval sources, custody domain, hooks and the facts its checks read of
        # the table-parties (selectors).
        from . import approvals, domains, hooks, registers, selectors  # noqa: F401
