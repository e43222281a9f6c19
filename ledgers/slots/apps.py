from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SlotsConfig(AppConfig):
    name = "ledgers.slots"
    label = "slots"
    verbose_name = _("Machines à sous")

    def ready(self) -> None:
        # The register kinds, incident categories, key purposes, set-up imports and hooks.
        from . import hooks, imports, purposes, registers, rules  # noqa: F401
