"""Socles, machines, their technical sheets and moves."""

from decimal import Decimal

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from ledgers.core.models import Establishment, Room
from ledgers.incidents.models import IncidentNotice

USER = settings.AUTH_USER_MODEL


class Place(models.TextChoices):
    """The controlled list of where a machine may be (SLOT-04)."""

    FLOOR = "floor", _("Salle de jeux")
    STORE = "store", _("Magasin")
    WORKSHOP = "workshop", _("Atelier")


class Medium(models.TextChoices):
    """What a machine accepts (SLOT-01)."""

    COINS = "coins", _("Pièces")
    BANKNOTES = "banknotes", _("Billets")
    CHIPS = "chips", _("Jetons")
    CARD = "card", _("Carte")
    TITO = "tito", _("Tickets (TITO)")


class Socle(models.Model):
    """A slot stand, numbered once and for all (SLOT-03): the number is never edited nor reused."""

    establishment = models.ForeignKey(Establishment, on_delete=models.PROTECT, related_name="+")
    number = models.CharField(_("socle n°"), max_length=20)
    room = models.ForeignKey(Room, on_delete=models.PROTECT, related_name="+", verbose_name=_("salle"))
    position = models.CharField(_("emplacement"), max_length=100, blank=True)
    active = models.BooleanField(_("en service"), default=True)
    created_at = models.DateTimeField(_("créé le"))
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("socle")
        verbose_name_plural = _("socles")
        ordering = ["number"]
        constraints = [models.UniqueConstraint(fields=["establishment", "number"], name="slot_socle_number_unique")]

    def __str__(self) -> str:
        return f"{_('Socle')} n° {self.number}"


class Machine(models.Model):
    class Technology(models.TextChoices):
        ELECTRONIC = "electronic", _("Électronique")
        ELECTROMECHANICAL = "electromechanical", _("Électromécanique")

    class Status(models.TextChoices):
        REGISTERED = "registered", _("Inscrite à l'inventaire")
        IN_SERVICE = "in_service", _("En exploitation")
        OUT_OF_SERVICE = "out_of_service", _("Hors exploitation")
        RETIRED = "retired", _("Sortie du parc")

    class DropType(models.TextChoices):
        """Where the coins and chips that do not go to the hopper fall (MC SLOT-10)."""

        CASH_BOX = "cash_box", _("Seau ou cash box dans le socle")
        CONVEYOR = "conveyor", _("Convoyeur pneumatique vers la salle de comptage")

    establishment = models.ForeignKey(Establishment, on_delete=models.PROTECT, related_name="+")
    machine_type = models.CharField(_("type de machine"), max_length=100)
    technology = models.CharField(_("technologie"), max_length=20, choices=Technology.choices)
    maker = models.CharField(_("fabricant"), max_length=100)
    maker_serial = models.CharField(_("numéro de série du fabricant"), max_length=60)
    # MC: the SBM identification number (SLOT-02); FR: the casino, maker and location numbers (SLOT-33, 52).
    sbm_number = models.CharField(_("numéro SBM"), max_length=30, blank=True)
    casino_number = models.CharField(_("numéro casino"), max_length=30, blank=True)
    maker_number = models.CharField(_("numéro fabricant"), max_length=60, blank=True)
    location_number = models.CharField(_("numéro d'emplacement"), max_length=30, blank=True)
    media = models.JSONField(_("moyens de paiement acceptés"), default=list)  # [Medium]
    stations = models.PositiveSmallIntegerField(_("postes de jeu"), default=1)
    # Theoretical return certified by the maker, or the levy % where players play against each
    # other (SLOT-04), with the date of its last update.
    rtp_percent = models.DecimalField(
        _("taux de redistribution certifié (%)"), max_digits=5, decimal_places=2, null=True, blank=True
    )
    levy_percent = models.DecimalField(
        _("pourcentage de prélèvement (%)"), max_digits=5, decimal_places=2, null=True, blank=True
    )
    rate_date = models.DateField(_("date de mise à jour du taux"))
    photo = models.ImageField(_("photographie"), upload_to="slots/machines/%Y/", blank=True)
    credit_value = models.DecimalField(
        _("valeur du crédit (€)"), max_digits=10, decimal_places=2, default=Decimal("0.01")
    )
    hopper = models.BooleanField(_("trémie"), default=False)
    hopper_lid_confirmed_by = models.ForeignKey(
        USER,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("couvercle de trémie constaté par"),
    )
    hopper_lid_confirmed_at = models.DateTimeField(_("couvercle constaté le"), null=True, blank=True)
    bill_box = models.CharField(_("boîte à billets (n°)"), max_length=30, blank=True)  # SLOT-12
    drop_type = models.CharField(
        _("évacuation des pièces et jetons"), max_length=10, choices=DropType.choices, blank=True
    )
    approved_system = models.CharField(_("système informatique agréé (référence)"), max_length=100, blank=True)
    # FR JPM (SLOT-38): connected machines are identical in make, type, name and payment programme.
    game_name = models.CharField(_("nom du jeu"), max_length=100, blank=True)
    payment_programme = models.CharField(_("programme de paiement"), max_length=100, blank=True)
    insertion_limit = models.DecimalField(
        _("limite d'insertion (€)"), max_digits=10, decimal_places=2, null=True, blank=True
    )
    payment_limit = models.DecimalField(
        _("limite de paiement automatique (€)"), max_digits=10, decimal_places=2, null=True, blank=True
    )
    place = models.CharField(_("lieu"), max_length=10, choices=Place.choices, default=Place.STORE)
    socle = models.OneToOneField(
        Socle, on_delete=models.PROTECT, null=True, blank=True, related_name="machine", verbose_name=_("socle")
    )
    status = models.CharField(_("statut"), max_length=20, choices=Status.choices, default=Status.REGISTERED)
    registered_at = models.DateTimeField(_("inscrite le"))
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("machine à sous")
        verbose_name_plural = _("machines à sous")
        ordering = ["establishment", "casino_number", "sbm_number"]
        constraints = [
            models.UniqueConstraint(
                fields=["establishment", "sbm_number"],
                condition=~models.Q(sbm_number=""),
                name="slot_machine_sbm_unique",
            ),
            models.UniqueConstraint(
                fields=["establishment", "casino_number"],
                condition=~models.Q(casino_number=""),
                name="slot_machine_casino_no_unique",
            ),
            models.UniqueConstraint(
                fields=["establishment", "maker", "maker_serial"], name="slot_machine_serial_unique"
            ),
        ]

    def __str__(self) -> str:
        return f"{_('Machine')} {self.number}"

    @property
    def number(self) -> str:
        """The number the registers print: SBM number (MC) or casino number (FR)."""
        return self.sbm_number or self.casino_number

    @property
    def cashless(self) -> bool:
        """FR meter set type B (SLOT-31): tickets, cards or another approved cashless system."""
        return bool({Medium.TITO, Medium.CARD} & set(self.media))


