"""FR orphans (art. 41)."""

from django.db import models
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from ledgers.core.models import Establishment

from .floats import MONEY


class Orphan(models.Model):
    """FR orphelins (art. 41): sums, stakes and ticket or card credits whose owner is unknown,
    paid into the cash desk or a tirelire and written in carnet modèle 11 bis (COUNT-30, COUNT-31)."""

    class Category(models.TextChoices):
        FLOOR = "floor", _("Trouvé au sol")
        TABLE = "table", _("Laissé sur une table")
        ABANDONED_STAKE = "abandoned_stake", _("Mise abandonnée en cours de partie")
        TICKET = "ticket", _("Ticket ou carte dont le titulaire est inconnu")
        EXPIRED_TICKET = "expired_ticket", _("Ticket périmé")
        # The increment of a jackpot stopped for good: bad beat (COUNT-47), progressive (SLOT-37, SLOT-41).
        JACKPOT_INCREMENT = "jackpot_increment", _("Incrément d'un jackpot arrêté définitivement")
        UNCLAIMED_WIN = "unclaimed_win", _("Gain de machine à sous non réclamé")  # SLOT-43

    establishment = models.ForeignKey(Establishment, on_delete=models.PROTECT, related_name="orphans")
    category = models.CharField(_("nature"), max_length=20, choices=Category.choices)
    place = models.CharField(_("lieu"), max_length=100)
    amount = models.DecimalField(_("montant"), **MONEY)
    initial_stake = models.DecimalField(_("mise initiale"), **MONEY, null=True, blank=True)
    winnings = models.DecimalField(_("gains cumulés"), **MONEY, null=True, blank=True)
    found_by = models.CharField(_("trouvé par"), max_length=150)
    witness = models.CharField(_("témoin"), max_length=150, blank=True)
    found_at = models.DateTimeField(_("trouvé le"))
    paid_into = models.CharField(_("versé à (caisse ou tirelire n°)"), max_length=60)
    entry_seq = models.PositiveBigIntegerField(_("inscription au carnet n°"))
    refunded = models.DecimalField(_("restitué"), **MONEY, default=0)
    restitutions = models.JSONField(_("restitutions"), default=list, blank=True)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("orphelin")
        verbose_name_plural = _("orphelins")
        ordering = ["-found_at"]

    def __str__(self) -> str:
        return f"{self.get_category_display()} — {self.amount} €"
