"""Tickets and their reconciliations."""

from django.db import models
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from ledgers.core.models import Establishment

from .accounting import AccountingLine
from .machines import USER, Machine
from .releves import Releve


class Ticket(models.Model):
    """A TITO ticket issued by a machine or by the cash desk (FR SLOT-44), imported from the approved
    cashless system; its issue and its payment are lines of the slot cash desk's register. Not
    redeemed within SET-37 days after its issue date it expires: the expiry run posts it to the
    orphans carnet (modèle 11 bis) and, for a machine's ticket, to its modèle 29; it is never
    redeemed nor refunded afterwards (art. 41)."""

    class Status(models.TextChoices):
        ISSUED = "issued", _("Émis")
        REDEEMED = "redeemed", _("Payé")
        EXPIRED = "expired", _("Périmé (orphelin)")

    establishment = models.ForeignKey(Establishment, on_delete=models.PROTECT, related_name="+")
    number = models.CharField(_("numéro du ticket"), max_length=40)
    issued_at = models.DateTimeField(_("émis le"))
    amount = models.DecimalField(_("montant (€)"), max_digits=14, decimal_places=2)
    machine = models.ForeignKey(
        Machine, on_delete=models.PROTECT, null=True, blank=True, related_name="+", verbose_name=_("machine émettrice")
    )  # none: issued by the cash desk
    status = models.CharField(_("statut"), max_length=10, choices=Status.choices, default=Status.ISSUED)
    redeemed_at = models.DateTimeField(_("payé le"), null=True, blank=True)
    redeemed_by = models.ForeignKey(USER, on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    orphan = models.ForeignKey("cash.Orphan", on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("ticket")
        verbose_name_plural = _("tickets")
        ordering = ["-issued_at"]
        constraints = [models.UniqueConstraint(fields=["establishment", "number"], name="slot_ticket_number_unique")]

    def __str__(self) -> str:
        return f"{self.number} — {self.amount} €"


class Reconciliation(models.Model):
    """The état de rapprochement modèle 31 of a meter reading (FR SLOT-43, REG-41): one line per
    machine read, its manual-jackpot meter since the previous reading against the cash-desk
    payments of its modèle 29."""

    releve = models.OneToOneField(Releve, on_delete=models.PROTECT, related_name="reconciliation")
    drawn_up_at = models.DateTimeField(_("établi le"))
    cashier = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+", verbose_name=_("caissier"))
    comite = models.ForeignKey(
        USER, on_delete=models.PROTECT, related_name="+", verbose_name=_("membre du comité de direction")
    )
    entry = models.ForeignKey("registers.Entry", on_delete=models.PROTECT, related_name="+")

    class Meta:
        verbose_name = _("état de rapprochement")
        verbose_name_plural = _("états de rapprochement")
        ordering = ["-drawn_up_at"]

    def __str__(self) -> str:
        return f"{_('État de rapprochement')} — {self.releve}"


class ReconciliationLine(models.Model):
    """A machine's line of modèle 31: a shortfall of payments (meters above payments) is unclaimed
    wins, posted to orphans and to modèle 29; payments above the meters are flagged."""

    reconciliation = models.ForeignKey(Reconciliation, on_delete=models.PROTECT, related_name="lines")
    machine = models.ForeignKey(Machine, on_delete=models.PROTECT, related_name="+")
    period_start = models.DateTimeField(_("depuis le relevé du"), null=True, blank=True)
    period_end = models.DateTimeField(_("jusqu'au relevé du"))
    meter_units = models.BigIntegerField(_("écart du compteur (crédits)"))
    meter_amount = models.DecimalField(_("montant selon le compteur (€)"), max_digits=14, decimal_places=2)
    payments = models.DecimalField(_("paiements à la caisse (€)"), max_digits=14, decimal_places=2)
    difference = models.DecimalField(_("différence (€)"), max_digits=14, decimal_places=2)
    flagged = models.BooleanField(_("paiements supérieurs au compteur"), default=False)
    orphan = models.ForeignKey("cash.Orphan", on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    accounting_line = models.OneToOneField(
        AccountingLine, on_delete=models.PROTECT, null=True, blank=True, related_name="reconciliation_line"
    )

    class Meta:
        verbose_name = _("ligne de l'état de rapprochement")
        verbose_name_plural = _("lignes de l'état de rapprochement")
        constraints = [models.UniqueConstraint(fields=["reconciliation", "machine"], name="slot_reconciliation_once")]

    def __str__(self) -> str:
        return f"{self.machine.number} — {self.difference} €"
