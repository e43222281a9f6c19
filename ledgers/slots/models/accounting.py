"""Slot accounting: accounting lines, machine advances and the monthly statements."""

from django.db import models
from django.utils.translation import gettext_lazy as _

from ledgers.core.models import Establishment
from ledgers.core.statements import CertifiedMonthlyStatement

from .machines import USER, Machine
from .payments import JackpotPayment


class AccountingLine(models.Model):
    """A line of the machine's carnet de comptabilité modèle 29 (FR SLOT-55, REG-41), visaed by the
    cashier and a comité member: day by day the avances, the cash-desk payments and the tickets out
    issued; at each count the physical and electronic counts, the unclaimed wins and the real gaming
    product. The avances, payments and tickets after the machine's last count are its cash values
    (bons) until the next count (SLOT-49), which takes them into its product."""

    class Kind(models.TextChoices):
        AVANCE = "avance", _("Avance à la machine")
        PAYMENT = "payment", _("Paiement à la caisse")
        TICKETS = "tickets", _("Tickets émis par la machine")
        COUNT = "count", _("Comptage")
        # Annotations that do not enter the open bons (SLOT-40, SLOT-43, SLOT-44): JPM increments,
        # unclaimed wins found by modèle 31 and expired tickets posted to orphans.
        INCREMENT = "increment", _("Incrémentation du jackpot progressif multisites")
        UNCLAIMED = "unclaimed", _("Gains non réclamés (orphelins)")
        EXPIRED = "expired", _("Tickets périmés (orphelins)")

    machine = models.ForeignKey(Machine, on_delete=models.PROTECT, related_name="accounting_lines")
    kind = models.CharField(_("nature"), max_length=10, choices=Kind.choices)
    day = models.DateField(_("journée"))
    recorded_at = models.DateTimeField(_("inscrite le"))
    # The avance, payment or tickets amount; for a count, the real gaming product.
    amount = models.DecimalField(_("montant (€)"), max_digits=14, decimal_places=2)
    physical = models.DecimalField(_("comptage physique (€)"), max_digits=14, decimal_places=2, null=True, blank=True)
    units_in = models.BigIntegerField(_("unités entrées"), null=True, blank=True)
    units_out = models.BigIntegerField(_("unités sorties"), null=True, blank=True)
    electronic = models.DecimalField(
        _("comptage électronique (€)"), max_digits=14, decimal_places=2, null=True, blank=True
    )
    avances = models.DecimalField(_("avances (€)"), max_digits=14, decimal_places=2, null=True, blank=True)
    payments = models.DecimalField(
        _("paiements à la caisse (€)"), max_digits=14, decimal_places=2, null=True, blank=True
    )
    unclaimed = models.DecimalField(_("gains non réclamés (€)"), max_digits=14, decimal_places=2, null=True, blank=True)
    tickets = models.DecimalField(_("tickets émis (€)"), max_digits=14, decimal_places=2, null=True, blank=True)
    jackpot = models.OneToOneField(
        JackpotPayment, on_delete=models.PROTECT, null=True, blank=True, related_name="accounting_line"
    )
    cashier = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+", verbose_name=_("caissier"))
    comite = models.ForeignKey(
        USER, on_delete=models.PROTECT, related_name="+", verbose_name=_("membre du comité de direction")
    )
    entry = models.ForeignKey("registers.Entry", on_delete=models.PROTECT, related_name="+")

    class Meta:
        verbose_name = _("ligne du carnet de comptabilité")
        verbose_name_plural = _("lignes du carnet de comptabilité")
        ordering = ["machine", "recorded_at", "pk"]

    def __str__(self) -> str:
        return f"{self.machine.number} — {self.get_kind_display()} — {self.amount} €"


class MachineAvance(models.Model):
    """A bon d'avance machine (FR SLOT-42, REG-42): numbered without gaps per establishment, signed
    by the cashier and a comité member, the machine refilled by an employee under the comité
    member's control; its modèle 29 line is ``line``."""

    class Reason(models.TextChoices):
        HOPPER_EMPTY = "hopper_empty", _("Trémie vide pendant un paiement")
        NEW_MACHINE = "new_machine", _("Mise en service de la machine")
        PREVENTIVE = "preventive", _("Avance préventive (trémie basse)")

    establishment = models.ForeignKey(Establishment, on_delete=models.PROTECT, related_name="+")
    bon_number = models.PositiveIntegerField(_("bon d'avance n°"))
    machine = models.ForeignKey(Machine, on_delete=models.PROTECT, related_name="avances")
    reason = models.CharField(_("motif"), max_length=15, choices=Reason.choices)
    issued_at = models.DateTimeField(_("date et heure"))
    denomination = models.CharField(_("valeur des pièces ou jetons"), max_length=30)
    amount = models.DecimalField(_("montant (€)"), max_digits=14, decimal_places=2)
    cashier = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+", verbose_name=_("caissier"))
    comite = models.ForeignKey(
        USER, on_delete=models.PROTECT, related_name="+", verbose_name=_("membre du comité de direction")
    )
    refilled_by = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+", verbose_name=_("rechargée par"))
    line = models.OneToOneField(AccountingLine, on_delete=models.PROTECT, related_name="avance")

    class Meta:
        verbose_name = _("bon d'avance machine")
        verbose_name_plural = _("bons d'avance machine")
        ordering = ["establishment", "bon_number"]
        constraints = [models.UniqueConstraint(fields=["establishment", "bon_number"], name="slot_avance_bon_unique")]

    def __str__(self) -> str:
        return f"n° {self.bon_number} — {self.machine.number} — {self.amount} €"


class MonthlyStatement(CertifiedMonthlyStatement):
    """The état récapitulatif mensuel modèle 35 (FR SLOT-56, REG-41): one line per machine from its
    modèle 29 counts of the month, certified by the casino director and a comité member (two
    persons); its total, less the bons d'incrémentation of a JPM withdrawal during the month
    (``jpm_deduction``, SLOT-41), is carried to the carnet des prélèvements modèle 13 (COUNT-57).
    Lines: [{machine, location, casino, maker, counts, avances, payments, tickets, unclaimed,
    unit_stake, rate, product, jpm_deduction}]."""

    total = models.DecimalField(_("produit réel des jeux du mois (€)"), max_digits=16, decimal_places=2)
    director = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+", verbose_name=_("directeur"))

    class Meta(CertifiedMonthlyStatement.Meta):
        verbose_name = _("état récapitulatif mensuel")
        verbose_name_plural = _("états récapitulatifs mensuels")
        constraints = [
            models.UniqueConstraint(fields=["establishment", "year", "month"], name="slot_statement_35_month_unique")
        ]

    def __str__(self) -> str:
        return f"{super().__str__()} — {self.total} €"


class MeterStatement(CertifiedMonthlyStatement):
    """The état mensuel du relevé des compteurs modèle 32 (FR SLOT-47, REG-41): at the month-end
    count, one line per machine that was in the fleet during the month (location, casino and maker
    numbers, its meter values), certified by the gaming employee who read them and the comité
    member responsible. Lines: [{machine, location, casino, maker, status, meters: {key@station:
    value}}]."""

    employee = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+", verbose_name=_("employé de jeux"))

    class Meta(CertifiedMonthlyStatement.Meta):
        verbose_name = _("état mensuel du relevé des compteurs")
        verbose_name_plural = _("états mensuels du relevé des compteurs")
        constraints = [
            models.UniqueConstraint(fields=["establishment", "year", "month"], name="slot_statement_32_month_unique")
        ]
