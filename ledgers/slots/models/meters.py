"""Meter codes, the meters a machine declares and RAM clears."""

from django.db import models
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from .machines import USER, Machine


class MeterCode(models.TextChoices):
    """The meters of the texts (MC SLOT-05, 12, 13; FR SLOT-30, 31)."""

    IN = "in", _("Entrées (crédits joués)")
    OUT = "out", _("Sorties (crédits payés)")
    CASH_BOX = "cash_box", _("Recette (cash box)")
    JACKPOTS = "jackpots", _("Jackpots et lots cumulés")
    BILLS = "bills", _("Billets")
    TICKET_IN = "ticket_in", _("Tickets entrés")
    TICKET_OUT = "ticket_out", _("Tickets émis")
    CARD_IN = "card_in", _("Cartes entrées")
    CARD_OUT = "card_out", _("Cartes sorties")
    OTHER = "other", _("Autre compteur")


def meter_key(code: str, nature: str, label: str) -> str:
    """How a CSV row or an API call names a meter on its station: code[:em][:label]."""
    return ":".join([code] + (["em"] if nature == "electromechanical" else []) + ([label] if label else []))


class Meter(models.Model):
    """One meter of one station of a machine. Its capacity is 10^digits: it returns to zero only by
    rolling over at capacity (SLOT-32) or by a recorded RAM clear."""

    class Nature(models.TextChoices):
        ELECTRONIC = "electronic", _("Électronique")
        ELECTROMECHANICAL = "electromechanical", _("Électromécanique")

    machine = models.ForeignKey(Machine, on_delete=models.PROTECT, related_name="meters")
    station = models.PositiveSmallIntegerField(_("poste"), default=1)
    code = models.CharField(_("compteur"), max_length=12, choices=MeterCode.choices)
    label = models.CharField(_("libellé"), max_length=60, blank=True)  # SLOT-06: the maker's other meters
    nature = models.CharField(_("nature"), max_length=20, choices=Nature.choices, default=Nature.ELECTRONIC)
    digits = models.PositiveSmallIntegerField(_("chiffres"))
    active = models.BooleanField(_("actif"), default=True)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("compteur")
        verbose_name_plural = _("compteurs")
        ordering = ["machine", "station", "code", "nature"]
        constraints = [
            models.UniqueConstraint(fields=["machine", "station", "code", "nature", "label"], name="slot_meter_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.machine.number}/{self.station} {self.key}"

    @property
    def key(self) -> str:
        return meter_key(self.code, self.nature, self.label)

    @property
    def key_at(self) -> str:
        """The meter among all the machine's: "station:key" (RAM clears, move snapshots)."""
        return f"{self.station}:{self.key}"

    @property
    def capacity(self) -> int:
        return 10**self.digits


class RamClear(models.Model):
    """A RAM clear: the reset key used, the meters before and after, the reason (INC-12, KEY-15 in FR
    with the comité member present, modèle 26 entry)."""

    machine = models.ForeignKey(Machine, on_delete=models.PROTECT, related_name="ram_clears")
    performed_at = models.DateTimeField(_("effectué le"))
    performed_by = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+", verbose_name=_("effectué par"))
    witness = models.ForeignKey(
        USER, on_delete=models.PROTECT, null=True, blank=True, related_name="+", verbose_name=_("en présence de")
    )
    reset_key = models.CharField(_("clé de remise à zéro"), max_length=60)
    reason = models.TextField(_("motif"))
    meters_before = models.JSONField(_("compteurs avant"))  # {meter key@station: value}
    meters_after = models.JSONField(_("compteurs après"))
    entry = models.ForeignKey("registers.Entry", on_delete=models.PROTECT, related_name="+")

    class Meta:
        verbose_name = _("remise à zéro de la mémoire")
        verbose_name_plural = _("remises à zéro de la mémoire")
        ordering = ["-performed_at"]

    def __str__(self) -> str:
        return f"{_('RAM clear')} {self.machine} — {self.performed_at:%d/%m/%Y %H:%M}"
