"""Slot room staffing."""

from django.db import models
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from ledgers.core.models import Establishment

from .interventions import StaffApproval
from .machines import USER


class SlotStaffing(models.Model):
    """The slot room's staffing for a gaming day (FR-2007 art. 68-27, SLOT-50), written before the
    séance opens: the comité member assigned to the control of the games, the cashier and the
    mechanic (required above SET-43 machines) or, at most SET-43 machines, the entrance employee or
    the cashier trained beforehand for routine maintenance, each with his ministerial approval."""

    establishment = models.ForeignKey(Establishment, on_delete=models.PROTECT, related_name="+")
    date = models.DateField(_("journée"))
    machines = models.PositiveIntegerField(_("machines en exploitation"))
    comite = models.ForeignKey(
        USER, on_delete=models.PROTECT, related_name="+", verbose_name=_("membre du comité de direction")
    )
    comite_approval = models.ForeignKey(StaffApproval, on_delete=models.PROTECT, related_name="+")
    cashier = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+", verbose_name=_("caissier"))
    cashier_approval = models.ForeignKey(StaffApproval, on_delete=models.PROTECT, related_name="+")
    maintainer = models.ForeignKey(
        USER,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("mécanicien ou employé chargé de l'entretien"),
    )
    maintainer_role = models.CharField(_("en qualité de"), max_length=30, blank=True)
    maintainer_approval = models.ForeignKey(
        StaffApproval, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    training = models.CharField(_("formation préalable à l'entretien"), max_length=200, blank=True)
    recorded_at = models.DateTimeField(_("inscrite le"))
    recorded_by = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+")
    entry = models.ForeignKey("registers.Entry", on_delete=models.PROTECT, related_name="+")
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("personnel de la salle des machines")
        verbose_name_plural = _("personnel de la salle des machines")
        ordering = ["-date"]
        constraints = [models.UniqueConstraint(fields=["establishment", "date"], name="slot_staffing_day")]

    def __str__(self) -> str:
        return f"{_('Personnel de la salle des machines du')} {self.date:%d/%m/%Y}"
