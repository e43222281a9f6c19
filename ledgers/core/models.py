import datetime
from typing import Any
from zoneinfo import ZoneInfo

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from .games import GAME_CHOICES, GAMES, Game
from .jurisdictions import PROFILES, Jurisdiction, Profile
from .roles import Role


def choice_label(choices: type[models.Choices], value: str) -> str:
    """``value``'s label among ``choices`` (``value`` itself if it is none of them). Django's
    ``get_FOO_display`` translates every label of the field to find it; this translates one."""
    try:
        return str(choices(value).label)
    except ValueError:
        return value


class Establishment(models.Model):
    code = models.SlugField(_("code"), max_length=20, unique=True)
    name = models.CharField(_("nom"), max_length=200)
    jurisdiction = models.CharField(_("juridiction"), max_length=2, choices=Jurisdiction.choices)
    timezone = models.CharField(_("fuseau horaire"), max_length=64, default="Europe/Monaco")
    address = models.TextField(_("adresse"), blank=True)
    # Overrides of the jurisdiction's settings (SET-xx), e.g. {"SET-20": 2}.
    options = models.JSONField(_("réglages"), default=dict, blank=True)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("établissement")
        verbose_name_plural = _("établissements")
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    @property
    def profile(self) -> Profile:
        return PROFILES[self.jurisdiction]

    def localtime(self, moment: datetime.datetime | None = None) -> datetime.datetime:
        """``moment`` (default: now) on the establishment's clock: what its registers print."""
        return timezone.localtime(moment, ZoneInfo(self.timezone))

    def setting(self, code: str) -> Any:
        """The establishment's value of a setting, else the jurisdiction's default. A setting made
        of several keys is overridden key by key: the keys the establishment does not set keep
        their default (a key set to None switches it off)."""
        default = self.profile.settings.get(code)
        if code not in self.options:
            return default
        value = self.options[code]
        if isinstance(value, dict) and isinstance(default, dict):
            return {**default, **value}
        return value


class Room(models.Model):
    establishment = models.ForeignKey(Establishment, on_delete=models.PROTECT, related_name="rooms")
    code = models.SlugField(_("code"), max_length=20)
    name = models.CharField(_("nom"), max_length=200)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("salle")
        verbose_name_plural = _("salles")
        constraints = [models.UniqueConstraint(fields=["establishment", "code"], name="room_code_unique")]
        ordering = ["establishment", "code"]

    def __str__(self) -> str:
        return self.name


class LocationKind(models.TextChoices):
    DEPOT_PRINCIPAL = "depot_principal", _("Dépôt principal")
    DEPOT_ANNEXE = "depot_annexe", _("Dépôt annexe")
    DCC = "dcc", _("Dépôt Central des Cartes")
    CARD_CABINET = "card_cabinet", _("Armoire « dépôt des cartes »")
    SHOE_CABINET = "shoe_cabinet", _("Armoire à sabots")
    CAISSE_CENTRALE = "caisse_centrale", _("Caisse centrale")
    COMPTABILITE = "comptabilite", _("Comptabilité générale")
    COFFRE = "coffre", _("Coffre d'exploitation")
    MAGASIN = "magasin", _("Magasin")
    ATELIER = "atelier", _("Atelier")


DEPOT_KINDS = frozenset(
    {
        LocationKind.DEPOT_PRINCIPAL,
        LocationKind.DEPOT_ANNEXE,
        LocationKind.DCC,
        LocationKind.CARD_CABINET,
        LocationKind.SHOE_CABINET,
    }
)


