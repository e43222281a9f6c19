from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CardsConfig(AppConfig):
    name = "ledgers.cards"
    label = "cards"
    verbose_name = _("Cartes")

    def ready(self) -> None:
        # The register kinds, custody domain and hooks.
        from . import domains, hooks, registers  # noqa: F401
