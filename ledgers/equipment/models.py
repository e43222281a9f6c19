"""Sabots, shufflers and wheels: the objects, their approvals, and the per-séance records."""

import datetime

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from ledgers.core.models import Establishment, GamingTable, TableSession
from ledgers.custody.models import TrackedItem
from ledgers.incidents.models import Incident


class ApprovedModel(models.Model):
    """A model of sabot or shuffler and its approval: FR ministerial approval of sabot models
    (SET-33, SHOE-04/07/08), approved shufflers (SHUF-01, SHUF-11) with their issuer (AMB-29)."""

    class Kind(models.TextChoices):
        SHOE = "shoe", _("Sabot")
        SHUFFLER = "shuffler", _("Mélangeur")

    establishment = models.ForeignKey(Establishment, on_delete=models.PROTECT, related_name="+")
    kind = models.CharField(_("matériel"), max_length=10, choices=Kind.choices)
    manufacturer = models.CharField(_("fabricant"), max_length=200)
    name = models.CharField(_("modèle"), max_length=200)
    approval_reference = models.CharField(_("référence de l'agrément"), max_length=200, blank=True)
    approval_issuer = models.CharField(_("autorité d'agrément"), max_length=200, blank=True)
    approved_on = models.DateField(_("agréé le"), null=True, blank=True)
    approved_until = models.DateField(_("agréé jusqu'au"), null=True, blank=True)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("modèle agréé")
        verbose_name_plural = _("modèles agréés")
        ordering = ["kind", "manufacturer", "name"]
        constraints = [
            models.UniqueConstraint(
                fields=["establishment", "kind", "manufacturer", "name"], name="approved_model_unique"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.manufacturer} {self.name}"

    @property
    def is_approved(self) -> bool:
        return bool(self.approval_reference.strip())

    def approval_expired(self, on: datetime.date) -> bool:
        return self.approved_until is not None and on > self.approved_until


class Shoe(TrackedItem):
    """A sabot. ``serial`` holds the number the establishment gives it (SHOE-10: numbered by the
    casino, unique, never renumbered); the maker's serial number is kept beside it."""

    model = models.ForeignKey(ApprovedModel, on_delete=models.PROTECT, related_name="shoes", verbose_name=_("modèle"))
    maker_serial = models.CharField(_("numéro de série du fabricant"), max_length=100, blank=True)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("sabot")
        verbose_name_plural = _("sabots")
        ordering = ["establishment", "serial"]
        constraints = [models.UniqueConstraint(fields=["establishment", "serial"], name="shoe_number_unique")]

    def __str__(self) -> str:
        return f"{_('Sabot')} n° {self.serial}"


class ShoeAllocation(models.Model):
    """A sabot put in service at a table-partie (MC: taken out of the depot, SHOE-02; FR: the
    allocation at the start of the séance, SHOE-05/12), with the flags it raised. Append-only."""

    establishment = models.ForeignKey(Establishment, on_delete=models.PROTECT, related_name="+")
    table_session = models.ForeignKey(TableSession, on_delete=models.PROTECT, related_name="shoe_allocations")
    shoe = models.ForeignKey(Shoe, on_delete=models.PROTECT, related_name="allocations")
    allocated_at = models.DateTimeField(_("affecté le"))
    allocated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("affecté par")
    )
    role = models.CharField(_("qualité"), max_length=30)
    # [{"code": "SHOE-12", "text": "..."}]: allowed, but reported (FLAG)
    flags = models.JSONField(_("signalements"), default=list, blank=True)

    class Meta:
        verbose_name = _("affectation de sabot")
        verbose_name_plural = _("affectations de sabots")
        ordering = ["-allocated_at"]
        constraints = [
            models.UniqueConstraint(fields=["table_session", "shoe"], name="shoe_allocation_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.shoe} → {self.table_session}"


class Socle(models.Model):
    """The base attached to a gaming table on which a shuffler is fixed (SHUF-05)."""

    table = models.ForeignKey(GamingTable, on_delete=models.PROTECT, related_name="socles")
    code = models.CharField(_("repère du socle"), max_length=30)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("socle")
        verbose_name_plural = _("socles")
        ordering = ["table__number", "code"]
        constraints = [models.UniqueConstraint(fields=["table", "code"], name="socle_unique")]

    def __str__(self) -> str:
        return f"{_('Socle')} {self.code} — {self.table}"


class MachineType(models.TextChoices):
    BATCH = "batch", _("Mélangeur de cartes")
    CONTINUOUS = "continuous", _("Mélangeur distributeur")  # SHUF-04; the type drives eligibility (SHUF-08)


class AssetStatus(models.TextChoices):
    REGISTERED = "registered", _("Enregistré, en attente de mise en service")
    IN_SERVICE = "in_service", _("En service")
    OUT_OF_SERVICE = "out_of_service", _("Hors service")
    WITHDRAWN = "withdrawn", _("Retiré")


class Shuffler(models.Model):
    """A card shuffler or shuffler-dealer (SHUF-01, SHUF-04), commissioned after its checklist
    (SHUF-02, SHUF-03) and fixed on the socle of one table (SHUF-05)."""

    establishment = models.ForeignKey(Establishment, on_delete=models.PROTECT, related_name="+")
    number = models.CharField(_("numéro d'inventaire"), max_length=40)
    serial = models.CharField(_("numéro de série"), max_length=100)
    model = models.ForeignKey(
        ApprovedModel, on_delete=models.PROTECT, related_name="shufflers", verbose_name=_("modèle")
    )
    machine_type = models.CharField(_("type"), max_length=12, choices=MachineType.choices)
    embout = models.BooleanField(_("embout distributeur de black jack"), default=False)
    status = models.CharField(_("statut"), max_length=16, choices=AssetStatus.choices, default=AssetStatus.REGISTERED)
    socle = models.OneToOneField(
        Socle, on_delete=models.PROTECT, null=True, blank=True, related_name="shuffler", verbose_name=_("socle")
    )
    # Commissioning checklist (SHUF-02, SHUF-03)
    card_access_protection = models.BooleanField(_("protection empêchant l'accès aux cartes"), default=False)
    malfunction_signal = models.BooleanField(_("signal lumineux ou sonore de dysfonctionnement"), default=False)
    commissioned_at = models.DateTimeField(_("mis en service le"), null=True, blank=True)
    commissioned_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("mélangeur")
        verbose_name_plural = _("mélangeurs")
        ordering = ["establishment", "number"]
        constraints = [models.UniqueConstraint(fields=["establishment", "number"], name="shuffler_number_unique")]

    def __str__(self) -> str:
        return f"{self.get_machine_type_display()} n° {self.number}"


class ShufflerUse(models.Model):
    """A shuffler used at one table-partie: the opening checklist (FR art. 40-1 B and C: embout,
    display, decks counted) and the end-of-séance record (hood opened and empty, cards removed,
    machine disconnected: SHUF-13 to SHUF-15)."""

    table_session = models.ForeignKey(TableSession, on_delete=models.PROTECT, related_name="shuffler_uses")
    shuffler = models.ForeignKey(Shuffler, on_delete=models.PROTECT, related_name="uses")
    started_at = models.DateTimeField(_("mis en marche le"))
    started_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    # {"embout": bool, "display": str, "decks_counted": int}
    opening = models.JSONField(_("vérifications d'ouverture"), default=dict)
    ended_at = models.DateTimeField(_("fin de séance le"), null=True, blank=True)
    ended_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    # {"hood_opened": bool, "empty": bool, "cards_removed": bool, "disconnected": bool}
    closing = models.JSONField(_("vérifications de fin de séance"), default=dict)
    end_confirmed = models.BooleanField(_("fin de séance confirmée"), default=False)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("utilisation d'un mélangeur")
        verbose_name_plural = _("utilisations de mélangeurs")
        ordering = ["-started_at"]
        constraints = [models.UniqueConstraint(fields=["table_session", "shuffler"], name="shuffler_use_unique")]

    def __str__(self) -> str:
        return f"{self.shuffler} — {self.table_session}"

    # What the opening and end-of-séance checks are called where they are read (the forms ask them
    # in the same words).
    CHECKS = {
        "embout": _("Embout distributeur en place"),
        "display": _("Affichage de l'écran"),
        "decks_counted": _("Jeux comptés et vérifiés"),
        "hood_opened": _("Capot ouvert devant les joueurs"),
        "empty": _("Aucune carte dans le mélangeur"),
        "cards_removed": _("Cartes retirées à la main"),
        "disconnected": _("Mélangeur déconnecté"),
        "incident": _("Incident"),
    }

    def checks(self, recorded: dict) -> list[tuple[str, object]]:
        """(label, value) of the checks recorded, those left blank out."""
        return [(str(self.CHECKS.get(key, key)), value) for key, value in recorded.items() if value not in (None, "")]

    @property
    def opening_checks(self) -> list[tuple[str, object]]:
        return self.checks(self.opening)

    @property
    def closing_checks(self) -> list[tuple[str, object]]:
        return self.checks(self.closing)


class WheelKind(models.TextChoices):
    ROULETTE_EUROPEENNE = "roulette_europeenne", _("Roulette européenne")
    ROULETTE_AMERICAINE = "roulette_americaine", _("Roulette américaine")
    BOULE = "boule", _("Boule (plateau à 9 numéros)")
    GRANDE_ROUE = "grande_roue", _("Grande roue")
    ROUE_CHANCE = "roue_chance", _("Roue de la chance")


class Wheel(models.Model):
    """A roulette cylinder, boule plateau or wheel, with its recorded specification (WHEEL-01 to
    WHEEL-07), validated before it is put into service, and the table it is installed at."""

    establishment = models.ForeignKey(Establishment, on_delete=models.PROTECT, related_name="+")
    number = models.CharField(_("numéro d'inventaire"), max_length=40)
    serial = models.CharField(_("numéro de série"), max_length=100, blank=True)
    kind = models.CharField(_("appareil"), max_length=24, choices=WheelKind.choices)
    # roulettes: {"pockets", "zeros", "obstacles"}; boule: {"numbers", "rows", "colours"};
    # wheels: {"segments": {label: count}}
    spec = models.JSONField(_("caractéristiques"))
    status = models.CharField(_("statut"), max_length=16, choices=AssetStatus.choices, default=AssetStatus.REGISTERED)
    table = models.OneToOneField(
        GamingTable,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="wheel",
        verbose_name=_("installé à la table"),
    )
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("cylindre ou roue")
        verbose_name_plural = _("cylindres et roues")
        ordering = ["establishment", "number"]
        constraints = [models.UniqueConstraint(fields=["establishment", "number"], name="wheel_number_unique")]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} n° {self.number}"


class WheelCheck(models.Model):
    """The check of a wheel before the séance (MC: maintenance staff with an inspecteur, WHEEL-06,
    REG-12; FR roue de la chance: a comité member with the croupier, WHEEL-08, REG-11). Both sign.
    A failed check opens an incident (INC-08). Append-only."""

    establishment = models.ForeignKey(Establishment, on_delete=models.PROTECT, related_name="+")
    table_session = models.ForeignKey(TableSession, on_delete=models.PROTECT, related_name="wheel_checks")
    wheel = models.ForeignKey(Wheel, on_delete=models.PROTECT, related_name="checks")
    checked_at = models.DateTimeField(_("vérifié le"))
    points = models.JSONField(_("points vérifiés"), default=list)
    passed = models.BooleanField(_("conforme"))
    observations = models.TextField(_("observations"), blank=True)
    signer = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    signer_role = models.CharField(_("qualité"), max_length=30)
    cosigner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    cosigner_role = models.CharField(_("qualité du cosignataire"), max_length=30)
    incident = models.ForeignKey(Incident, on_delete=models.PROTECT, null=True, blank=True, related_name="+")

    class Meta:
        verbose_name = _("vérification avant séance")
        verbose_name_plural = _("vérifications avant séance")
        ordering = ["-checked_at"]

    def __str__(self) -> str:
        return f"{self.wheel} — {self.table_session}"


class LidLock(models.Model):
    """End of partie at a roulette: the cylinder covered with its lid, locked, and the key
    returned to its holder (WHEEL-02, KEY-08, SET-31). Append-only."""

    table_session = models.OneToOneField(TableSession, on_delete=models.PROTECT, related_name="lid_lock")
    wheel = models.ForeignKey(Wheel, on_delete=models.PROTECT, related_name="lid_locks")
    locked_at = models.DateTimeField(_("fermé le"))
    locked_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    locked_by_role = models.CharField(_("qualité"), max_length=30)
    key_holder = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("clé remise à")
    )
    key_holder_role = models.CharField(_("qualité du détenteur"), max_length=30)

    class Meta:
        verbose_name = _("fermeture du cylindre")
        verbose_name_plural = _("fermetures du cylindre")
        ordering = ["-locked_at"]

    def __str__(self) -> str:
        return f"{self.wheel} — {self.table_session}"


