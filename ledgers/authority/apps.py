from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AuthorityConfig(AppConfig):
    name = "ledgers.authority"
    label = "authority"
    verbose_name = _("Autorités et conformité")

    def ready(self) -> None:
        # The register kinds and dashboard panels.
        from . import dashboard, registers  # noqa: F401
