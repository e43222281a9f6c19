"""Slot machines (appareils automatiques): the socle file, the machine inventory with its technical
sheets, moves, meters and their readings, RAM clears, relèves with their box exchanges and
counts, interventions with the superviseur's daily envelope, and slot staff approvals.

Socles, machines, meters, relèves and interventions are the mutable objects (with history);
what happened to them (sheets, moves, readings, clears, exchanges, counts) is append-only. Key
custody (KEY-*) refers to ``Machine``, ``Socle``, ``Releve`` and ``Intervention`` by foreign key.
"""

from decimal import Decimal

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from ledgers.core.models import Establishment, Room

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
    )  # SLOT-10
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
    # FR: the police service informed before a planned move (SLOT-33).
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
        CASH = "cash", _("Cash box")
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

    def __str__(self) -> str:
        return f"{self.machine} — {self.counted} €"


class DailyTransmittal(models.Model):
    """The superviseur's envelope of the day's intervention sheets to the Direction de
    l'exploitation (SLOT-15)."""

    establishment = models.ForeignKey(Establishment, on_delete=models.PROTECT, related_name="+")
    date = models.DateField(_("journée"))
    handed_by = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+", verbose_name=_("remise par"))
    handed_at = models.DateTimeField(_("remise le"))
    received_by = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+", verbose_name=_("reçue par"))
    entry = models.ForeignKey("registers.Entry", on_delete=models.PROTECT, related_name="+")

    class Meta:
        verbose_name = _("transmission quotidienne des fiches")
        verbose_name_plural = _("transmissions quotidiennes des fiches")
        constraints = [models.UniqueConstraint(fields=["establishment", "date"], name="slot_transmittal_day")]

    def __str__(self) -> str:
        return f"{_('Enveloppe du')} {self.date:%d/%m/%Y}"


class Intervention(models.Model):
    """The fiche d'intervention (MC SLOT-14) or bon d'intervention technique (FR SLOT-53): a door
    opened by an identified mechanic (or SFM technician, FR), closed with the work done."""

    class Status(models.TextChoices):
        OPEN = "open", _("En cours")
        CLOSED = "closed", _("Close")

    machine = models.ForeignKey(Machine, on_delete=models.PROTECT, related_name="interventions")
    status = models.CharField(_("statut"), max_length=10, choices=Status.choices, default=Status.OPEN)
    technician = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+", verbose_name=_("intervenant"))
    technician_role = models.CharField(_("en qualité de"), max_length=30)
    approval = models.ForeignKey(
        "StaffApproval", on_delete=models.PROTECT, null=True, blank=True, related_name="+", verbose_name=_("agrément")
    )
    stopped_at = models.DateTimeField(_("machine arrêtée à"))
    reason = models.TextField(_("motif"))
    ended_at = models.DateTimeField(_("fin d'intervention"), null=True, blank=True)
    work_done = models.TextField(_("travaux effectués"), blank=True)
    transmittal = models.ForeignKey(
        DailyTransmittal, on_delete=models.PROTECT, null=True, blank=True, related_name="sheets"
    )
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("fiche d'intervention")
        verbose_name_plural = _("fiches d'intervention")
        ordering = ["-stopped_at"]

    def __str__(self) -> str:
        return f"{_('Intervention')} n° {self.pk} — {self.machine}"


class StaffApproval(models.Model):
    """A ministerial approval of slot staff (FR 68-27, SLOT-50) or of an SFM technician (68-30)."""

    class Kind(models.TextChoices):
        SLOT_STAFF = "slot_staff", _("Personnel des machines à sous")
        SFM = "sfm", _("Technicien de la SFM")

    establishment = models.ForeignKey(Establishment, on_delete=models.PROTECT, related_name="+")
    user = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+", verbose_name=_("personne"))
    kind = models.CharField(_("nature"), max_length=12, choices=Kind.choices)
    reference = models.CharField(_("référence"), max_length=100)
    issuer = models.CharField(_("délivré par"), max_length=200)
    valid_from = models.DateField(_("valable du"))
    valid_until = models.DateField(_("valable jusqu'au"), null=True, blank=True)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("agrément")
        verbose_name_plural = _("agréments")
        ordering = ["user", "-valid_from"]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.reference}"


class SfmVisit(models.Model):
    """The SFM's revision and control visit (FR SLOT-54), at least every SET-38 days of operation:
    the machines seen and, for those with a bill, ticket or card acceptor, the insertion and
    automatic payment limits checked (SLOT-25)."""

    establishment = models.ForeignKey(Establishment, on_delete=models.PROTECT, related_name="+")
    visited_at = models.DateTimeField(_("visite du"))
    technician = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+", verbose_name=_("technicien"))
    approval = models.ForeignKey(StaffApproval, on_delete=models.PROTECT, related_name="+")
    machines = models.ManyToManyField(Machine, related_name="sfm_visits", verbose_name=_("machines"))
    # {machine number: {"insertion_limit": "…", "payment_limit": "…", "compliant": bool}}
    limits = models.JSONField(_("limites contrôlées"), default=dict)
    remarks = models.TextField(_("remarques et conclusions"))
    entry = models.ForeignKey("registers.Entry", on_delete=models.PROTECT, related_name="+")

    class Meta:
        verbose_name = _("visite de la SFM")
        verbose_name_plural = _("visites de la SFM")
        ordering = ["-visited_at"]

    def __str__(self) -> str:
        return f"{_('Visite SFM du')} {self.visited_at:%d/%m/%Y}"