class LaunchRoster(models.Model):
    """The ordre de roulement of a roulette or boule table for one séance, set by the Direction des
    Jeux (WHEEL-09, art. 8.1, 10.1): the croupiers launch the ball in turn in this order and relieve
    each other following it. Setting it again during the séance replaces it from then on; the
    earlier one stays. Append-only, like its places."""

    establishment = models.ForeignKey(Establishment, on_delete=models.PROTECT, related_name="+")
    table_session = models.ForeignKey(TableSession, on_delete=models.PROTECT, related_name="launch_rosters")
    set_at = models.DateTimeField(_("établi le"))
    set_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("établi par")
    )
    set_by_role = models.CharField(_("qualité"), max_length=30)
    note = models.TextField(_("observations"), blank=True)

    class Meta:
        verbose_name = _("ordre de roulement")
        verbose_name_plural = _("ordres de roulement")
        ordering = ["-set_at", "-pk"]

    def __str__(self) -> str:
        return f"{_('Ordre de roulement')} — {self.table_session}"


class LaunchRosterPlace(models.Model):
    """One croupier at his place in an ordre de roulement. Append-only."""

    roster = models.ForeignKey(LaunchRoster, on_delete=models.PROTECT, related_name="places")
    position = models.PositiveSmallIntegerField(_("rang"))
    croupier = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("croupier")
    )

    class Meta:
        verbose_name = _("place dans l'ordre de roulement")
        verbose_name_plural = _("places dans l'ordre de roulement")
        ordering = ["roster", "position"]
        constraints = [
            models.UniqueConstraint(fields=["roster", "position"], name="launch_roster_position_unique"),
            models.UniqueConstraint(fields=["roster", "croupier"], name="launch_roster_croupier_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.position}. {self.croupier}"


class LaunchTurn(models.Model):
    """A turn at launching the ball during a roulette or boule table-partie: who launches from when
    (the first launcher, then each relief), recorded by the chef de table, with the roster in force
    and the flags it raised (WHEEL-09: outside the roster, specialisation). Append-only."""

    establishment = models.ForeignKey(Establishment, on_delete=models.PROTECT, related_name="+")
    table_session = models.ForeignKey(TableSession, on_delete=models.PROTECT, related_name="launch_turns")
    launcher = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("lanceur")
    )
    started_at = models.DateTimeField(_("lance depuis"))
    roster = models.ForeignKey(
        LaunchRoster,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="turns",
        verbose_name=_("ordre de roulement en vigueur"),
    )
    recorded_at = models.DateTimeField(_("inscrit le"))
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("inscrit par")
    )
    recorded_by_role = models.CharField(_("qualité"), max_length=30)
    observations = models.TextField(_("observations"), blank=True)
    # [{"code": "WHEEL-09", "text": "..."}]: allowed, but reported (FLAG)
    flags = models.JSONField(_("signalements"), default=list, blank=True)

    class Meta:
        verbose_name = _("tour de lancement")
        verbose_name_plural = _("tours de lancement")
        ordering = ["table_session", "started_at", "pk"]

    def __str__(self) -> str:
        return f"{self.launcher} — {self.table_session}"
