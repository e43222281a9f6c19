from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CashConfig(AppConfig):
    name = "ledgers.cash"
    label = "cash"
    verbose_name = _("Caisses des jeux")

    def ready(self) -> None:
        # The register kinds, the séance closing check, the dashboard panel.
        from . import dashboard, hooks, registers  # noqa: F401

        # The table count as a key purpose (KEY-03, KEY-14).
        from .purposes import declare

        declare()