class JackpotThreshold(models.Model):
    """The amount above which a win is paid only on an identity document (MC SLOT-16, SET-18),
    versioned with its effective date: a payment is checked against the amount then in force."""

    establishment = models.ForeignKey(Establishment, on_delete=models.PROTECT, related_name="+")
    amount = models.DecimalField(_("montant (€)"), max_digits=12, decimal_places=2)
    effective_from = models.DateTimeField(_("en vigueur le"))
    set_by = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+")
    entry = models.ForeignKey("registers.Entry", on_delete=models.PROTECT, related_name="+")

    class Meta:
        verbose_name = _("seuil d'identification des gagnants")
        verbose_name_plural = _("seuils d'identification des gagnants")
        ordering = ["-effective_from"]

    def __str__(self) -> str:
        return f"{self.amount} € — {self.effective_from:%d/%m/%Y}"


class PaymentMethod(models.TextChoices):
    CASH = "cash", _("Espèces")
    CHEQUE = "cheque", _("Chèque")
    TRANSFER = "transfer", _("Virement")


class JackpotPayment(models.Model):
    """A manual payment of a jackpot or cumulative prizes: MC by the superviseur, the winner
    identified above the threshold (SLOT-16, 17); FR at the cash desk by the cashier under the
    comité member's control, on a bon de paiement (SLOT-35, REG-37, REG-42)."""

    machine = models.ForeignKey(Machine, on_delete=models.PROTECT, related_name="jackpots")
    station = models.PositiveSmallIntegerField(_("poste"), default=1)
    paid_at = models.DateTimeField(_("payé le"))
    amount = models.DecimalField(_("montant (€)"), max_digits=14, decimal_places=2)
    combination = models.CharField(_("combinaison gagnante"), max_length=200, blank=True)
    method = models.CharField(_("mode de paiement"), max_length=10, choices=PaymentMethod.choices)
    id_type = models.CharField(_("pièce d'identité"), max_length=60, blank=True)
    id_number = models.CharField(_("numéro de la pièce"), max_length=60, blank=True)
    pre_check = models.TextField(_("contrôle préalable de la machine"), blank=True)
    paid_by = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+", verbose_name=_("payé par"))
    controlled_by = models.ForeignKey(
        USER, on_delete=models.PROTECT, null=True, blank=True, related_name="+", verbose_name=_("contrôlé par")
    )
    bon_number = models.PositiveIntegerField(_("bon de paiement n°"), null=True, blank=True)
    flags = models.JSONField(_("signalements"), default=list, blank=True)
    entry = models.ForeignKey("registers.Entry", on_delete=models.PROTECT, related_name="+")

    class Meta:
        verbose_name = _("paiement de jackpot")
        verbose_name_plural = _("paiements de jackpots")
        ordering = ["-paid_at"]

    def __str__(self) -> str:
        return f"{self.machine.number} — {self.amount} €"


class PaymentDispute(models.Model):
    """A customer's dispute about a machine payment, decided by the superviseur after hearing the
    mechanic (MC SLOT-18, INC-04)."""

    machine = models.ForeignKey(Machine, on_delete=models.PROTECT, related_name="+")
    claim = models.TextField(_("réclamation du client"))
    mechanic = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+", verbose_name=_("mécanicien"))
    mechanic_statement = models.TextField(_("avis du mécanicien"))
    heard_at = models.DateTimeField(_("mécanicien entendu le"))
    decision = models.TextField(_("décision"))
    amount_paid = models.DecimalField(_("montant payé (€)"), max_digits=14, decimal_places=2, default=Decimal("0"))
    decided_by = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+")
    decided_at = models.DateTimeField(_("décidé le"))
    entry = models.ForeignKey("registers.Entry", on_delete=models.PROTECT, related_name="+")

    class Meta:
        verbose_name = _("contestation de paiement")
        verbose_name_plural = _("contestations de paiement")
        ordering = ["-decided_at"]

    def __str__(self) -> str:
        return f"{self.machine.number} — {self.decided_at:%d/%m/%Y}"


