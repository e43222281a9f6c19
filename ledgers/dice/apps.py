from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class DiceConfig(AppConfig):
    name = "ledgers.dice"
    label = "dice"
    verbose_name = _("Dés (craps, rampo)")

    def ready(self) -> None:
        # The register kinds, custody domain and hooks.
        from . import domains, hooks, registers  # noqa: F401
