from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CardsConfig(AppConfig):
    name = "ledgers.cards"
    label = "cards"
    verbose_name = _("Cartes")

    def ready(self) -> None:
        from ledgers.core import hooks
        from ledgers.custody.domains import custody_domain

        from . import checks, dashboard, registers  # noqa: F401  (the card register kinds, the dashboard panels)
        from .domain import CARDS

        custody_domain(CARDS)
        hooks.on_table_opening(checks.cards_ready_for_play)
        hooks.on_table_closing(checks.cards_back_before_closing)