class TopUp(models.Model):
    """A complément de paiement written in the cahier (MC SLOT-20, REG-17)."""

    machine = models.ForeignKey(Machine, on_delete=models.PROTECT, related_name="+")
    paid_at = models.DateTimeField(_("payé le"))
    combination = models.CharField(_("combinaison"), max_length=200)
    amount_due = models.DecimalField(_("montant dû (€)"), max_digits=14, decimal_places=2)
    paid_by_machine = models.DecimalField(_("payé par la machine (€)"), max_digits=14, decimal_places=2)
    difference = models.DecimalField(_("complément payé (€)"), max_digits=14, decimal_places=2)
    customer = models.CharField(_("client"), max_length=200)
    mechanic_opinion = models.TextField(_("avis du mécanicien"))
    paid_by = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+")
    entry = models.ForeignKey("registers.Entry", on_delete=models.PROTECT, related_name="+")

    class Meta:
        verbose_name = _("complément de paiement")
        verbose_name_plural = _("compléments de paiement")
        ordering = ["-paid_at"]

    def __str__(self) -> str:
        return f"{self.machine.number} — {self.difference} €"


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
    # INC-05: the customer who took it, excluded from the room immediately.
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

    def __str__(self) -> str:
        return f"{self.machine.number} — {self.get_kind_display()} — {self.occurred_at:%d/%m/%Y %H:%M}"


class AccountingLine(models.Model):
    """A line of the machine's carnet de comptabilité modèle 29 (FR SLOT-55, REG-41), visaed by the
    cashier and a comité member: day by day the avances, the cash-desk payments and the tickets out
    issued; at each count the physical and electronic counts, the unclaimed wins and the real gaming
    product. The avances, payments and tickets after the machine's last count are its cash values
    (bons) until the next count (SLOT-49), which takes them into its product."""

    class Kind(models.TextChoices):
        AVANCE = "avance", _("Avance à la machine")
        PAYMENT = "payment", _("Paiement à la caisse")
        TICKETS = "tickets", _("Tickets émis par la machine")
        COUNT = "count", _("Comptage")
        # Annotations that do not enter the open bons (SLOT-40, SLOT-43, SLOT-44): JPM increments,
        # unclaimed wins found by modèle 31 and expired tickets posted to orphans.
        INCREMENT = "increment", _("Incrémentation du jackpot progressif multisites")
        UNCLAIMED = "unclaimed", _("Gains non réclamés (orphelins)")
        EXPIRED = "expired", _("Tickets périmés (orphelins)")

    machine = models.ForeignKey(Machine, on_delete=models.PROTECT, related_name="accounting_lines")
    kind = models.CharField(_("nature"), max_length=10, choices=Kind.choices)
    day = models.DateField(_("journée"))
    recorded_at = models.DateTimeField(_("inscrite le"))
    # The avance, payment or tickets amount; for a count, the real gaming product.
    amount = models.DecimalField(_("montant (€)"), max_digits=14, decimal_places=2)
    physical = models.DecimalField(_("comptage physique (€)"), max_digits=14, decimal_places=2, null=True, blank=True)
    units_in = models.BigIntegerField(_("unités entrées"), null=True, blank=True)
    units_out = models.BigIntegerField(_("unités sorties"), null=True, blank=True)
    electronic = models.DecimalField(
        _("comptage électronique (€)"), max_digits=14, decimal_places=2, null=True, blank=True
    )
    avances = models.DecimalField(_("avances (€)"), max_digits=14, decimal_places=2, null=True, blank=True)
    payments = models.DecimalField(
        _("paiements à la caisse (€)"), max_digits=14, decimal_places=2, null=True, blank=True
    )
    unclaimed = models.DecimalField(_("gains non réclamés (€)"), max_digits=14, decimal_places=2, null=True, blank=True)
    tickets = models.DecimalField(_("tickets émis (€)"), max_digits=14, decimal_places=2, null=True, blank=True)
    jackpot = models.OneToOneField(
        JackpotPayment, on_delete=models.PROTECT, null=True, blank=True, related_name="accounting_line"
    )
    cashier = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+", verbose_name=_("caissier"))
    comite = models.ForeignKey(
        USER, on_delete=models.PROTECT, related_name="+", verbose_name=_("membre du comité de direction")
    )
    entry = models.ForeignKey("registers.Entry", on_delete=models.PROTECT, related_name="+")

    class Meta:
        verbose_name = _("ligne du carnet de comptabilité")
        verbose_name_plural = _("lignes du carnet de comptabilité")
        ordering = ["machine", "recorded_at", "pk"]

    def __str__(self) -> str:
        return f"{self.machine.number} — {self.get_kind_display()} — {self.amount} €"


class MachineAvance(models.Model):
    """A bon d'avance machine (FR SLOT-42, REG-42): numbered without gaps per establishment, signed
    by the cashier and a comité member, the machine refilled by an employee under the comité
    member's control; its modèle 29 line is ``line``."""

    class Reason(models.TextChoices):
        HOPPER_EMPTY = "hopper_empty", _("Trémie vide pendant un paiement")
        NEW_MACHINE = "new_machine", _("Mise en service de la machine")
        PREVENTIVE = "preventive", _("Avance préventive (trémie basse)")

    establishment = models.ForeignKey(Establishment, on_delete=models.PROTECT, related_name="+")
    bon_number = models.PositiveIntegerField(_("bon d'avance n°"))
    machine = models.ForeignKey(Machine, on_delete=models.PROTECT, related_name="avances")
    reason = models.CharField(_("motif"), max_length=15, choices=Reason.choices)
    issued_at = models.DateTimeField(_("date et heure"))
    denomination = models.CharField(_("valeur des pièces ou jetons"), max_length=30)
    amount = models.DecimalField(_("montant (€)"), max_digits=14, decimal_places=2)
    cashier = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+", verbose_name=_("caissier"))
    comite = models.ForeignKey(
        USER, on_delete=models.PROTECT, related_name="+", verbose_name=_("membre du comité de direction")
    )
    refilled_by = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+", verbose_name=_("rechargée par"))
    line = models.OneToOneField(AccountingLine, on_delete=models.PROTECT, related_name="avance")

    class Meta:
        verbose_name = _("bon d'avance machine")
        verbose_name_plural = _("bons d'avance machine")
        ordering = ["establishment", "bon_number"]
        constraints = [models.UniqueConstraint(fields=["establishment", "bon_number"], name="slot_avance_bon_unique")]

    def __str__(self) -> str:
        return f"n° {self.bon_number} — {self.machine.number} — {self.amount} €"


