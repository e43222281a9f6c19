"""The rake taken on each pot of a poker table-partie."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from ledgers.core.models import TableSession

from .floats import MONEY


class PotRake(models.Model):
    """FR texas hold'em and omaha (art. 57-2, 57-4-3, COUNT-18, COUNT-19): one pot of a table-partie,
    the rake the posted rate and the buy-in's cap allow on it, the rake taken into the table's
    cagnotte and the gain paid to the winner, as art. 56-1 has an approved machine trace them (the
    time, the pot, the rake, the gain). Append-only: a pot is never edited."""

    table_session = models.ForeignKey(TableSession, on_delete=models.PROTECT, related_name="pot_rakes")
    number = models.PositiveIntegerField(_("pot n°"))
    taken_at = models.DateTimeField(_("heure"))
    pot = models.DecimalField(_("montant du pot"), **MONEY)
    cave = models.DecimalField(_("cave initiale"), **MONEY)
    rate_percent = models.DecimalField(_("taux affiché (%)"), max_digits=5, decimal_places=2)
    allowed = models.DecimalField(_("retenue due"), **MONEY)
    taken = models.DecimalField(_("retenue opérée"), **MONEY)
    gain = models.DecimalField(_("gain versé"), **MONEY)
    flags = models.JSONField(_("signalements"), default=list, blank=True)
    taken_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")

    class Meta:
        verbose_name = _("retenue d'un pot")
        verbose_name_plural = _("retenues des pots")
        ordering = ["table_session", "number"]
        constraints = [models.UniqueConstraint(fields=["table_session", "number"], name="pot_rake_number_unique")]

    def __str__(self) -> str:
        return f"{self.table_session} — pot {self.number}"
