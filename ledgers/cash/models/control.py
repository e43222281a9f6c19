"""The days of the registre de contrôle (modèle 12)."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from ledgers.core.models import Establishment

from .floats import MONEY


class ControlDay(models.Model):
    """A day of the FR registre de contrôle (modèle 12): its lines are carried from the certified
    carnets when the day is closed; the closing is totalled in words and visaed twice (COUNT-56)."""

    class Status(models.TextChoices):
        CLOSED = "closed", _("Arrêtée")
        VISAED = "visaed", _("Visée")

    establishment = models.ForeignKey(Establishment, on_delete=models.PROTECT, related_name="control_days")
    date = models.DateField(_("date"))
    status = models.CharField(_("statut"), max_length=10, choices=Status.choices, default=Status.CLOSED)
    contrepartie_total = models.DecimalField(_("jeux de contrepartie"), **MONEY)
    cercle_total = models.DecimalField(_("jeux de cercle"), **MONEY)
    total = models.DecimalField(_("total du jour"), **MONEY)
    total_words = models.TextField(_("arrêté en toutes lettres"))
    season_total = models.DecimalField(_("cumul de la saison"), **MONEY)
    closed_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    closed_at = models.DateTimeField(_("arrêtée le"))
    visas = models.JSONField(_("visas"), default=list, blank=True)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("journée du registre de contrôle")
        verbose_name_plural = _("journées du registre de contrôle")
        constraints = [models.UniqueConstraint(fields=["establishment", "date"], name="control_day_unique")]
        ordering = ["-date"]

    def __str__(self) -> str:
        return f"{self.date:%d/%m/%Y}"