class CertifiedMonthlyStatement(models.Model):
    """A month's statement of the fleet, one line per machine, certified by two persons of whom a
    comité member; written once per establishment and month, with its register entry."""

    establishment = models.ForeignKey(Establishment, on_delete=models.PROTECT, related_name="+")
    year = models.PositiveSmallIntegerField(_("année"))
    month = models.PositiveSmallIntegerField(_("mois"))
    lines = models.JSONField(_("lignes"))
    comite = models.ForeignKey(
        USER, on_delete=models.PROTECT, related_name="+", verbose_name=_("membre du comité de direction")
    )
    certified_at = models.DateTimeField(_("certifié le"))
    entry = models.ForeignKey("registers.Entry", on_delete=models.PROTECT, related_name="+")

    class Meta:
        abstract = True
        ordering = ["establishment", "-year", "-month"]

    def __str__(self) -> str:
        return f"{self.month:02d}/{self.year}"


class MonthlyStatement(CertifiedMonthlyStatement):
    """The état récapitulatif mensuel modèle 35 (FR SLOT-56, REG-41): one line per machine from its
    modèle 29 counts of the month, certified by the casino director and a comité member (two
    persons); its total, less the bons d'incrémentation of a JPM withdrawal during the month
    (``jpm_deduction``, SLOT-41), is carried to the carnet des prélèvements modèle 13 (COUNT-57).
    Lines: [{machine, location, casino, maker, counts, avances, payments, tickets, unclaimed,
    unit_stake, rate, product, jpm_deduction}]."""

    total = models.DecimalField(_("produit réel des jeux du mois (€)"), max_digits=16, decimal_places=2)
    director = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+", verbose_name=_("directeur"))

    class Meta(CertifiedMonthlyStatement.Meta):
        verbose_name = _("état récapitulatif mensuel")
        verbose_name_plural = _("états récapitulatifs mensuels")
        constraints = [
            models.UniqueConstraint(fields=["establishment", "year", "month"], name="slot_statement_35_month_unique")
        ]

    def __str__(self) -> str:
        return f"{super().__str__()} — {self.total} €"


class MeterStatement(CertifiedMonthlyStatement):
    """The état mensuel du relevé des compteurs modèle 32 (FR SLOT-47, REG-41): at the month-end
    count, one line per machine that was in the fleet during the month (location, casino and maker
    numbers, its meter values), certified by the gaming employee who read them and the comité
    member responsible. Lines: [{machine, location, casino, maker, status, meters: {key@station:
    value}}]."""

    employee = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+", verbose_name=_("employé de jeux"))

    class Meta(CertifiedMonthlyStatement.Meta):
        verbose_name = _("état mensuel du relevé des compteurs")
        verbose_name_plural = _("états mensuels du relevé des compteurs")
        constraints = [
            models.UniqueConstraint(fields=["establishment", "year", "month"], name="slot_statement_32_month_unique")
        ]


class SlotCount(models.Model):
    """A count session of the slot boxes (coins or chips, bills, tickets): FR art. 68-24 (SLOT-46),
    as needed and always on the month's last day, covering every machine that ran since its last
    count, one line per machine written in its modèle 29; MC the drop count of a relève's boxes.
    While open it is the purpose the bill-box content keys go out for (KEY-03, KEY-14)."""

    class Kind(models.TextChoices):
        AS_NEEDED = "as_needed", _("Comptée en tant que de besoin")
        MONTH_END = "month_end", _("Comptée de fin de mois")
        SEASON_END = "season_end", _("Comptée de fin de saison")
        INTRA_SEANCE = "intra_seance", _("Comptée d'une dénomination en cours de séance")
        DENOMINATION_END = "denomination_end", _("Comptée générale de la dénomination en fin de séance")

    class Status(models.TextChoices):
        OPEN = "open", _("En cours")
        CLOSED = "closed", _("Close")

    establishment = models.ForeignKey(Establishment, on_delete=models.PROTECT, related_name="+")
    kind = models.CharField(_("type de comptée"), max_length=20, choices=Kind.choices)
    status = models.CharField(_("statut"), max_length=10, choices=Status.choices, default=Status.OPEN)
    day = models.DateField(_("journée"))
    seance = models.ForeignKey(
        "core.Seance", on_delete=models.PROTECT, null=True, blank=True, related_name="+", verbose_name=_("séance")
    )
    denomination = models.DecimalField(_("dénomination (€)"), max_digits=10, decimal_places=2, null=True, blank=True)
    releve = models.ForeignKey(
        Releve, on_delete=models.PROTECT, null=True, blank=True, related_name="+", verbose_name=_("relève")
    )
    floats = models.DecimalField(
        _("fonds de caisse comptés (€)"), max_digits=14, decimal_places=2, null=True, blank=True
    )
    opened_at = models.DateTimeField(_("ouverte le"))
    opened_by = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+", verbose_name=_("ouverte par"))
    closed_at = models.DateTimeField(_("close le"), null=True, blank=True)
    closed_by = models.ForeignKey(
        USER, on_delete=models.PROTECT, null=True, blank=True, related_name="+", verbose_name=_("close par")
    )
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("comptée des machines à sous")
        verbose_name_plural = _("comptées des machines à sous")
        ordering = ["-opened_at"]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} — {self.day:%d/%m/%Y}"


