"""Cagnotte counts and the cercle tables' own cagnottes."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from ledgers.core.models import GamingTable, TableSession

from .floats import MONEY


class CagnotteCount(models.Model):
    """The cagnotte of a cercle table-partie: computed from the tickets detached (col. 8) before it
    is opened, then counted (col. 9); the higher of the two is carried (col. 15, COUNT-53)."""

    class Status(models.TextChoices):
        COMPUTED = "computed", _("Calculée, à compter")
        COUNTED = "counted", _("Comptée et certifiée")

    table_session = models.OneToOneField(TableSession, on_delete=models.PROTECT, related_name="cagnotte")
    status = models.CharField(_("statut"), max_length=10, choices=Status.choices, default=Status.COMPUTED)
    tickets = models.JSONField(_("tickets détachés"))
    computed = models.DecimalField(_("cagnotte calculée (col. 8)"), **MONEY)
    computed_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    computed_at = models.DateTimeField(_("calculée le"))
    counted = models.DecimalField(_("cagnotte comptée (col. 9)"), **MONEY, null=True, blank=True)
    breakdown = models.JSONField(_("nomenclature"), default=list, blank=True)
    surplus = models.DecimalField(_("excédent (col. 10)"), **MONEY, default=0)
    shortfall = models.DecimalField(_("manquant à la charge de la caisse (col. 11)"), **MONEY, default=0)
    balancing_ticket = models.PositiveIntegerField(_("dernier ticket d'équilibre (col. 13)"), null=True, blank=True)
    retained = models.DecimalField(_("report au modèle 12 (col. 15)"), **MONEY, null=True, blank=True)
    counted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    certification = models.CharField(_("mention"), max_length=40, blank=True)
    counted_at = models.DateTimeField(_("comptée le"), null=True, blank=True)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("cagnotte")
        verbose_name_plural = _("cagnottes")

    def __str__(self) -> str:
        return str(self.table_session)


class TableCagnotte(models.Model):
    """FR: the cagnotte of a cercle table, which receives the levies made for the establishment and
    bears the same number as its table (texas hold'em COUNT-17, baccara COUNT-42). Append-only: a
    replaced cagnotte is a new record, the latest counts."""

    table = models.ForeignKey(GamingTable, on_delete=models.PROTECT, related_name="cagnottes")
    number = models.CharField(_("cagnotte n°"), max_length=40)
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField(_("inscrite le"))

    class Meta:
        verbose_name = _("cagnotte de table")
        verbose_name_plural = _("cagnottes de table")
        ordering = ["table", "-recorded_at"]

    def __str__(self) -> str:
        return f"{self.table.number} — {self.number}"
