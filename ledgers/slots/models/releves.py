"""Relèves: the meter readings, box exchanges and drop counts."""

from django.db import models
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from ledgers.core.models import Establishment, Room

from .machines import USER, Machine
from .meters import Meter, RamClear


class Releve(models.Model):
    """A relève (slot drop, AMB-35: not a staff relief): directed by a superviseur (SLOT-22),
    secured by a sworn agent when the room is operating (SLOT-23); socles and bill boxes are
    opened only during one (SLOT-24)."""

    class Status(models.TextChoices):
        OPEN = "open", _("En cours")
        CLOSED = "closed", _("Close")

    establishment = models.ForeignKey(Establishment, on_delete=models.PROTECT, related_name="+")
    room = models.ForeignKey(Room, on_delete=models.PROTECT, related_name="+", verbose_name=_("salle"))
    status = models.CharField(_("statut"), max_length=10, choices=Status.choices, default=Status.OPEN)
    started_at = models.DateTimeField(_("commencée le"))
    closed_at = models.DateTimeField(_("close le"), null=True, blank=True)
    directed_by = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+", verbose_name=_("dirigée par"))
    during_operation = models.BooleanField(_("salle en exploitation"), default=False)
    sworn_agent = models.ForeignKey(
        USER, on_delete=models.PROTECT, null=True, blank=True, related_name="+", verbose_name=_("agent assermenté")
    )
    staff = models.TextField(_("personnel présent"), blank=True)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("relève")
        verbose_name_plural = _("relèves")
        ordering = ["-started_at"]

    def __str__(self) -> str:
        return f"{_('Relève')} {self.room} — {self.started_at:%d/%m/%Y %H:%M}"


class MeterReading(models.Model):
    """A meter value read at a relève, a move or a RAM clear. ``delta`` is the increase since the
    previous reading (through a rollover when ``rollover``); a fall that is neither a rollover
    nor after a RAM clear is flagged with its INC-12 incident."""

    class Source(models.TextChoices):
        RELEVE = "releve", _("Relève")
        RAM_BEFORE = "ram_before", _("Avant remise à zéro")
        RAM_AFTER = "ram_after", _("Après remise à zéro")
        INITIAL = "initial", _("Relevé initial")

    # Indexes: (meter, read_at, id) serves the meter lookups, the relève one its page; readings are
    # never deleted, so the other foreign keys need none.
    meter = models.ForeignKey(Meter, on_delete=models.PROTECT, related_name="readings", db_index=False)
    releve = models.ForeignKey(Releve, on_delete=models.PROTECT, null=True, blank=True, related_name="readings")
    ram_clear = models.ForeignKey(
        RamClear, on_delete=models.PROTECT, null=True, blank=True, related_name="readings", db_index=False
    )
    source = models.CharField(_("origine"), max_length=12, choices=Source.choices)
    read_at = models.DateTimeField(_("relevé le"))
    value = models.BigIntegerField(_("valeur"))
    delta = models.BigIntegerField(_("écart"), null=True, blank=True)
    rollover = models.BooleanField(_("passage par zéro"), default=False)
    incident = models.ForeignKey(
        "incidents.Incident", on_delete=models.PROTECT, null=True, blank=True, related_name="+", db_index=False
    )
    read_by = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+", db_index=False)

    class Meta:
        verbose_name = _("relevé de compteur")
        verbose_name_plural = _("relevés de compteurs")
        ordering = ["meter", "-read_at", "-id"]
        indexes = [models.Index(fields=["meter", "-read_at", "-id"], name="slot_reading_last")]

    def __str__(self) -> str:
        return f"{self.meter} = {self.value}"


class BoxExchange(models.Model):
    """A cash, bill or ticket box removed from a machine and replaced during a relève (SLOT-24)."""

    class Box(models.TextChoices):
        CASH = "cash", _("Seau (cash box)")
        BILL = "bill", _("Boîte à billets")
        TICKET = "ticket", _("Boîte à tickets")

    releve = models.ForeignKey(Releve, on_delete=models.PROTECT, related_name="boxes")
    machine = models.ForeignKey(Machine, on_delete=models.PROTECT, related_name="+")
    box = models.CharField(_("boîte"), max_length=10, choices=Box.choices)
    removed = models.CharField(_("boîte retirée (n°)"), max_length=30)
    replaced_by = models.CharField(_("boîte mise en place (n°)"), max_length=30)
    exchanged_at = models.DateTimeField(_("échangée le"))
    recorded_by = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+")
    entry = models.ForeignKey("registers.Entry", on_delete=models.PROTECT, related_name="+")

    class Meta:
        verbose_name = _("échange de boîte")
        verbose_name_plural = _("échanges de boîtes")
        constraints = [models.UniqueConstraint(fields=["releve", "machine", "box"], name="slot_box_once")]

    def __str__(self) -> str:
        return f"{self.machine} — {self.get_box_display()} {self.removed} → {self.replaced_by}"


class DropCount(models.Model):
    """The counted drop of one machine for a relève, reconciled with its meter deltas (SLOT-11):
    the variance in amount and percent, flagged above the establishment's threshold."""

    releve = models.ForeignKey(Releve, on_delete=models.PROTECT, related_name="counts")
    machine = models.ForeignKey(Machine, on_delete=models.PROTECT, related_name="+")
    counted = models.DecimalField(_("montant compté (€)"), max_digits=14, decimal_places=2)
    expected = models.DecimalField(_("montant selon les compteurs (€)"), max_digits=14, decimal_places=2)
    variance = models.DecimalField(_("écart (€)"), max_digits=14, decimal_places=2)
    variance_percent = models.DecimalField(_("écart (%)"), max_digits=9, decimal_places=2, null=True, blank=True)
    flagged = models.BooleanField(_("au-delà du seuil"), default=False)
    threshold = models.JSONField(_("seuil appliqué"), default=dict)
    counted_at = models.DateTimeField(_("compté le"))
    counted_by = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+")
    entry = models.ForeignKey("registers.Entry", on_delete=models.PROTECT, related_name="+")

    class Meta:
        verbose_name = _("comptage de machine")
        verbose_name_plural = _("comptages de machines")
        constraints = [models.UniqueConstraint(fields=["releve", "machine"], name="slot_count_once")]
        # The counts beyond the threshold among every count of the years (the dashboards count them).
        indexes = [models.Index(fields=["releve"], condition=models.Q(flagged=True), name="slot_count_flagged_idx")]

    def __str__(self) -> str:
        return f"{self.machine} — {self.counted} €"