class SlotCountLine(models.Model):
    """One machine counted in a count session: its boxes, the electronic units in and out on a
    cashless machine, its hopper at the season end; FR its modèle 29 line, MC its reconciled drop."""

    count = models.ForeignKey(SlotCount, on_delete=models.PROTECT, related_name="lines")
    machine = models.ForeignKey(Machine, on_delete=models.PROTECT, related_name="+")
    coins = models.DecimalField(_("pièces ou jetons (€)"), max_digits=14, decimal_places=2, default=Decimal("0"))
    bills = models.DecimalField(_("billets (€)"), max_digits=14, decimal_places=2, default=Decimal("0"))
    tickets = models.DecimalField(_("tickets (€)"), max_digits=14, decimal_places=2, default=Decimal("0"))
    units_in = models.BigIntegerField(_("unités entrées"), null=True, blank=True)
    units_out = models.BigIntegerField(_("unités sorties"), null=True, blank=True)
    hopper = models.DecimalField(_("trémie (€)"), max_digits=14, decimal_places=2, null=True, blank=True)
    accounting_line = models.OneToOneField(
        AccountingLine, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    drop_count = models.OneToOneField(DropCount, on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    recorded_at = models.DateTimeField(_("comptée le"))
    recorded_by = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+")
    entry = models.ForeignKey("registers.Entry", on_delete=models.PROTECT, related_name="+")

    class Meta:
        verbose_name = _("ligne de comptée")
        verbose_name_plural = _("lignes de comptée")
        ordering = ["count", "machine"]
        constraints = [models.UniqueConstraint(fields=["count", "machine"], name="slot_count_line_once")]

    def __str__(self) -> str:
        return f"{self.machine.number} — {self.total} €"

    @property
    def total(self) -> Decimal:
        return self.coins + self.bills + self.tickets


class ChangePoint(models.Model):
    """A change point of the slot room (MC SLOT-21, FR SLOT-48): the slot cash desk (FR: it
    centralises the slot financial operations), a secondary desk, a change machine or an itinerant
    changer with a fixed sum; a desk's encaisse set composition in cash and chips (SLOT-49)."""

    class Kind(models.TextChoices):
        DESK = "desk", _("Caisse des machines à sous")
        SECONDARY = "secondary", _("Caisse secondaire")
        MACHINE = "machine", _("Machine de change")
        ITINERANT = "itinerant", _("Changeur itinérant")
        COMMON = "common", _("Caisse commune (jeux de table et machines à sous)")

    establishment = models.ForeignKey(Establishment, on_delete=models.PROTECT, related_name="+")
    kind = models.CharField(_("nature"), max_length=12, choices=Kind.choices)
    name = models.CharField(_("désignation"), max_length=100)
    cash = models.DecimalField(_("espèces de l'encaisse (€)"), max_digits=14, decimal_places=2, default=Decimal("0"))
    chips = models.DecimalField(_("jetons de l'encaisse (€)"), max_digits=14, decimal_places=2, default=Decimal("0"))
    fixed_sum = models.DecimalField(_("somme fixe (€)"), max_digits=14, decimal_places=2, null=True, blank=True)
    active = models.BooleanField(_("en service"), default=True)
    created_at = models.DateTimeField(_("créé le"))
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("point de change")
        verbose_name_plural = _("points de change")
        ordering = ["kind", "name"]
        constraints = [models.UniqueConstraint(fields=["establishment", "name"], name="slot_change_point_name")]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} — {self.name}"

    @property
    def encaisse(self) -> Decimal:
        return self.cash + self.chips


class ChangeAssignment(models.Model):
    """Who works a change point during a séance (MC SLOT-21: the itinerant changeur assigned; FR
    SLOT-48: the cashier named for the séance), with the encaisse at opening and, at the end, as
    counted before being restored (SLOT-49)."""

    class Status(models.TextChoices):
        OPEN = "open", _("En cours")
        CLOSED = "closed", _("Close")

    point = models.ForeignKey(ChangePoint, on_delete=models.PROTECT, related_name="assignments")
    seance = models.ForeignKey("core.Seance", on_delete=models.PROTECT, related_name="+", verbose_name=_("séance"))
    person = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+", verbose_name=_("affecté"))
    status = models.CharField(_("statut"), max_length=10, choices=Status.choices, default=Status.OPEN)
    opening_cash = models.DecimalField(_("espèces à l'ouverture (€)"), max_digits=14, decimal_places=2)
    opening_chips = models.DecimalField(_("jetons à l'ouverture (€)"), max_digits=14, decimal_places=2)
    closing_cash = models.DecimalField(
        _("espèces en fin de séance (€)"), max_digits=14, decimal_places=2, null=True, blank=True
    )
    closing_chips = models.DecimalField(
        _("jetons en fin de séance (€)"), max_digits=14, decimal_places=2, null=True, blank=True
    )
    opened_at = models.DateTimeField(_("ouverte le"))
    closed_at = models.DateTimeField(_("close le"), null=True, blank=True)
    assigned_by = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+")
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("affectation à un point de change")
        verbose_name_plural = _("affectations aux points de change")
        ordering = ["-opened_at"]
        constraints = [models.UniqueConstraint(fields=["point", "seance"], name="slot_change_assignment_once")]

    def __str__(self) -> str:
        return f"{self.point} — {self.seance}"


class ChangeMovement(models.Model):
    """A movement of a change point's encaisse during its séance: a change given to a player, or a
    restoring deposit (+) or withdrawal (−) of cash or chips with the caisse centrale or the
    plaques-and-chips deposit account (SLOT-49)."""

    class Kind(models.TextChoices):
        CHANGE = "change", _("Change")
        RESTORE = "restore", _("Reconstitution de l'encaisse")

    class Counterpart(models.TextChoices):
        CENTRAL = "central", _("Caisse centrale")
        CHIPS_ACCOUNT = "chips_account", _("Compte de dépôt de plaques et jetons")

    class Given(models.TextChoices):
        LEGAL_TENDER = "legal_tender", _("Monnaie ayant cours légal")
        CHIPS = "chips", _("Jetons de machine")
        CARD_CREDITS = "card_credits", _("Crédits sur carte maison")

    assignment = models.ForeignKey(ChangeAssignment, on_delete=models.PROTECT, related_name="movements")
    kind = models.CharField(_("nature"), max_length=10, choices=Kind.choices)
    amount = models.DecimalField(_("montant (€)"), max_digits=14, decimal_places=2, default=Decimal("0"))
    given = models.CharField(_("remis en"), max_length=15, choices=Given.choices, blank=True)
    cash = models.DecimalField(_("espèces (€)"), max_digits=14, decimal_places=2, default=Decimal("0"))
    chips = models.DecimalField(_("jetons (€)"), max_digits=14, decimal_places=2, default=Decimal("0"))
    counterpart = models.CharField(_("avec"), max_length=15, choices=Counterpart.choices, blank=True)
    # At a common desk, the account the operation is posted to: table games or slots (SLOT-26).
    account = models.CharField(
        _("comptabilité"),
        max_length=6,
        choices=[("table", _("Jeux de table")), ("slot", _("Machines à sous"))],
        blank=True,
    )
    recorded_at = models.DateTimeField(_("inscrit le"))
    recorded_by = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+")
    entry = models.ForeignKey("registers.Entry", on_delete=models.PROTECT, related_name="+")

    class Meta:
        verbose_name = _("mouvement de l'encaisse")
        verbose_name_plural = _("mouvements de l'encaisse")
        ordering = ["recorded_at", "pk"]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} — {self.cash + self.chips + self.amount} €"


