"""The monitoring system: orphan credits, file copies and monitoring events."""

from django.db import models
from django.utils.translation import gettext_lazy as _

from ledgers.core.models import Establishment

from .interventions import Intervention
from .machines import USER, Machine
from .meters import RamClear
from .releves import Releve


class Orphan(models.Model):
    """An orphan (orphelin): credits left on a machine, an unclaimed jackpot, a card or TITO ticket
    found (MC SLOT-19). Never paid to staff; a customer who takes one is excluded at once (INC-05)."""

    class Kind(models.TextChoices):
        CREDITS = "credits", _("Crédits restés au compteur")
        JACKPOT = "jackpot", _("Jackpot non réclamé")
        TICKET = "ticket", _("Ticket ou carte trouvé")

    establishment = models.ForeignKey(Establishment, on_delete=models.PROTECT, related_name="+")
    kind = models.CharField(_("nature"), max_length=10, choices=Kind.choices)
    machine = models.ForeignKey(Machine, on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    place = models.CharField(_("lieu"), max_length=200, blank=True)
    amount = models.DecimalField(_("montant (€)"), max_digits=14, decimal_places=2)
    found_at = models.DateTimeField(_("trouvé le"))
    found_by = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+", verbose_name=_("trouvé par"))
    witness = models.ForeignKey(
        USER, on_delete=models.PROTECT, null=True, blank=True, related_name="+", verbose_name=_("témoin")
    )
    disposal = models.TextField(_("suite donnée"))
    # The customer who took it, excluded from the room immediately (INC-05).
    taken_by = models.CharField(_("pris par (client)"), max_length=200, blank=True)
    excluded_at = models.DateTimeField(_("exclu le"), null=True, blank=True)
    entry = models.ForeignKey("registers.Entry", on_delete=models.PROTECT, related_name="+")

    class Meta:
        verbose_name = _("orphelin")
        verbose_name_plural = _("orphelins")
        ordering = ["-found_at"]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} — {self.amount} €"


class FileCopy(models.Model):
    """A copy of the slot files handed to the Secrétariat Général (MC SLOT-08): the version is the
    slot-files register up to its head, identified by the head entry's hash."""

    establishment = models.ForeignKey(Establishment, on_delete=models.PROTECT, related_name="+")
    delivered_at = models.DateTimeField(_("remise le"))
    covers_seq = models.PositiveIntegerField(_("jusqu'à l'entrée n°"))
    covers_hash = models.CharField(_("empreinte"), max_length=64)
    delivered_by = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+")
    received_by = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+", verbose_name=_("reçue par"))
    entry = models.ForeignKey("registers.Entry", on_delete=models.PROTECT, related_name="+")

    class Meta:
        verbose_name = _("copie des fichiers au Secrétariat Général")
        verbose_name_plural = _("copies des fichiers au Secrétariat Général")
        ordering = ["-delivered_at"]

    def __str__(self) -> str:
        return f"{_('Copie du')} {self.delivered_at:%d/%m/%Y} — {self.covers_seq}"


class MonitoringEvent(models.Model):
    """An event exported by the real-time monitoring system (door, bill box or socle opened, RAM
    reset), matched on import against the interventions, relèves and RAM clears, and the key
    hand-over out at that moment: an event nothing explains is flagged (SLOT-14, SLOT-24, SLOT-29, SLOT-53)."""

    class Kind(models.TextChoices):
        DOOR = "door_open", _("Porte ouverte")
        BILL_BOX = "bill_box_open", _("Boîte à billets ouverte")
        SOCLE = "socle_open", _("Socle ouvert")
        RESET = "ram_reset", _("Remise à zéro")

    machine = models.ForeignKey(Machine, on_delete=models.PROTECT, related_name="+")
    kind = models.CharField(_("événement"), max_length=15, choices=Kind.choices)
    occurred_at = models.DateTimeField(_("survenu le"))
    intervention = models.ForeignKey(Intervention, on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    releve = models.ForeignKey(Releve, on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    ram_clear = models.ForeignKey(RamClear, on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    # The hand-over of a key serving the machine or its socle that was out at that moment (KEY-05, KEY-02).
    key_issue = models.ForeignKey(
        "keys.KeyIssue",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("remise de clé"),
    )
    flag = models.CharField(_("signalement"), max_length=12, blank=True)  # the requirement ID, when unexplained
    imported_by = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+")

    class Meta:
        verbose_name = _("événement du système de surveillance")
        verbose_name_plural = _("événements du système de surveillance")
        ordering = ["-occurred_at"]
        constraints = [models.UniqueConstraint(fields=["machine", "kind", "occurred_at"], name="slot_event_once")]
        # The flagged few among every event imported over the years (the dashboards count them).
        indexes = [models.Index(fields=["machine"], condition=~models.Q(flag=""), name="slot_event_flagged_idx")]

    def __str__(self) -> str:
        return f"{self.machine.number} — {self.get_kind_display()} — {self.occurred_at:%d/%m/%Y %H:%M}"