class TechnicalSheet(models.Model):
    """A version of a machine's technical sheet (SLOT-07): characteristics and theoretical rate."""

    machine = models.ForeignKey(Machine, on_delete=models.PROTECT, related_name="sheets")
    version = models.PositiveIntegerField(_("version"))
    characteristics = models.TextField(_("caractéristiques"))
    rtp_percent = models.DecimalField(
        _("taux de redistribution (%)"), max_digits=5, decimal_places=2, null=True, blank=True
    )
    levy_percent = models.DecimalField(_("prélèvement (%)"), max_digits=5, decimal_places=2, null=True, blank=True)
    recorded_at = models.DateTimeField(_("établie le"))
    recorded_by = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+")
    entry = models.ForeignKey("registers.Entry", on_delete=models.PROTECT, related_name="+")

    class Meta:
        verbose_name = _("fiche technique")
        verbose_name_plural = _("fiches techniques")
        ordering = ["machine", "-version"]
        constraints = [models.UniqueConstraint(fields=["machine", "version"], name="slot_sheet_version_unique")]

    def __str__(self) -> str:
        return f"{self.machine} — v{self.version}"


class MachineMoveNotice(models.Model):
    """The police service told of a machine's coming move from its location (SLOT-33), at the time
    the system recorded when the notice was given (never typed in, so it cannot be back-dated): the
    move waits the SLOT-33 lead from it. It counts for one move, the one that records it. Append-only."""

    machine = models.ForeignKey("Machine", on_delete=models.PROTECT, related_name="move_notices")
    notified_at = models.DateTimeField(_("police informée le"))
    service = models.CharField(_("service de police"), max_length=100)
    channel = models.CharField(_("moyen"), max_length=20, choices=IncidentNotice.Channel.choices)
    reference = models.CharField(_("référence de l'information"), max_length=100)
    recorded_by = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+")

    class Meta:
        verbose_name = _("information de la police d'un déplacement de machine")
        verbose_name_plural = _("informations de la police de déplacements de machines")
        ordering = ["-notified_at"]

    def __str__(self) -> str:
        return f"{self.machine} — {self.service} — {self.reference}"


class MachineMove(models.Model):
    """A machine moved between the floor, the store and the workshop (SLOT-04, SLOT-33, SLOT-34),
    with the meters as they stood at the move."""

    class Reason(models.TextChoices):
        COMMISSIONING = "commissioning", _("Mise en place")
        PLANNED = "planned", _("Déplacement prévu")
        BREAKDOWN = "breakdown", _("Panne")
        INCIDENT = "incident", _("Incident technique")
        REPAIR_RETURN = "repair_return", _("Retour de réparation")
        REPLACEMENT = "replacement", _("Remplacement par une machine de réserve")

    machine = models.ForeignKey(Machine, on_delete=models.PROTECT, related_name="moves")
    moved_at = models.DateTimeField(_("déplacée le"))
    from_place = models.CharField(_("de"), max_length=10, choices=Place.choices)
    from_socle = models.ForeignKey(Socle, on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    to_place = models.CharField(_("vers"), max_length=10, choices=Place.choices)
    to_socle = models.ForeignKey(Socle, on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    reason = models.CharField(_("motif"), max_length=15, choices=Reason.choices)
    # FR: the police notice the move used (SLOT-33), once only; its time and reference copied beside it.
    police_notice = models.OneToOneField(
        MachineMoveNotice, on_delete=models.PROTECT, null=True, blank=True, related_name="move"
    )
    police_informed_at = models.DateTimeField(_("police informée le"), null=True, blank=True)
    police_reference = models.CharField(_("référence de l'information"), max_length=100, blank=True)
    meters = models.JSONField(_("compteurs au déplacement"), default=dict)  # {meter id: value}
    recorded_by = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+")
    observations = models.TextField(_("observations"), blank=True)
    entry = models.ForeignKey("registers.Entry", on_delete=models.PROTECT, related_name="+")

    class Meta:
        verbose_name = _("déplacement de machine")
        verbose_name_plural = _("déplacements de machines")
        ordering = ["-moved_at"]

    def __str__(self) -> str:
        return f"{self.machine} — {self.get_from_place_display()} → {self.get_to_place_display()}"