class EncaisseJustification(models.Model):
    """The encaisse of a slot desk justified at a given time (SLOT-49) by the items the text lists;
    the open avance and payment bons are cash values until the next count."""

    assignment = models.ForeignKey(ChangeAssignment, on_delete=models.PROTECT, related_name="justifications")
    items = models.JSONField(_("pièces justificatives"))  # {item: "amount"}
    total = models.DecimalField(_("total justifié (€)"), max_digits=14, decimal_places=2)
    expected = models.DecimalField(_("encaisse (€)"), max_digits=14, decimal_places=2)
    difference = models.DecimalField(_("écart (€)"), max_digits=14, decimal_places=2)
    open_bons = models.DecimalField(_("bons en cours selon les carnets (€)"), max_digits=14, decimal_places=2)
    justified_at = models.DateTimeField(_("justifiée le"))
    justified_by = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+")
    entry = models.ForeignKey("registers.Entry", on_delete=models.PROTECT, related_name="+")

    class Meta:
        verbose_name = _("justification de l'encaisse")
        verbose_name_plural = _("justifications de l'encaisse")
        ordering = ["-justified_at"]

    def __str__(self) -> str:
        return f"{self.assignment} — {self.total} €"


class CounterfeitDestruction(models.Model):
    """The destruction of the counterfeit coins and foreign currency of the box, at the end of the
    financial year under the control of the comptable du Trésor, chef de poste (FR SLOT-45, AMB-48)."""

    establishment = models.ForeignKey(Establishment, on_delete=models.PROTECT, related_name="+")
    year_end = models.DateField(_("fin de l'exercice"))
    destroyed_at = models.DateTimeField(_("détruites le"))
    controller_name = models.CharField(_("comptable du Trésor, chef de poste"), max_length=200)
    recorded_by = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+")
    entry = models.ForeignKey("registers.Entry", on_delete=models.PROTECT, related_name="+")

    class Meta:
        verbose_name = _("destruction des fausses pièces")
        verbose_name_plural = _("destructions des fausses pièces")
        ordering = ["-destroyed_at"]

    def __str__(self) -> str:
        return f"{_('Destruction du')} {self.destroyed_at:%d/%m/%Y}"


