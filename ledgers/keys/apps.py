from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class KeysConfig(AppConfig):
    name = "ledgers.keys"
    label = "keys"
    verbose_name = _("Clés")

    def ready(self) -> None:
        # The register kind, the core purposes, the import of keys and hooks.
        from . import hooks, imports, purposes, registers  # noqa: F401
