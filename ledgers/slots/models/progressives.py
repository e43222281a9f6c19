"""Progressive jackpots, their readings and stops."""

from decimal import Decimal

from django.db import models
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from ledgers.core.models import Establishment
from ledgers.incidents.models import IncidentNotice

from .machines import USER, Machine


class Progressive(models.Model):
    """A progressive jackpot (FR art. 68-20): local on some of the casino's machines, or multisite
    (JPM, art. 68-20-2) shared with other member casinos on identical machines only (SLOT-38). Its
    increment is the displayed amount above its starting amount; the JPM's machines increment it by
    ``increment_percent`` of their "entrées" (credits played × credit value)."""

    class Status(models.TextChoices):
        ACTIVE = "active", _("En service")
        WON = "won", _("Gagné, machines arrêtées")
        STOPPED = "stopped", _("Arrêté")
        LEFT = "left", _("Casino retiré du JPM")

    establishment = models.ForeignKey(Establishment, on_delete=models.PROTECT, related_name="+")
    code = models.CharField(_("identifiant du jackpot"), max_length=30)
    name = models.CharField(_("nom"), max_length=100)
    multisite = models.BooleanField(_("jackpot progressif multisites (JPM)"), default=False)
    machines = models.ManyToManyField(Machine, related_name="progressives", blank=True, verbose_name=_("machines"))
    start_amount = models.DecimalField(_("montant de départ (€)"), max_digits=14, decimal_places=2)
    increment_percent = models.DecimalField(
        _("taux d'incrémentation (%)"), max_digits=6, decimal_places=3, default=Decimal("0")
    )
    # JPM: what every connected machine must be (SLOT-38), and the member casinos.
    maker = models.CharField(_("fabricant"), max_length=100, blank=True)
    machine_type = models.CharField(_("type de machine"), max_length=100, blank=True)
    game_name = models.CharField(_("nom du jeu"), max_length=100, blank=True)
    payment_programme = models.CharField(_("programme de paiement"), max_length=100, blank=True)
    members = models.JSONField(_("casinos membres"), default=list, blank=True)
    status = models.CharField(_("statut"), max_length=10, choices=Status.choices, default=Status.ACTIVE)
    created_at = models.DateTimeField(_("créé le"))
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("jackpot progressif")
        verbose_name_plural = _("jackpots progressifs")
        ordering = ["establishment", "code"]
        constraints = [models.UniqueConstraint(fields=["establishment", "code"], name="slot_progressive_code_unique")]

    def __str__(self) -> str:
        return f"{self.code} — {self.name}"


class ProgressiveReading(models.Model):
    """The displayed amount of a progressive at the close of play of a gaming day, in the registre des
    jackpots progressifs (FR SLOT-36, REG-37); a fall no payment explains is flagged."""

    progressive = models.ForeignKey(Progressive, on_delete=models.PROTECT, related_name="readings")
    day = models.DateField(_("journée"))
    displayed = models.DecimalField(_("montant affiché (€)"), max_digits=14, decimal_places=2)
    read_at = models.DateTimeField(_("relevé à"))
    recorded_by = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+", verbose_name=_("rédacteur"))
    flags = models.JSONField(_("signalements"), default=list, blank=True)
    entry = models.ForeignKey("registers.Entry", on_delete=models.PROTECT, related_name="+")

    class Meta:
        verbose_name = _("relevé de jackpot progressif")
        verbose_name_plural = _("relevés de jackpots progressifs")
        ordering = ["progressive", "-day"]
        constraints = [models.UniqueConstraint(fields=["progressive", "day"], name="slot_progressive_reading_day")]

    def __str__(self) -> str:
        return f"{self.progressive.code} — {self.day:%d/%m/%Y} — {self.displayed} €"


class ProgressiveStop(models.Model):
    """A voluntary stop of a progressive (SLOT-37) or of a JPM (SLOT-41): the whole increment
    transferred to another progressive, or a final stop with the increment (this casino's share,
    JPM) recorded to orphans (modèle 11 bis), or this casino leaving a JPM; the Minister of the
    Interior notified (SET-42). ``recovered_to``: the increment recovered by a progressive before
    31 October of the season."""

    class Kind(models.TextChoices):
        TRANSFER = "transfer", _("Transfert de l'incrémentation")
        FINAL = "final", _("Arrêt définitif")
        WITHDRAWAL = "withdrawal", _("Retrait du casino du JPM")

    progressive = models.ForeignKey(Progressive, on_delete=models.PROTECT, related_name="stops")
    kind = models.CharField(_("nature"), max_length=10, choices=Kind.choices)
    stop_date = models.DateField(_("date de l'arrêt"))
    increment = models.DecimalField(_("incrémentation (€)"), max_digits=14, decimal_places=2)
    target = models.ForeignKey(
        Progressive,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("jackpot bénéficiaire"),
    )
    minister_notified_on = models.DateField(_("ministre de l'intérieur informé le"))
    minister_reference = models.CharField(_("référence de l'information"), max_length=100)
    orphan = models.ForeignKey("cash.Orphan", on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    recovered_to = models.ForeignKey(
        Progressive,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("incrémentation reprise par"),
    )
    recovered_on = models.DateField(_("reprise le"), null=True, blank=True)
    recorded_by = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField(_("inscrit le"))
    entry = models.ForeignKey("registers.Entry", on_delete=models.PROTECT, related_name="+")
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("arrêt de jackpot progressif")
        verbose_name_plural = _("arrêts de jackpots progressifs")
        ordering = ["-stop_date"]

    def __str__(self) -> str:
        return f"{self.progressive.code} — {self.get_kind_display()} — {self.stop_date:%d/%m/%Y}"


class ProgressiveStopNotice(models.Model):
    """The Minister of the Interior told of a progressive's coming transfer or final stop (SLOT-37),
    of a JPM's stop or of this casino's withdrawal from a JPM (SLOT-41), at the time the system
    recorded when the notice was given (never typed in, so it cannot be back-dated): the stop comes
    within the SET-42 window after it ("dans les quinze jours qui précèdent", AMB-50); told again
    once that window has passed. Append-only."""

    progressive = models.ForeignKey(Progressive, on_delete=models.PROTECT, related_name="stop_notices")
    kind = models.CharField(_("nature de l'arrêt"), max_length=10, choices=ProgressiveStop.Kind.choices)
    notified_at = models.DateTimeField(_("ministre de l'intérieur informé le"))
    channel = models.CharField(_("moyen"), max_length=20, choices=IncidentNotice.Channel.choices)
    reference = models.CharField(_("référence de l'information"), max_length=100)
    recorded_by = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+")

    class Meta:
        verbose_name = _("information du ministre d'un arrêt de jackpot progressif")
        verbose_name_plural = _("informations du ministre d'arrêts de jackpots progressifs")
        ordering = ["-notified_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.progressive.code} — {self.get_kind_display()} — {self.reference}"
