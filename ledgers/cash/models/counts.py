"""The end-of-séance counts of the tables."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from ledgers.core.models import TableSession

from .floats import MONEY


class TableCount(models.Model):
    """The end-of-séance count of a table-partie's encaisse: two blind counts (the second person
    does not see the first until both are in), then the certification (COUNT-15, COUNT-50)."""

    class Status(models.TextChoices):
        AWAITING_SECOND = "awaiting", _("En attente du second comptage")
        AGREED = "agreed", _("Comptages concordants")
        ESCALATED = "escalated", _("Écart entre les comptages")
        CERTIFIED = "certified", _("Certifiée")

    table_session = models.OneToOneField(TableSession, on_delete=models.PROTECT, related_name="count")
    status = models.CharField(_("statut"), max_length=10, choices=Status.choices, default=Status.AWAITING_SECOND)
    first_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    first_breakdown = models.JSONField(_("premier comptage"))
    first_total = models.DecimalField(_("premier total"), **MONEY)
    second_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    second_breakdown = models.JSONField(_("second comptage"), null=True, blank=True)
    second_total = models.DecimalField(_("second total"), **MONEY, null=True, blank=True)
    tips = models.DecimalField(_("pourboires"), **MONEY, default=0)
    present = models.JSONField(_("employés de la table présents"), default=list)
    called_aloud = models.BooleanField(_("annoncé à haute voix"), default=False)
    count_room = models.BooleanField(_("comptée en salle de comptage"), default=False)
    cctv_reference = models.CharField(_("caméra et enregistrement"), max_length=120, blank=True)
    encaisse = models.DecimalField(_("encaisse retenue"), **MONEY, null=True, blank=True)
    result = models.DecimalField(_("résultat"), **MONEY, null=True, blank=True)
    # MC trente et quarante: refait insurance premiums, a table receipt on its own line (COUNT-10)
    insurance_premiums = models.DecimalField(_("primes d'assurance refait"), **MONEY, null=True, blank=True)
    resolution = models.TextField(_("règlement de l'écart"), blank=True)
    certified_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    certified_role = models.CharField(_("qualité du certificateur"), max_length=30, blank=True)
    certification = models.CharField(_("mention"), max_length=40, blank=True)
    certified_at = models.DateTimeField(_("certifiée le"), null=True, blank=True)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("comptée de fin de séance")
        verbose_name_plural = _("comptées de fin de séance")
        # The counts still to certify, among one per table-partie ever held (the cashiers' homes).
        indexes = [
            models.Index(fields=["table_session"], condition=~models.Q(status="certified"), name="table_count_open_idx")
        ]

    def __str__(self) -> str:
        return str(self.table_session)
