"""Dice, their pairs (FR), their allocation to craps and rampo tables, swaps during play and the
end-of-séance check. The facts (pairs, allocations, swaps, checks) are append-only rows; the
die is the one mutable object, with its history."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from ledgers.core.models import Establishment, TableSession
from ledgers.custody.models import ItemStatus, TrackedItem


class PlayRole(models.TextChoices):
    SERVICE = "service", _("En service à la table")  # MC: the five dice of the craps table
    IN_PLAY = "in_play", _("Paire en jeu")  # FR
    RESERVE = "reserve", _("Paire de réserve")  # FR: in the table's cavity
    WITHDRAWN = "withdrawn", _("Retiré du jeu")


class DicePair(models.Model):
    """Two dice of different colours received together (FR rampo, DICE-13)."""

    establishment = models.ForeignKey(Establishment, on_delete=models.PROTECT, related_name="+")
    number = models.PositiveIntegerField(_("paire n°"))
    created_at = models.DateTimeField(_("constituée le"))

    class Meta:
        verbose_name = _("paire de dés")
        verbose_name_plural = _("paires de dés")
        ordering = ["number"]
        constraints = [models.UniqueConstraint(fields=["establishment", "number"], name="dice_pair_number_unique")]

    def __str__(self) -> str:
        return f"{_('Paire')} n° {self.number}"


class Die(TrackedItem):
    """A die: the supplier's numéro d'ordre (``serial``) and the casino's sigle on one face."""

    sigle = models.CharField(_("sigle"), max_length=20)
    colour = models.CharField(_("couleur"), max_length=30, blank=True)
    side_mm = models.DecimalField(_("côté (mm)"), max_digits=5, decimal_places=2, null=True, blank=True)
    # The receipt inspection checklist (DICE-01, DICE-13): {point: True}
    inspection = models.JSONField(_("contrôle à la réception"), default=dict)
    pair = models.ForeignKey(
        DicePair, on_delete=models.PROTECT, null=True, blank=True, related_name="dice", verbose_name=_("paire")
    )
    play_role = models.CharField(_("rôle à la table"), max_length=10, choices=PlayRole.choices, blank=True)
    # Number of allocations received; 0 means new, never allocated (DICE-08).
    services = models.PositiveIntegerField(_("dotations"), default=0)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("dé")
        verbose_name_plural = _("dés")
        ordering = ["serial"]
        constraints = [models.UniqueConstraint(fields=["establishment", "serial"], name="die_serial_unique")]
        indexes = [models.Index(fields=["establishment", "status"])]

    def __str__(self) -> str:
        return f"{_('Dé')} n° {self.serial} / {self.sigle}"

    @property
    def is_new(self) -> bool:
        return self.services == 0

    @property
    def designation(self) -> str:
        """As written in the registers: numéro d'ordre / sigle (/ colour)."""
        parts = [self.serial, self.sigle] + ([self.colour] if self.colour else [])
        return " / ".join(parts)

    @property
    def condition_label(self) -> str:
        if self.status in (ItemStatus.IN_STOCK, ItemStatus.ISSUED):
            return str(_("Neuf")) if self.is_new else str(_("Déjà utilisé"))
        if self.status == ItemStatus.OUT_OF_USE:
            return str(_("Usagé"))
        return str(self.get_status_display())