class Location(models.Model):
    """A place where regulated objects are kept: depots, cabinets, cash desks, stores."""

    establishment = models.ForeignKey(Establishment, on_delete=models.PROTECT, related_name="locations")
    code = models.SlugField(_("code"), max_length=30)
    name = models.CharField(_("nom"), max_length=200)
    kind = models.CharField(_("type"), max_length=30, choices=LocationKind.choices)
    room = models.ForeignKey(Room, on_delete=models.PROTECT, null=True, blank=True, related_name="locations")
    responsible = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("responsable"),
    )
    active = models.BooleanField(_("en service"), default=True)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("emplacement")
        verbose_name_plural = _("emplacements")
        constraints = [models.UniqueConstraint(fields=["establishment", "code"], name="location_code_unique")]
        ordering = ["establishment", "code"]

    def __str__(self) -> str:
        return self.name

    @property
    def is_depot(self) -> bool:
        return self.kind in DEPOT_KINDS


class GamingTable(models.Model):
    establishment = models.ForeignKey(Establishment, on_delete=models.PROTECT, related_name="tables")
    room = models.ForeignKey(Room, on_delete=models.PROTECT, related_name="tables")
    number = models.CharField(_("numéro"), max_length=20)
    game = models.CharField(_("jeu"), max_length=40, choices=GAME_CHOICES)
    seats = models.PositiveSmallIntegerField(_("places"), default=7)
    super_prive = models.BooleanField(_("salon super privé"), default=False)
    active = models.BooleanField(_("en service"), default=True)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("table de jeu")
        verbose_name_plural = _("tables de jeu")
        constraints = [models.UniqueConstraint(fields=["establishment", "number"], name="table_number_unique")]
        ordering = ["establishment", "number"]

    def __str__(self) -> str:
        return f"{self.get_game_display()} n° {self.number}"

    def get_game_display(self) -> str:
        # Django's would translate every game's label to find this one's: tables are named on most pages.
        return str(GAMES[self.game].label) if self.game in GAMES else self.game

    @property
    def game_info(self) -> Game:
        return GAMES[self.game]


class SeancePeriod(models.TextChoices):
    MATIN = "matin", _("Matinée")
    APRES_MIDI = "apres_midi", _("Après-midi")
    SOIREE = "soiree", _("Soirée")
    NUIT = "nuit", _("Nuit")


class Seance(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", _("Ouverte")
        CLOSED = "closed", _("Clôturée")

    establishment = models.ForeignKey(Establishment, on_delete=models.PROTECT, related_name="seances")
    date = models.DateField(_("date"))
    period = models.CharField(_("période"), max_length=20, choices=SeancePeriod.choices)
    status = models.CharField(_("statut"), max_length=10, choices=Status.choices, default=Status.OPEN)
    opened_at = models.DateTimeField(_("ouverte le"))
    closed_at = models.DateTimeField(_("clôturée le"), null=True, blank=True)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("séance")
        verbose_name_plural = _("séances")
        constraints = [
            models.UniqueConstraint(fields=["establishment", "date", "period"], name="seance_unique"),
        ]
        ordering = ["-date", "-opened_at"]

    def __str__(self) -> str:
        return f"{self.date:%d/%m/%Y} — {self.get_period_display()}"

    def get_period_display(self) -> str:  # séances are named on most pages
        return choice_label(SeancePeriod, self.period)


class TableSession(models.Model):
    """The game at one table during one séance (table-partie), from opening to "fin de partie"."""

    class Status(models.TextChoices):
        PREPARING = "preparing", _("En préparation")
        OPEN = "open", _("Ouverte")
        CLOSED = "closed", _("Fermée")

    seance = models.ForeignKey(Seance, on_delete=models.PROTECT, related_name="table_sessions")
    table = models.ForeignKey(GamingTable, on_delete=models.PROTECT, related_name="sessions")
    status = models.CharField(_("statut"), max_length=10, choices=Status.choices, default=Status.PREPARING)
    opened_at = models.DateTimeField(_("ouverte le"), null=True, blank=True)
    closed_at = models.DateTimeField(_("fermée le"), null=True, blank=True)
    # The stakes in force at opening (GAME limit rows); the FR art. 49 avance reads the minimum (COUNT-12).
    minimum_stake = models.DecimalField(_("mise minimale"), max_digits=12, decimal_places=2, null=True, blank=True)
    maximum_stake = models.DecimalField(_("mise maximale"), max_digits=12, decimal_places=2, null=True, blank=True)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("partie de table")
        verbose_name_plural = _("parties de table")
        constraints = [models.UniqueConstraint(fields=["seance", "table"], name="table_session_unique")]
        ordering = ["-seance__date", "table__number"]

    def __str__(self) -> str:
        return f"{self.table} — {self.seance}"

    @property
    def establishment(self) -> Establishment:
        return self.seance.establishment

    @property
    def is_live(self) -> bool:
        return self.status != self.Status.CLOSED


class Membership(models.Model):
    """A user holding a role in an establishment."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships")
    establishment = models.ForeignKey(Establishment, on_delete=models.PROTECT, related_name="memberships")
    role = models.CharField(_("rôle"), max_length=30, choices=Role.choices)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("affectation")
        verbose_name_plural = _("affectations")
        constraints = [
            models.UniqueConstraint(fields=["user", "establishment", "role"], name="membership_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.user} — {self.get_role_display()} ({self.establishment})"


class DirectoryAccount(models.Model):
    """A user whose sign-in, roles and establishments come from the casino's directory (LDAP or
    Active Directory): their memberships follow the directory's groups at each sign-in and each
    directory sync, and the account is disabled when the directory no longer has them."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="directory_account")
    dn = models.CharField(_("nom distinctif dans l'annuaire"), max_length=500)
    synced_at = models.DateTimeField(_("synchronisé le"))
    left_at = models.DateTimeField(_("sorti de l'annuaire le"), null=True, blank=True)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("compte de l'annuaire")
        verbose_name_plural = _("comptes de l'annuaire")

    def __str__(self) -> str:
        return self.dn


