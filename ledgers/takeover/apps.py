from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TakeoverConfig(AppConfig):
    name = "ledgers.takeover"
    label = "takeover"
    verbose_name = _("Reprise de l'existant")

    def ready(self) -> None:
        # The register kind of the take-over, the domains an inventory may take over and the purpose of
        # the keys it finds out.
        from . import domains, purposes, registers  # noqa: F401
