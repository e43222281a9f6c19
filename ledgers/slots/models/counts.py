"""Slot counts and their lines."""

from decimal import Decimal

from django.db import models
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from ledgers.core.models import Establishment

from .accounting import AccountingLine
from .machines import USER, Machine
from .releves import DropCount, Releve


class SlotCount(models.Model):
    """A count session of the slot boxes (coins or chips, bills, tickets): FR art. 68-24 (SLOT-46),
    as needed and always on the month's last day, covering every machine that ran since its last
    count, one line per machine written in its modèle 29; MC the drop count of a relève's boxes.
    While open it is the purpose the bill-box content keys go out for (KEY-03, KEY-14)."""

    class Kind(models.TextChoices):
        AS_NEEDED = "as_needed", _("Comptée en tant que de besoin")
        MONTH_END = "month_end", _("Comptée de fin de mois")
        SEASON_END = "season_end", _("Comptée de fin de saison")
        INTRA_SEANCE = "intra_seance", _("Comptée d'une dénomination en cours de séance")
        DENOMINATION_END = "denomination_end", _("Comptée générale de la dénomination en fin de séance")

    class Status(models.TextChoices):
        OPEN = "open", _("En cours")
        CLOSED = "closed", _("Close")

    establishment = models.ForeignKey(Establishment, on_delete=models.PROTECT, related_name="+")
    kind = models.CharField(_("type de comptée"), max_length=20, choices=Kind.choices)
    status = models.CharField(_("statut"), max_length=10, choices=Status.choices, default=Status.OPEN)
    day = models.DateField(_("journée"))
    seance = models.ForeignKey(
        "core.Seance", on_delete=models.PROTECT, null=True, blank=True, related_name="+", verbose_name=_("séance")
    )
    denomination = models.DecimalField(_("dénomination (€)"), max_digits=10, decimal_places=2, null=True, blank=True)
    releve = models.ForeignKey(
        Releve, on_delete=models.PROTECT, null=True, blank=True, related_name="+", verbose_name=_("relève")
    )
    floats = models.DecimalField(
        _("fonds de caisse comptés (€)"), max_digits=14, decimal_places=2, null=True, blank=True
    )
    opened_at = models.DateTimeField(_("ouverte le"))
    opened_by = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+", verbose_name=_("ouverte par"))
    closed_at = models.DateTimeField(_("close le"), null=True, blank=True)
    closed_by = models.ForeignKey(
        USER, on_delete=models.PROTECT, null=True, blank=True, related_name="+", verbose_name=_("close par")
    )
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("comptée des machines à sous")
        verbose_name_plural = _("comptées des machines à sous")
        ordering = ["-opened_at"]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} — {self.day:%d/%m/%Y}"


class SlotCountLine(models.Model):
    """One machine counted in a count session: its boxes, the electronic units in and out on a
    cashless machine, its hopper at the season end; FR its modèle 29 line, MC its reconciled drop."""

    count = models.ForeignKey(SlotCount, on_delete=models.PROTECT, related_name="lines")
    machine = models.ForeignKey(Machine, on_delete=models.PROTECT, related_name="+")
    coins = models.DecimalField(_("pièces ou jetons (€)"), max_digits=14, decimal_places=2, default=Decimal("0"))
    bills = models.DecimalField(_("billets (€)"), max_digits=14, decimal_places=2, default=Decimal("0"))
    tickets = models.DecimalField(_("tickets (€)"), max_digits=14, decimal_places=2, default=Decimal("0"))
    units_in = models.BigIntegerField(_("unités entrées"), null=True, blank=True)
    units_out = models.BigIntegerField(_("unités sorties"), null=True, blank=True)
    hopper = models.DecimalField(_("trémie (€)"), max_digits=14, decimal_places=2, null=True, blank=True)
    accounting_line = models.OneToOneField(
        AccountingLine, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    drop_count = models.OneToOneField(DropCount, on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    recorded_at = models.DateTimeField(_("comptée le"))
    recorded_by = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+")
    entry = models.ForeignKey("registers.Entry", on_delete=models.PROTECT, related_name="+")

    class Meta:
        verbose_name = _("ligne de comptée")
        verbose_name_plural = _("lignes de comptée")
        ordering = ["count", "machine"]
        constraints = [models.UniqueConstraint(fields=["count", "machine"], name="slot_count_line_once")]

    def __str__(self) -> str:
        return f"{self.machine.number} — {self.total} €"

    @property
    def total(self) -> Decimal:
        return self.coins + self.bills + self.tickets
