from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class DiceConfig(AppConfig):
    name = "ledgers.dice"
    label = "dice"
    verbose_name = _("Dés (craps, rampo)")

    def ready(self) -> None:
        # The register kinds, the custody domain and the table opening / closing checks.
        from . import domain, hooks, registers  # noqa: F401
