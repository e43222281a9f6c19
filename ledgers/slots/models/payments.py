"""Jackpot thresholds and payments, disputes and top-ups."""

from decimal import Decimal

from django.db import models
from django.utils.translation import gettext_lazy as _

from ledgers.core.models import Establishment

from .machines import USER, Machine


class JackpotThreshold(models.Model):
    """The amount above which a win is paid only on an identity document (MC SLOT-16, SET-18),
    versioned with its effective date: a payment is checked against the amount then in force."""

    establishment = models.ForeignKey(Establishment, on_delete=models.PROTECT, related_name="+")
    amount = models.DecimalField(_("montant (€)"), max_digits=12, decimal_places=2)
    effective_from = models.DateTimeField(_("en vigueur le"))
    set_by = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+")
    entry = models.ForeignKey("registers.Entry", on_delete=models.PROTECT, related_name="+")

    class Meta:
        verbose_name = _("seuil d'identification des gagnants")
        verbose_name_plural = _("seuils d'identification des gagnants")
        ordering = ["-effective_from"]

    def __str__(self) -> str:
        return f"{self.amount} € — {self.effective_from:%d/%m/%Y}"


class PaymentMethod(models.TextChoices):
    CASH = "cash", _("Espèces")
    CHEQUE = "cheque", _("Chèque")
    TRANSFER = "transfer", _("Virement")


class JackpotPayment(models.Model):
    """A manual payment of a jackpot or cumulative prizes: MC by the superviseur, the winner
    identified above the threshold (SLOT-16, 17); FR at the cash desk by the cashier under the
    comité member's control, on a bon de paiement (SLOT-35, REG-37, REG-42)."""

    machine = models.ForeignKey(Machine, on_delete=models.PROTECT, related_name="jackpots")
    station = models.PositiveSmallIntegerField(_("poste"), default=1)
    paid_at = models.DateTimeField(_("payé le"))
    amount = models.DecimalField(_("montant (€)"), max_digits=14, decimal_places=2)
    combination = models.CharField(_("combinaison gagnante"), max_length=200, blank=True)
    method = models.CharField(_("mode de paiement"), max_length=10, choices=PaymentMethod.choices)
    id_type = models.CharField(_("pièce d'identité"), max_length=60, blank=True)
    id_number = models.CharField(_("numéro de la pièce"), max_length=60, blank=True)
    pre_check = models.TextField(_("contrôle préalable de la machine"), blank=True)
    paid_by = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+", verbose_name=_("payé par"))
    controlled_by = models.ForeignKey(
        USER, on_delete=models.PROTECT, null=True, blank=True, related_name="+", verbose_name=_("contrôlé par")
    )
    bon_number = models.PositiveIntegerField(_("bon de paiement n°"), null=True, blank=True)
    flags = models.JSONField(_("signalements"), default=list, blank=True)
    entry = models.ForeignKey("registers.Entry", on_delete=models.PROTECT, related_name="+")

    class Meta:
        verbose_name = _("paiement de jackpot")
        verbose_name_plural = _("paiements de jackpots")
        ordering = ["-paid_at"]

    def __str__(self) -> str:
        return f"{self.machine.number} — {self.amount} €"


class PaymentDispute(models.Model):
    """A customer's dispute about a machine payment, decided by the superviseur after hearing the
    mechanic (MC SLOT-18, INC-04)."""

    machine = models.ForeignKey(Machine, on_delete=models.PROTECT, related_name="+")
    claim = models.TextField(_("réclamation du client"))
    mechanic = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+", verbose_name=_("mécanicien"))
    mechanic_statement = models.TextField(_("avis du mécanicien"))
    heard_at = models.DateTimeField(_("mécanicien entendu le"))
    decision = models.TextField(_("décision"))
    amount_paid = models.DecimalField(_("montant payé (€)"), max_digits=14, decimal_places=2, default=Decimal("0"))
    decided_by = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+")
    decided_at = models.DateTimeField(_("décidé le"))
    entry = models.ForeignKey("registers.Entry", on_delete=models.PROTECT, related_name="+")

    class Meta:
        verbose_name = _("contestation de paiement")
        verbose_name_plural = _("contestations de paiement")
        ordering = ["-decided_at"]

    def __str__(self) -> str:
        return f"{self.machine.number} — {self.decided_at:%d/%m/%Y}"


class TopUp(models.Model):
    """A complément de paiement written in the cahier (MC SLOT-20, REG-17)."""

    machine = models.ForeignKey(Machine, on_delete=models.PROTECT, related_name="+")
    paid_at = models.DateTimeField(_("payé le"))
    combination = models.CharField(_("combinaison"), max_length=200)
    amount_due = models.DecimalField(_("montant dû (€)"), max_digits=14, decimal_places=2)
    paid_by_machine = models.DecimalField(_("payé par la machine (€)"), max_digits=14, decimal_places=2)
    difference = models.DecimalField(_("complément payé (€)"), max_digits=14, decimal_places=2)
    customer = models.CharField(_("client"), max_length=200)
    mechanic_opinion = models.TextField(_("avis du mécanicien"))
    paid_by = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+")
    entry = models.ForeignKey("registers.Entry", on_delete=models.PROTECT, related_name="+")

    class Meta:
        verbose_name = _("complément de paiement")
        verbose_name_plural = _("compléments de paiement")
        ordering = ["-paid_at"]

    def __str__(self) -> str:
        return f"{self.machine.number} — {self.difference} €"