class CounterfeitItem(models.Model):
    """A counterfeit coin or foreign currency found at a count, packaging or repair, put in the
    locked box kept at the cash desk; never exchanged (FR SLOT-45)."""

    class Kind(models.TextChoices):
        COUNTERFEIT = "counterfeit", _("Fausse pièce")
        FOREIGN = "foreign", _("Monnaie étrangère")

    class FoundDuring(models.TextChoices):
        COUNT = "count", _("Comptée")
        PACKAGING = "packaging", _("Conditionnement")
        REPAIR = "repair", _("Dépannage")

    establishment = models.ForeignKey(Establishment, on_delete=models.PROTECT, related_name="+")
    kind = models.CharField(_("nature"), max_length=12, choices=Kind.choices)
    description = models.CharField(_("description"), max_length=200)
    quantity = models.PositiveIntegerField(_("quantité"))
    found_during = models.CharField(_("trouvée lors de"), max_length=10, choices=FoundDuring.choices)
    found_at = models.DateTimeField(_("trouvée le"))
    found_by = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+", verbose_name=_("trouvée par"))
    deposited_by = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+", verbose_name=_("versée par"))
    # Set once, by the destruction (the only way out of the box).
    destruction = models.ForeignKey(
        CounterfeitDestruction, on_delete=models.PROTECT, null=True, blank=True, related_name="items"
    )
    entry = models.ForeignKey("registers.Entry", on_delete=models.PROTECT, related_name="+")
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("pièce du coffret des fausses pièces")
        verbose_name_plural = _("coffret des fausses pièces et monnaies étrangères")
        ordering = ["-found_at"]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} — {self.description} × {self.quantity}"


class CommonDeskValidation(models.Model):
    """The record behind a common cash desk (FR SLOT-26): the route (a: 75 machines or fewer; b: more,
    all on TITO or an approved cashless system), the contiguous table games, and the prior
    validation of the chief of the territorial judicial police service."""

    class Route(models.TextChoices):
        SMALL = "a", _("75 machines ou moins")
        CASHLESS = "b", _("Plus de 75 machines, toutes à tickets ou système monétique agréé")

    point = models.OneToOneField(ChangePoint, on_delete=models.PROTECT, related_name="common_validation")
    route = models.CharField(_("cas"), max_length=1, choices=Route.choices)
    machines = models.PositiveIntegerField(_("machines en exploitation"))
    contiguous_tables = models.BooleanField(_("jeux de table dans des lieux contigus"))
    validation_reference = models.CharField(_("référence de la validation"), max_length=100)
    validation_date = models.DateField(_("date de la validation"))
    validator_name = models.CharField(_("chef du service de police judiciaire"), max_length=200)
    recorded_at = models.DateTimeField(_("inscrite le"))
    recorded_by = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+")
    entry = models.ForeignKey("registers.Entry", on_delete=models.PROTECT, related_name="+")

    class Meta:
        verbose_name = _("validation de la caisse commune")
        verbose_name_plural = _("validations de caisses communes")

    def __str__(self) -> str:
        return f"{self.point} — {self.validation_reference}"


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


