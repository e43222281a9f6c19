from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AuthorityConfig(AppConfig):
    name = "ledgers.authority"
    label = "authority"
    verbose_name = _("Autorités et conformité")

    def ready(self) -> None:
        # The register kinds and the checks of the tables' set-up and opening.
        from . import hooks, registers  # noqa: F401
