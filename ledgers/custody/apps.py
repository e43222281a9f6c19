from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CustodyConfig(AppConfig):
    name = "ledgers.custody"
    label = "custody"
    verbose_name = _("Garde des matériels réglementés")

    def ready(self) -> None:
        # The register kinds, approval sources and hooks.
        from . import approvals, hooks, registers  # noqa: F401
