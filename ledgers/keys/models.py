"""The register of keys and every hand-over of a key (KEY-*).

``Key``: one key (or key set) of the establishment: its ID, lock type, what it opens, copies,
home and custodian. ``KeyIssue``: a copy out of its home, for a purpose, due back at a time,
released by one to three people and taken back by them. ``KeySignature`` (append-only): each
person who confirmed a release, the taking, the witness or the return, with re-authentication.
``SocleKeySurrender`` (append-only): a socle taken out of operation, its lock and key handed to
the caissier principal (KEY-07). ``KeyInventory`` (append-only): a blind count of every key's
copies, with its differences.
"""

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from ledgers.core.models import Establishment, Location

from .policy import LockType


class Key(models.Model):
    class Status(models.TextChoices):
        IN_SERVICE = "in_service", _("En service")
        SURRENDERED = "surrendered", _("Remise au caissier principal (socle hors exploitation)")
        RETIRED = "retired", _("Retirée")

    establishment = models.ForeignKey(Establishment, on_delete=models.PROTECT, related_name="keys")
    code = models.CharField(_("identifiant de la clé"), max_length=40)
    lock_type = models.CharField(_("type de serrure"), max_length=20, choices=LockType.choices)
    opens = models.CharField(_("ce qu'elle ouvre"), max_length=200)
    asset_ref = models.CharField(
        _("matériel (référence)"),
        max_length=400,
        blank=True,
        help_text=_("Machine, socle, armoire… : la référence du matériel servi."),
    )
    copies = models.PositiveSmallIntegerField(_("nombre d'exemplaires"), default=1)
    home = models.ForeignKey(
        Location, on_delete=models.PROTECT, null=True, blank=True, related_name="+", verbose_name=_("lieu de garde")
    )
    custodian = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("gardien"),
    )
    custodian_role = models.CharField(_("qualité du gardien"), max_length=30, blank=True)
    # KEY-16: the organisation holding a logic-board key (the SFM with its approval, the police service).
    holder_organisation = models.CharField(_("organisme détenteur"), max_length=200, blank=True)
    status = models.CharField(_("statut"), max_length=20, choices=Status.choices, default=Status.IN_SERVICE)
    registered_at = models.DateTimeField(_("enregistrée le"), default=timezone.now)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("clé")
        verbose_name_plural = _("clés")
        ordering = ["establishment", "code"]
        constraints = [
            models.UniqueConstraint(fields=["establishment", "code", "lock_type"], name="key_code_lock_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.code} — {self.get_lock_type_display()}"

    @property
    def assets(self) -> list[str]:
        """The assets the key serves: ``asset_ref`` lists them, comma separated (a key opens a row)."""
        return [ref.strip() for ref in self.asset_ref.split(",") if ref.strip()]


class KeyIssue(models.Model):
    """One copy of a key out of its home for a purpose, until its return."""

    key = models.ForeignKey(Key, on_delete=models.PROTECT, related_name="issues")
    purpose_type = models.CharField(_("type d'objet"), max_length=40)
    purpose_id = models.PositiveBigIntegerField(_("objet n°"))
    purpose_label = models.CharField(_("objet"), max_length=200)
    holder = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("détenteur")
    )
    holder_role = models.CharField(_("qualité du détenteur"), max_length=30)
    issued_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("remise par")
    )
    issued_by_role = models.CharField(_("qualité"), max_length=30)
    issued_at = models.DateTimeField(_("sortie le"))
    due_at = models.DateTimeField(_("à rendre le"))
    returned_at = models.DateTimeField(_("rendue le"), null=True, blank=True)
    returned_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("rendue par"),
    )
    received_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("reçue par"),
    )
    note = models.CharField(_("observations"), max_length=300, blank=True)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("sortie de clé")
        verbose_name_plural = _("sorties de clés")
        ordering = ["-issued_at"]
        indexes = [
            models.Index(fields=["purpose_type", "purpose_id"]),
            # The keys out now, among every hand-over of the years (each key's holder, the homes).
            models.Index(fields=["key"], condition=models.Q(returned_at__isnull=True), name="key_issue_out_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.key} → {self.holder}"

    @property
    def is_out(self) -> bool:
        return self.returned_at is None


class KeySignature(models.Model):
    """A person who confirmed one step of a hand-over, re-authenticated at this terminal."""

    class Act(models.TextChoices):
        RELEASE = "release", _("Remise")
        TAKE = "take", _("Prise")
        WITNESS = "witness", _("Présence")
        RETURN = "return", _("Restitution")
        RECEIVE = "receive", _("Réception")

    issue = models.ForeignKey(KeyIssue, on_delete=models.PROTECT, related_name="signatures")
    act = models.CharField(_("acte"), max_length=10, choices=Act.choices)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    role = models.CharField(_("qualité"), max_length=30)
    signed_at = models.DateTimeField(_("signé le"))
    position = models.PositiveSmallIntegerField(_("rang"), default=1)

    class Meta:
        verbose_name = _("signature de remise de clé")
        verbose_name_plural = _("signatures de remise de clé")
        ordering = ["issue", "signed_at", "position"]

    def __str__(self) -> str:
        return f"{self.get_act_display()} — {self.user}"


class SocleKeySurrender(models.Model):
    """KEY-07: a socle out of operation; its lock and key handed to the caissier principal."""

    key = models.ForeignKey(Key, on_delete=models.PROTECT, related_name="surrenders")
    socle_ref = models.CharField(_("socle"), max_length=60)
    lock_ref = models.CharField(_("serrure"), max_length=60)
    reason = models.CharField(_("motif technique"), max_length=300)
    handed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("remise par")
    )
    handed_by_role = models.CharField(_("qualité"), max_length=30)
    received_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("caissier principal")
    )
    surrendered_at = models.DateTimeField(_("remise le"))

    class Meta:
        verbose_name = _("remise d'une clé de socle")
        verbose_name_plural = _("remises de clés de socle")
        ordering = ["-surrendered_at"]

    def __str__(self) -> str:
        return f"{self.socle_ref} — {self.key}"


class KeyInventory(models.Model):
    """A blind inventory: the counter types what is there without seeing what should be.
    ``lines``: [{"key": id, "code", "lock_type", "expected", "counted"}]."""

    establishment = models.ForeignKey(Establishment, on_delete=models.PROTECT, related_name="+")
    counted_at = models.DateTimeField(_("inventaire du"))
    counted_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    counted_by_role = models.CharField(_("qualité"), max_length=30)
    lines = models.JSONField(_("lignes"))
    differences = models.PositiveIntegerField(_("écarts"), default=0)

    class Meta:
        verbose_name = _("inventaire des clés")
        verbose_name_plural = _("inventaires des clés")
        ordering = ["-counted_at"]

    def __str__(self) -> str:
        return f"{self.counted_at:%Y-%m-%d %H:%M}"

    def difference_lines(self) -> list[dict]:
        return [line for line in self.lines if line["counted"] != line["expected"]]
