"""Jackpots progressifs multi-sites (JPM): readings, wins, increment bons and transmissions."""

from django.db import models
from django.utils.translation import gettext_lazy as _

from ledgers.core.models import Establishment

from .accounting import AccountingLine
from .machines import USER, Machine
from .payments import JackpotPayment
from .progressives import Progressive, ProgressiveStop


class JpmReading(models.Model):
    """The day's line of the registre du relevé des jackpots progressifs multisites modèle 28 S
    (SLOT-38, REG-40), before the opening: the displayed JPM amount and the electronic "entrées"
    meter of each connected machine."""

    jackpot = models.ForeignKey(Progressive, on_delete=models.PROTECT, related_name="jpm_readings")
    day = models.DateField(_("journée"))
    displayed = models.DecimalField(_("montant affiché du JPM (€)"), max_digits=14, decimal_places=2)
    meters = models.JSONField(_("compteurs « entrées » électroniques"))  # {casino number: value}
    read_at = models.DateTimeField(_("relevé à"))
    recorded_by = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+", verbose_name=_("rédacteur"))
    entry = models.ForeignKey("registers.Entry", on_delete=models.PROTECT, related_name="+")

    class Meta:
        verbose_name = _("relevé du JPM (modèle 28 S)")
        verbose_name_plural = _("relevés du JPM (modèle 28 S)")
        ordering = ["jackpot", "-day"]
        constraints = [models.UniqueConstraint(fields=["jackpot", "day"], name="slot_jpm_reading_day")]

    def __str__(self) -> str:
        return f"{self.jackpot.code} — {self.day:%d/%m/%Y} — {self.displayed} €"


class JpmWin(models.Model):
    """A JPM won (SLOT-40): the connected machines stop; the 28 S register is annotated with the
    amount won and the "entrées" meters of each connected machine; the paying casino's bon de
    paiement is ``payment`` (SLOT-35) when the winning machine is here."""

    jackpot = models.ForeignKey(Progressive, on_delete=models.PROTECT, related_name="wins")
    won_at = models.DateTimeField(_("gagné le"))
    amount = models.DecimalField(_("montant gagné (€)"), max_digits=14, decimal_places=2)
    winning_machine = models.ForeignKey(
        Machine, on_delete=models.PROTECT, null=True, blank=True, related_name="+", verbose_name=_("machine gagnante")
    )
    winning_casino = models.CharField(_("casino payeur"), max_length=200)
    meters = models.JSONField(_("compteurs « entrées »"))  # {casino number: {"electronic": n, "electromechanical": n}}
    payment = models.OneToOneField(
        JackpotPayment, on_delete=models.PROTECT, null=True, blank=True, related_name="jpm_win"
    )
    cashier = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+", verbose_name=_("caissier"))
    comite = models.ForeignKey(
        USER, on_delete=models.PROTECT, related_name="+", verbose_name=_("membre du comité de direction")
    )
    entry = models.ForeignKey("registers.Entry", on_delete=models.PROTECT, related_name="+")

    class Meta:
        verbose_name = _("gain du JPM")
        verbose_name_plural = _("gains du JPM")
        ordering = ["-won_at"]

    def __str__(self) -> str:
        return f"{self.jackpot.code} — {self.won_at:%d/%m/%Y} — {self.amount} €"


class IncrementBon(models.Model):
    """A bon d'incrémentation (SLOT-40, SLOT-41, REG-42): for one connected machine, its share of the
    JPM increments since the last win (and, for the winning machine, the jackpot's starting amount),
    signed by the comité member and the cashier, numbered without gaps; its modèle 29 line is
    ``line``."""

    establishment = models.ForeignKey(Establishment, on_delete=models.PROTECT, related_name="+")
    bon_number = models.PositiveIntegerField(_("bon d'incrémentation n°"))
    jackpot = models.ForeignKey(Progressive, on_delete=models.PROTECT, related_name="increment_bons")
    win = models.ForeignKey(JpmWin, on_delete=models.PROTECT, null=True, blank=True, related_name="bons")
    stop = models.ForeignKey(ProgressiveStop, on_delete=models.PROTECT, null=True, blank=True, related_name="bons")
    machine = models.ForeignKey(Machine, on_delete=models.PROTECT, related_name="+")
    share = models.DecimalField(_("part des incrémentations (€)"), max_digits=14, decimal_places=2)
    start_amount = models.DecimalField(
        _("montant de départ (€)"), max_digits=14, decimal_places=2, null=True, blank=True
    )
    issued_at = models.DateTimeField(_("établi le"))
    cashier = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+", verbose_name=_("caissier"))
    comite = models.ForeignKey(
        USER, on_delete=models.PROTECT, related_name="+", verbose_name=_("membre du comité de direction")
    )
    line = models.OneToOneField(AccountingLine, on_delete=models.PROTECT, related_name="increment_bon")

    class Meta:
        verbose_name = _("bon d'incrémentation")
        verbose_name_plural = _("bons d'incrémentation")
        ordering = ["establishment", "bon_number"]
        constraints = [
            models.UniqueConstraint(fields=["establishment", "bon_number"], name="slot_increment_bon_unique")
        ]

    def __str__(self) -> str:
        return f"n° {self.bon_number} — {self.machine.number} — {self.share} €"


class JpmTransmission(models.Model):
    """The figures the directeur responsable e-mails the SCCJ at each month end and on a JPM win
    (SLOT-39): per connected machine its "entrées" meters and its increment over the period, and the
    displayed JPM amount; ``csv`` is the file sent, ``digest`` its SHA-256."""

    class Reason(models.TextChoices):
        MONTH_END = "month_end", _("Fin de mois")
        WIN = "win", _("Gain du JPM")

    jackpot = models.ForeignKey(Progressive, on_delete=models.PROTECT, related_name="transmissions")
    reason = models.CharField(_("motif"), max_length=10, choices=Reason.choices)
    period_start = models.DateField(_("du"))
    period_end = models.DateField(_("au"))
    displayed = models.DecimalField(_("montant affiché du JPM (€)"), max_digits=14, decimal_places=2)
    csv = models.TextField(_("fichier transmis"))
    digest = models.CharField(_("empreinte"), max_length=64)
    recipient = models.CharField(_("destinataire"), max_length=200)
    sent_at = models.DateTimeField(_("envoyé le"))
    sender = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+", verbose_name=_("expéditeur"))
    entry = models.ForeignKey("registers.Entry", on_delete=models.PROTECT, related_name="+")

    class Meta:
        verbose_name = _("transmission au SCCJ")
        verbose_name_plural = _("transmissions au SCCJ")
        ordering = ["-period_end"]

    def __str__(self) -> str:
        return f"{self.jackpot.code} — {self.period_start:%d/%m/%Y} → {self.period_end:%d/%m/%Y}"
