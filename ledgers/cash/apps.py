from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CashConfig(AppConfig):
    name = "ledgers.cash"
    label = "cash"
    verbose_name = _("Caisses des jeux")

    def ready(self) -> None:
        # The register kinds, key purposes and hooks.
        from . import hooks, purposes, registers  # noqa: F401
