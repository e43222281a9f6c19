"""Interventions on machines, staff approvals, SFM visits and the daily envelope."""

from django.db import models
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from ledgers.core.models import Establishment

from .machines import USER, Machine


class DailyTransmittal(models.Model):
    """The superviseur's envelope of the day's intervention sheets to the Direction de
    l'exploitation (SLOT-15)."""

    establishment = models.ForeignKey(Establishment, on_delete=models.PROTECT, related_name="+")
    date = models.DateField(_("journée"))
    handed_by = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+", verbose_name=_("remise par"))
    handed_at = models.DateTimeField(_("remise le"))
    received_by = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+", verbose_name=_("reçue par"))
    entry = models.ForeignKey("registers.Entry", on_delete=models.PROTECT, related_name="+")

    class Meta:
        verbose_name = _("transmission quotidienne des fiches")
        verbose_name_plural = _("transmissions quotidiennes des fiches")
        constraints = [models.UniqueConstraint(fields=["establishment", "date"], name="slot_transmittal_day")]

    def __str__(self) -> str:
        return f"{_('Enveloppe du')} {self.date:%d/%m/%Y}"


class Intervention(models.Model):
    """The fiche d'intervention (MC SLOT-14) or bon d'intervention technique (FR SLOT-53): a door
    opened by an identified mechanic (or SFM technician, FR), closed with the work done."""

    class Status(models.TextChoices):
        OPEN = "open", _("En cours")
        CLOSED = "closed", _("Close")

    machine = models.ForeignKey(Machine, on_delete=models.PROTECT, related_name="interventions")
    status = models.CharField(_("statut"), max_length=10, choices=Status.choices, default=Status.OPEN)
    technician = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+", verbose_name=_("intervenant"))
    technician_role = models.CharField(_("en qualité de"), max_length=30)
    approval = models.ForeignKey(
        "StaffApproval", on_delete=models.PROTECT, null=True, blank=True, related_name="+", verbose_name=_("agrément")
    )
    stopped_at = models.DateTimeField(_("machine arrêtée à"))
    reason = models.TextField(_("motif"))
    ended_at = models.DateTimeField(_("fin d'intervention"), null=True, blank=True)
    work_done = models.TextField(_("travaux effectués"), blank=True)
    transmittal = models.ForeignKey(
        DailyTransmittal, on_delete=models.PROTECT, null=True, blank=True, related_name="sheets"
    )
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("fiche d'intervention")
        verbose_name_plural = _("fiches d'intervention")
        ordering = ["-stopped_at"]

    def __str__(self) -> str:
        return f"{_('Intervention')} n° {self.pk} — {self.machine}"


class StaffApproval(models.Model):
    """A ministerial approval of slot staff (FR 68-27, SLOT-50) or of an SFM technician (68-30)."""

    class Kind(models.TextChoices):
        SLOT_STAFF = "slot_staff", _("Personnel des machines à sous")
        SFM = "sfm", _("Technicien de la SFM")

    establishment = models.ForeignKey(Establishment, on_delete=models.PROTECT, related_name="+")
    user = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+", verbose_name=_("personne"))
    kind = models.CharField(_("nature"), max_length=12, choices=Kind.choices)
    reference = models.CharField(_("référence"), max_length=100)
    issuer = models.CharField(_("délivré par"), max_length=200)
    valid_from = models.DateField(_("valable du"))
    valid_until = models.DateField(_("valable jusqu'au"), null=True, blank=True)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("agrément")
        verbose_name_plural = _("agréments")
        ordering = ["user", "-valid_from"]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.reference}"


class SfmVisit(models.Model):
    """The SFM's revision and control visit (FR SLOT-54), at least every SET-38 days of operation:
    the machines seen and, for those with a bill, ticket or card acceptor, the insertion and
    automatic payment limits checked (SLOT-25)."""

    establishment = models.ForeignKey(Establishment, on_delete=models.PROTECT, related_name="+")
    visited_at = models.DateTimeField(_("visite du"))
    technician = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+", verbose_name=_("technicien"))
    approval = models.ForeignKey(StaffApproval, on_delete=models.PROTECT, related_name="+")
    machines = models.ManyToManyField(Machine, related_name="sfm_visits", verbose_name=_("machines"))
    # {machine number: {"insertion_limit": "…", "payment_limit": "…", "compliant": bool}}
    limits = models.JSONField(_("limites contrôlées"), default=dict)
    remarks = models.TextField(_("remarques et conclusions"))
    entry = models.ForeignKey("registers.Entry", on_delete=models.PROTECT, related_name="+")

    class Meta:
        verbose_name = _("visite de la SFM")
        verbose_name_plural = _("visites de la SFM")
        ordering = ["-visited_at"]

    def __str__(self) -> str:
        return f"{_('Visite SFM du')} {self.visited_at:%d/%m/%Y}"