class Ticket(models.Model):
    """A TITO ticket issued by a machine or by the cash desk (FR SLOT-44), imported from the approved
    cashless system. Not redeemed within SET-37 days after its issue date it expires: the expiry
    run posts it to the orphans carnet (modèle 11 bis) and, for a machine's ticket, to its modèle
    29; it is never redeemed nor refunded afterwards (art. 41)."""

    class Status(models.TextChoices):
        ISSUED = "issued", _("Émis")
        REDEEMED = "redeemed", _("Payé")
        EXPIRED = "expired", _("Périmé (orphelin)")

    establishment = models.ForeignKey(Establishment, on_delete=models.PROTECT, related_name="+")
    number = models.CharField(_("numéro du ticket"), max_length=40)
    issued_at = models.DateTimeField(_("émis le"))
    amount = models.DecimalField(_("montant (€)"), max_digits=14, decimal_places=2)
    machine = models.ForeignKey(
        Machine, on_delete=models.PROTECT, null=True, blank=True, related_name="+", verbose_name=_("machine émettrice")
    )  # none: issued by the cash desk
    status = models.CharField(_("statut"), max_length=10, choices=Status.choices, default=Status.ISSUED)
    redeemed_at = models.DateTimeField(_("payé le"), null=True, blank=True)
    redeemed_by = models.ForeignKey(USER, on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    orphan = models.ForeignKey("cash.Orphan", on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("ticket")
        verbose_name_plural = _("tickets")
        ordering = ["-issued_at"]
        constraints = [models.UniqueConstraint(fields=["establishment", "number"], name="slot_ticket_number_unique")]

    def __str__(self) -> str:
        return f"{self.number} — {self.amount} €"


class Reconciliation(models.Model):
    """The état de rapprochement modèle 31 of a meter reading (FR SLOT-43, REG-41): one line per
    machine read, its manual-jackpot meter since the previous reading against the cash-desk
    payments of its modèle 29."""

    releve = models.OneToOneField(Releve, on_delete=models.PROTECT, related_name="reconciliation")
    drawn_up_at = models.DateTimeField(_("établi le"))
    cashier = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+", verbose_name=_("caissier"))
    comite = models.ForeignKey(
        USER, on_delete=models.PROTECT, related_name="+", verbose_name=_("membre du comité de direction")
    )
    entry = models.ForeignKey("registers.Entry", on_delete=models.PROTECT, related_name="+")

    class Meta:
        verbose_name = _("état de rapprochement")
        verbose_name_plural = _("états de rapprochement")
        ordering = ["-drawn_up_at"]

    def __str__(self) -> str:
        return f"{_('État de rapprochement')} — {self.releve}"


class ReconciliationLine(models.Model):
    """A machine's line of modèle 31: a shortfall of payments (meters above payments) is unclaimed
    wins, posted to orphans and to modèle 29; payments above the meters are flagged."""

    reconciliation = models.ForeignKey(Reconciliation, on_delete=models.PROTECT, related_name="lines")
    machine = models.ForeignKey(Machine, on_delete=models.PROTECT, related_name="+")
    period_start = models.DateTimeField(_("depuis le relevé du"), null=True, blank=True)
    period_end = models.DateTimeField(_("jusqu'au relevé du"))
    meter_units = models.BigIntegerField(_("écart du compteur (crédits)"))
    meter_amount = models.DecimalField(_("montant selon le compteur (€)"), max_digits=14, decimal_places=2)
    payments = models.DecimalField(_("paiements à la caisse (€)"), max_digits=14, decimal_places=2)
    difference = models.DecimalField(_("différence (€)"), max_digits=14, decimal_places=2)
    flagged = models.BooleanField(_("paiements supérieurs au compteur"), default=False)
    orphan = models.ForeignKey("cash.Orphan", on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    accounting_line = models.OneToOneField(
        AccountingLine, on_delete=models.PROTECT, null=True, blank=True, related_name="reconciliation_line"
    )

    class Meta:
        verbose_name = _("ligne de l'état de rapprochement")
        verbose_name_plural = _("lignes de l'état de rapprochement")
        constraints = [models.UniqueConstraint(fields=["reconciliation", "machine"], name="slot_reconciliation_once")]

    def __str__(self) -> str:
        return f"{self.machine.number} — {self.difference} €"


class SlotStaffing(models.Model):
    """The slot room's staffing for a gaming day (FR-2007 art. 68-27, SLOT-50), written before the
    séance opens: the comité member assigned to the control of the games, the cashier and the
    mechanic (required above SET-43 machines) or, at most SET-43 machines, the entrance employee or
    the cashier trained beforehand for routine maintenance, each with his ministerial approval."""

    establishment = models.ForeignKey(Establishment, on_delete=models.PROTECT, related_name="+")
    date = models.DateField(_("journée"))
    machines = models.PositiveIntegerField(_("machines en exploitation"))
    comite = models.ForeignKey(
        USER, on_delete=models.PROTECT, related_name="+", verbose_name=_("membre du comité de direction")
    )
    comite_approval = models.ForeignKey(StaffApproval, on_delete=models.PROTECT, related_name="+")
    cashier = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+", verbose_name=_("caissier"))
    cashier_approval = models.ForeignKey(StaffApproval, on_delete=models.PROTECT, related_name="+")
    maintainer = models.ForeignKey(
        USER,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("mécanicien ou employé chargé de l'entretien"),
    )
    maintainer_role = models.CharField(_("en qualité de"), max_length=30, blank=True)
    maintainer_approval = models.ForeignKey(
        StaffApproval, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    training = models.CharField(_("formation préalable à l'entretien"), max_length=200, blank=True)
    recorded_at = models.DateTimeField(_("inscrite le"))
    recorded_by = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+")
    entry = models.ForeignKey("registers.Entry", on_delete=models.PROTECT, related_name="+")
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("personnel de la salle des machines")
        verbose_name_plural = _("personnel de la salle des machines")
        ordering = ["-date"]
        constraints = [models.UniqueConstraint(fields=["establishment", "date"], name="slot_staffing_day")]

    def __str__(self) -> str:
        return f"{_('Personnel de la salle des machines du')} {self.date:%d/%m/%Y}"