class DiceAllocation(models.Model):
    """The dice a table receives for a séance (dotation), signed by the authority the texts name
    (MC sous-directeur, DICE-10; FR directeur responsable or comité member, DICE-23)."""

    class Kind(models.TextChoices):
        REGULAR = "regular", _("Dotation de la séance")
        SUPPLEMENTARY = "supplementary", _("Dotation complémentaire")

    establishment = models.ForeignKey(Establishment, on_delete=models.PROTECT, related_name="+")
    table_session = models.ForeignKey(
        TableSession, on_delete=models.PROTECT, related_name="dice_allocations", verbose_name=_("partie de table")
    )
    kind = models.CharField(_("nature"), max_length=14, choices=Kind.choices)
    recorded_at = models.DateTimeField(_("mise en service le"))
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    recorded_role = models.CharField(_("en qualité de"), max_length=30)
    signed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("signée par")
    )
    signed_role = models.CharField(_("signataire en qualité de"), max_length=30)
    flags = models.JSONField(_("signalements"), default=list, blank=True)
    observations = models.TextField(_("observations"), blank=True)
    entry = models.ForeignKey("registers.Entry", on_delete=models.PROTECT, related_name="+")

    class Meta:
        verbose_name = _("dotation en dés")
        verbose_name_plural = _("dotations en dés")
        ordering = ["-recorded_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["table_session"], condition=models.Q(kind="regular"), name="dice_one_regular_allocation"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} — {self.table_session}"


class AllocatedDie(models.Model):
    allocation = models.ForeignKey(DiceAllocation, on_delete=models.PROTECT, related_name="lines")
    die = models.ForeignKey(Die, on_delete=models.PROTECT, related_name="allocations")
    role = models.CharField(_("rôle"), max_length=10, choices=PlayRole.choices)

    class Meta:
        verbose_name = _("dé alloué")
        verbose_name_plural = _("dés alloués")
        constraints = [models.UniqueConstraint(fields=["allocation", "die"], name="allocated_die_unique")]

    def __str__(self) -> str:
        return f"{self.die} — {self.get_role_display()}"


class DiceSwap(models.Model):
    """A change of dice during play (MC DICE-12; FR DICE-26: the reserve pair comes into play)."""

    class Reason(models.TextChoices):
        FELL = "fell", _("Dé tombé de la table")
        SHOOTER = "shooter", _("Demande du tireur")
        DIRECTION = "direction", _("Décision de la direction")
        DAMAGED = "damaged", _("Dé abîmé ou cassé")

    establishment = models.ForeignKey(Establishment, on_delete=models.PROTECT, related_name="+")
    table_session = models.ForeignKey(TableSession, on_delete=models.PROTECT, related_name="dice_swaps")
    swapped_at = models.DateTimeField(_("heure"))
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    recorded_role = models.CharField(_("en qualité de"), max_length=30)
    reason = models.CharField(_("motif"), max_length=10, choices=Reason.choices)
    withdrawn = models.JSONField(_("dés retirés"))  # [serial]
    brought_in = models.JSONField(_("dés mis en jeu"))  # [serial]
    damaged = models.JSONField(_("dés abîmés"), default=list)  # [serial]
    during_rampo_attempt = models.BooleanField(_("pendant une tentative de rampo"), default=False)
    observations = models.TextField(_("observations"), blank=True)
    incident = models.ForeignKey(
        "incidents.Incident", on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    entry = models.ForeignKey("registers.Entry", on_delete=models.PROTECT, related_name="+")

    class Meta:
        verbose_name = _("changement de dés")
        verbose_name_plural = _("changements de dés")
        ordering = ["swapped_at"]

    def __str__(self) -> str:
        return f"{self.get_reason_display()} — {self.swapped_at:%d/%m/%Y %H:%M}"


class DiceCheck(models.Model):
    """The end-of-séance check of a table's dice (MC DICE-11; FR DICE-24, DICE-25)."""

    establishment = models.ForeignKey(Establishment, on_delete=models.PROTECT, related_name="+")
    table_session = models.OneToOneField(TableSession, on_delete=models.PROTECT, related_name="dice_check")
    checked_at = models.DateTimeField(_("contrôlé le"))
    checker = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("contrôle effectué par")
    )
    checker_role = models.CharField(_("en qualité de"), max_length=30)
    cosigner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("cosignataire"),
    )
    cosigner_role = models.CharField(_("cosignataire en qualité de"), max_length=30, blank=True)
    # [{"serial", "sigle", "result": ok|anomaly|missing, "passed", "micrometer", "square", "balance", "remark"}]
    results = models.JSONField(_("résultats"))
    instruments = models.JSONField(_("instruments"), default=dict, blank=True)  # FR: micrometer, square, balance
    observations = models.TextField(_("observations"), blank=True)
    incident = models.ForeignKey(
        "incidents.Incident", on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    entry = models.ForeignKey("registers.Entry", on_delete=models.PROTECT, related_name="+")

    class Meta:
        verbose_name = _("contrôle de fin de séance")
        verbose_name_plural = _("contrôles de fin de séance")
        ordering = ["-checked_at"]

    def __str__(self) -> str:
        return f"{_('Contrôle des dés')} — {self.table_session}"

    @property
    def failures(self) -> list[dict]:
        return [r for r in self.results if not r["passed"]]