class RolePeriod(models.Model):
    """A role a person held in an establishment, from its grant to its revocation (``valid_until``
    empty: held now). A grant opens a period and a revocation ends it; no period is ever deleted,
    so "who held this role on that day" and "which roles did this person hold, when" are read from
    here. ``Membership`` keeps the roles held now, which every check of the acts reads."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="role_periods")
    establishment = models.ForeignKey(Establishment, on_delete=models.PROTECT, related_name="role_periods")
    role = models.CharField(_("rôle"), max_length=30, choices=Role.choices)
    valid_from = models.DateTimeField(_("depuis le"))
    valid_until = models.DateTimeField(_("jusqu'au"), null=True, blank=True)
    granted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("attribué par"),
    )
    ended_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("retiré par"),
    )
    end_reason = models.CharField(_("motif du retrait"), max_length=200, blank=True)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("période de rôle")
        verbose_name_plural = _("périodes de rôle")
        constraints = [
            models.UniqueConstraint(
                fields=["user", "establishment", "role"],
                condition=models.Q(valid_until=None),
                name="role_period_open_unique",
            ),
            models.CheckConstraint(
                condition=models.Q(valid_until=None) | models.Q(valid_until__gte=models.F("valid_from")),
                name="role_period_ends_after_start",
            ),
        ]
        indexes = [models.Index(fields=["establishment", "role", "valid_from"], name="role_period_role_idx")]
        ordering = ["valid_from", "pk"]

    def __str__(self) -> str:
        return f"{self.user} — {self.get_role_display()} ({self.establishment})"


class StaffAccount(models.Model):
    """An account created in the application by an establishment's directorate: where, and whether
    its password is still to be chosen by its owner (an invitation not yet taken up, a provisional
    password given): until it is, its owner, once signed in, can do nothing else."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="staff_account")
    establishment = models.ForeignKey(Establishment, on_delete=models.PROTECT, related_name="+")
    must_set_password = models.BooleanField(_("mot de passe à choisir par son titulaire"), default=True)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("compte du personnel")
        verbose_name_plural = _("comptes du personnel")

    def __str__(self) -> str:
        return str(self.user)
