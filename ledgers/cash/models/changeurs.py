"""Changeurs' floats and their fixed sums."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from ledgers.core.models import GamingTable, TableSession

from .floats import MONEY


class ChangeurFloatFix(models.Model):
    """FR art. 37: the sum the directeur responsable fixes for the cash box of a cercle table's
    changeur (COUNT-28). Append-only: a new amount is a new record, the latest counts."""

    table = models.ForeignKey(GamingTable, on_delete=models.PROTECT, related_name="changeur_float_fixes")
    amount = models.DecimalField(_("somme fixée"), **MONEY)
    fixed_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    fixed_at = models.DateTimeField(_("fixée le"))

    class Meta:
        verbose_name = _("somme fixée du changeur")
        verbose_name_plural = _("sommes fixées des changeurs")
        ordering = ["table", "-fixed_at"]

    def __str__(self) -> str:
        return f"{self.table.number} — {self.amount} €"


class ChangeurFloat(models.Model):
    """FR art. 37: the changeur's cash box at a cercle table-partie, holding the sum fixed by the
    directeur responsable, written in the table's carnet modèle 11 before he changes (COUNT-28).
    Append-only."""

    table_session = models.ForeignKey(TableSession, on_delete=models.PROTECT, related_name="changeur_floats")
    changeur = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    amount = models.DecimalField(_("montant"), **MONEY)
    breakdown = models.JSONField(_("nomenclature"))
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField(_("inscrite le"))

    class Meta:
        verbose_name = _("caisse du changeur")
        verbose_name_plural = _("caisses des changeurs")
        constraints = [models.UniqueConstraint(fields=["table_session", "changeur"], name="one_changeur_float")]

    def __str__(self) -> str:
        return f"{self.table_session} — {self.amount} €"
