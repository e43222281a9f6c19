from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class KeysConfig(AppConfig):
    name = "ledgers.keys"
    label = "keys"
    verbose_name = _("Clés")

    def ready(self) -> None:
        # The register kind, the dashboard panel, the table closing check, the core purposes.
        from . import dashboard, hooks, registers  # noqa: F401
        from .purposes import _declare_core_purposes

        _declare_core_purposes()
