from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from ledgers.core.models import Establishment, GamingTable, Location, TableSession
from ledgers.slots.models import CertifiedMonthlyStatement

MONEY = {"max_digits": 14, "decimal_places": 2}


class TableFloat(models.Model):
    """A float given to a table-partie: MC the somme mise en banque (COUNT-01), FR the avance and
    its top-ups (COUNT-12, COUNT-33, COUNT-34). Append-only: a float is never changed."""

    class Kind(models.TextChoices):
        INITIAL = "initial", _("Avance initiale")
        TOP_UP = "top_up", _("Avance complémentaire")

    table_session = models.ForeignKey(TableSession, on_delete=models.PROTECT, related_name="floats")
    kind = models.CharField(_("nature"), max_length=10, choices=Kind.choices)
    amount = models.DecimalField(_("montant"), **MONEY)
    breakdown = models.JSONField(_("nomenclature"))
    # FR: multiple × minimum stake practised (COUNT-12); MC: the amount fixed by the Direction (COUNT-01).
    required = models.DecimalField(_("montant requis"), **MONEY)
    box_number = models.CharField(_("caisse n°"), max_length=20)
    transport_box = models.CharField(_("boîte de transport"), max_length=40, blank=True)
    counted_by = models.CharField(_("compté par (croupier)"), max_length=150, blank=True)
    called_aloud = models.BooleanField(_("annoncé à haute voix"), default=False)
    carry_note = models.TextField(_("écart avec la comptée précédente"), blank=True)
    recorded_at = models.DateTimeField(_("inscrit le"))
    signed_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    signed_role = models.CharField(_("qualité"), max_length=30)
    received_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    flags = models.JSONField(_("signalements"), default=list, blank=True)
    # FR boule, vingt-trois, roue de la chance: the carnet stays on the table (art. 43, COUNT-14)
    carnet_on_table = models.BooleanField(_("carnet posé sur la table"), default=False)

    class Meta:
        verbose_name = _("avance de table")
        verbose_name_plural = _("avances de table")
        ordering = ["recorded_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["table_session"], condition=models.Q(kind="initial"), name="one_initial_float_per_session"
            )
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} — {self.table_session}"


class SlipBook(models.Model):
    """A book of numbered slips: its numbers form one continuous series."""

    class Kind(models.TextChoices):
        CHANGE = "change", _("Bons de change table ↔ caisse (MC)")
        CHANGEUR = "changeur", _("Bons de ravitaillement du changeur (MC)")
        RAVITAILLEMENT = "ravitaillement", _("Bons de ravitaillement (FR)")

    establishment = models.ForeignKey(Establishment, on_delete=models.PROTECT, related_name="slip_books")
    kind = models.CharField(_("nature"), max_length=20, choices=Kind.choices)
    number = models.CharField(_("carnet n°"), max_length=30)
    first_number = models.PositiveIntegerField(_("premier bon"))
    last_number = models.PositiveIntegerField(_("dernier bon"))
    opened_at = models.DateTimeField(_("mis en service le"))
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("carnet de bons")
        verbose_name_plural = _("carnets de bons")
        constraints = [models.UniqueConstraint(fields=["establishment", "number"], name="slip_book_unique")]
        ordering = ["establishment", "number"]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} — {self.number}"


class Slip(models.Model):
    class Status(models.TextChoices):
        WRITTEN = "written", _("Rédigé et signé")
        SERVED = "served", _("Servi")
        VOID = "void", _("Annulé")

    book = models.ForeignKey(SlipBook, on_delete=models.PROTECT, related_name="slips")
    number = models.PositiveIntegerField(_("bon n°"))
    table_session = models.ForeignKey(
        TableSession, on_delete=models.PROTECT, null=True, blank=True, related_name="slips"
    )
    status = models.CharField(_("statut"), max_length=10, choices=Status.choices, default=Status.WRITTEN)
    requested = models.JSONField(_("demandé"), default=list)
    handed = models.JSONField(_("remis en échange"), default=list)
    total = models.DecimalField(_("total"), **MONEY, null=True)
    written_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, related_name="+")
    written_at = models.DateTimeField(_("rédigé le"))
    supervisor = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, related_name="+")
    supervisor_role = models.CharField(_("qualité du signataire"), max_length=30, blank=True)
    runner = models.CharField(_("porteur"), max_length=150, blank=True)
    served_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    served_at = models.DateTimeField(_("servi le"), null=True, blank=True)
    desk = models.ForeignKey(Location, on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    centralised_at = models.DateTimeField(_("centralisé le"), null=True, blank=True)
    void_reason = models.TextField(_("motif d'annulation"), blank=True)
    voided_by = models.JSONField(_("annulé par"), default=list, blank=True)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("bon")
        verbose_name_plural = _("bons")
        constraints = [models.UniqueConstraint(fields=["book", "number"], name="slip_number_unique")]
        ordering = ["book", "number"]

    def __str__(self) -> str:
        return f"{self.book.number} n° {self.number}"


class TableCount(models.Model):
    """The end-of-séance count of a table-partie's encaisse: two blind counts (the second person
    does not see the first until both are in), then the certification (COUNT-15, COUNT-50)."""

    class Status(models.TextChoices):
        AWAITING_SECOND = "awaiting", _("En attente du second comptage")
        AGREED = "agreed", _("Comptages concordants")
        ESCALATED = "escalated", _("Écart entre les comptages")
        CERTIFIED = "certified", _("Certifiée")

    table_session = models.OneToOneField(TableSession, on_delete=models.PROTECT, related_name="count")
    status = models.CharField(_("statut"), max_length=10, choices=Status.choices, default=Status.AWAITING_SECOND)
    first_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    first_breakdown = models.JSONField(_("premier comptage"))
    first_total = models.DecimalField(_("premier total"), **MONEY)
    second_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    second_breakdown = models.JSONField(_("second comptage"), null=True, blank=True)
    second_total = models.DecimalField(_("second total"), **MONEY, null=True, blank=True)
    tips = models.DecimalField(_("pourboires"), **MONEY, default=0)
    present = models.JSONField(_("employés de la table présents"), default=list)
    called_aloud = models.BooleanField(_("annoncé à haute voix"), default=False)
    count_room = models.BooleanField(_("comptée en salle de comptage"), default=False)
    cctv_reference = models.CharField(_("caméra et enregistrement"), max_length=120, blank=True)
    encaisse = models.DecimalField(_("encaisse retenue"), **MONEY, null=True, blank=True)
    result = models.DecimalField(_("résultat"), **MONEY, null=True, blank=True)
    # MC trente et quarante: refait insurance premiums, a table receipt on its own line (COUNT-10)
    insurance_premiums = models.DecimalField(_("primes d'assurance refait"), **MONEY, null=True, blank=True)
    resolution = models.TextField(_("règlement de l'écart"), blank=True)
    certified_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    certified_role = models.CharField(_("qualité du certificateur"), max_length=30, blank=True)
    certification = models.CharField(_("mention"), max_length=40, blank=True)
    certified_at = models.DateTimeField(_("certifiée le"), null=True, blank=True)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("comptée de fin de séance")
        verbose_name_plural = _("comptées de fin de séance")

    def __str__(self) -> str:
        return str(self.table_session)


class ControlDay(models.Model):
    """A day of the FR registre de contrôle (modèle 12): its lines are carried from the certified
    carnets when the day is closed; the closing is totalled in words and visaed twice (COUNT-56)."""

    class Status(models.TextChoices):
        CLOSED = "closed", _("Arrêtée")
        VISAED = "visaed", _("Visée")

    establishment = models.ForeignKey(Establishment, on_delete=models.PROTECT, related_name="control_days")
    date = models.DateField(_("date"))
    status = models.CharField(_("statut"), max_length=10, choices=Status.choices, default=Status.CLOSED)
    contrepartie_total = models.DecimalField(_("jeux de contrepartie"), **MONEY)
    cercle_total = models.DecimalField(_("jeux de cercle"), **MONEY)
    total = models.DecimalField(_("total du jour"), **MONEY)
    total_words = models.TextField(_("arrêté en toutes lettres"))
    season_total = models.DecimalField(_("cumul de la saison"), **MONEY)
    closed_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    closed_at = models.DateTimeField(_("arrêtée le"))
    visas = models.JSONField(_("visas"), default=list, blank=True)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("journée du registre de contrôle")
        verbose_name_plural = _("journées du registre de contrôle")
        constraints = [models.UniqueConstraint(fields=["establishment", "date"], name="control_day_unique")]
        ordering = ["-date"]

    def __str__(self) -> str:
        return f"{self.date:%d/%m/%Y}"


class TicketBook(models.Model):
    """A stub ticket book of a cercle table: MC chemin de fer levy (COUNT-07), FR cagnotte tickets
    (COUNT-38, COUNT-39). ``next_number`` is the first ticket still to detach."""

    establishment = models.ForeignKey(Establishment, on_delete=models.PROTECT, related_name="ticket_books")
    table = models.ForeignKey("core.GamingTable", on_delete=models.PROTECT, related_name="ticket_books")
    cover_number = models.CharField(_("numéro de couverture"), max_length=30)
    ticket_value = models.DecimalField(_("valeur du ticket"), **MONEY)
    first_number = models.PositiveIntegerField(_("premier ticket"))
    last_number = models.PositiveIntegerField(_("dernier ticket"))
    next_number = models.PositiveIntegerField(_("prochain ticket à détacher"))
    put_in_service_at = models.DateTimeField(_("mis en service le"))
    finished_on = models.DateField(_("terminé le"), null=True, blank=True)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("carnet de tickets")
        verbose_name_plural = _("carnets de tickets")
        ordering = ["table", "put_in_service_at"]

    def __str__(self) -> str:
        return f"{self.cover_number} ({self.ticket_value} €)"


class CagnotteCount(models.Model):
    """The cagnotte of a cercle table-partie: computed from the tickets detached (col. 8) before it
    is opened, then counted (col. 9); the higher of the two is carried (col. 15, COUNT-53)."""

    class Status(models.TextChoices):
        COMPUTED = "computed", _("Calculée, à compter")
        COUNTED = "counted", _("Comptée et certifiée")

    table_session = models.OneToOneField(TableSession, on_delete=models.PROTECT, related_name="cagnotte")
    status = models.CharField(_("statut"), max_length=10, choices=Status.choices, default=Status.COMPUTED)
    tickets = models.JSONField(_("tickets détachés"))
    computed = models.DecimalField(_("cagnotte calculée (col. 8)"), **MONEY)
    computed_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    computed_at = models.DateTimeField(_("calculée le"))
    counted = models.DecimalField(_("cagnotte comptée (col. 9)"), **MONEY, null=True, blank=True)
    breakdown = models.JSONField(_("nomenclature"), default=list, blank=True)
    surplus = models.DecimalField(_("excédent (col. 10)"), **MONEY, default=0)
    shortfall = models.DecimalField(_("manquant à la charge de la caisse (col. 11)"), **MONEY, default=0)
    balancing_ticket = models.PositiveIntegerField(_("dernier ticket d'équilibre (col. 13)"), null=True, blank=True)
    retained = models.DecimalField(_("report au modèle 12 (col. 15)"), **MONEY, null=True, blank=True)
    counted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    certification = models.CharField(_("mention"), max_length=40, blank=True)
    counted_at = models.DateTimeField(_("comptée le"), null=True, blank=True)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("cagnotte")
        verbose_name_plural = _("cagnottes")

    def __str__(self) -> str:
        return str(self.table_session)


class BadBeatCount(models.Model):
    """The bad beat jackpot cagnotte of a table at the end of the partie, reconciled with the
    certified computer statement (COUNT-21 to COUNT-24). Append-only."""

    table_session = models.OneToOneField(TableSession, on_delete=models.PROTECT, related_name="bad_beat")
    counted = models.DecimalField(_("cagnotte comptée"), **MONEY)
    statement = models.DecimalField(_("relevé informatique"), **MONEY)
    retained = models.DecimalField(_("retenue inscrite"), **MONEY)
    adjustment = models.DecimalField(_("retenue complémentaire saisie"), **MONEY, default=0)
    contribution = models.DecimalField(_("manquant supporté par la caisse"), **MONEY, default=0)
    displayed = models.DecimalField(_("montant affiché"), **MONEY)
    present = models.JSONField(_("employés de la table présents"), default=list)
    # COUNT-24: displayed ≠ previous displayed + retenues − payouts (+ restarts)
    flags = models.JSONField(_("signalements"), default=list, blank=True)
    cashier = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    comite = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField(_("inscrite le"))

    class Meta:
        verbose_name = _("comptage du bad beat jackpot")
        verbose_name_plural = _("comptages du bad beat jackpot")

    def __str__(self) -> str:
        return str(self.table_session)


class Orphan(models.Model):
    """FR orphelins (art. 41): sums, stakes and ticket or card credits whose owner is unknown,
    paid into the cash desk or a tirelire and written in carnet modèle 11 bis (COUNT-30, COUNT-31)."""

    class Category(models.TextChoices):
        FLOOR = "floor", _("Trouvé au sol")
        TABLE = "table", _("Laissé sur une table")
        ABANDONED_STAKE = "abandoned_stake", _("Mise abandonnée en cours de partie")
        TICKET = "ticket", _("Ticket ou carte dont le titulaire est inconnu")
        EXPIRED_TICKET = "expired_ticket", _("Ticket périmé")
        # The increment of a jackpot stopped for good: bad beat (COUNT-47), progressive (SLOT-37, SLOT-41).
        JACKPOT_INCREMENT = "jackpot_increment", _("Incrément d'un jackpot arrêté définitivement")
        UNCLAIMED_WIN = "unclaimed_win", _("Gain de machine à sous non réclamé")  # SLOT-43

    establishment = models.ForeignKey(Establishment, on_delete=models.PROTECT, related_name="orphans")
    category = models.CharField(_("nature"), max_length=20, choices=Category.choices)
    place = models.CharField(_("lieu"), max_length=100)
    amount = models.DecimalField(_("montant"), **MONEY)
    initial_stake = models.DecimalField(_("mise initiale"), **MONEY, null=True, blank=True)
    winnings = models.DecimalField(_("gains cumulés"), **MONEY, null=True, blank=True)
    found_by = models.CharField(_("trouvé par"), max_length=150)
    witness = models.CharField(_("témoin"), max_length=150, blank=True)
    found_at = models.DateTimeField(_("trouvé le"))
    paid_into = models.CharField(_("versé à (caisse ou tirelire n°)"), max_length=60)
    entry_seq = models.PositiveBigIntegerField(_("inscription au carnet n°"))
    refunded = models.DecimalField(_("restitué"), **MONEY, default=0)
    restitutions = models.JSONField(_("restitutions"), default=list, blank=True)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("orphelin")
        verbose_name_plural = _("orphelins")
        ordering = ["-found_at"]

    def __str__(self) -> str:
        return f"{self.get_category_display()} — {self.amount} €"


class TableBox(models.Model):
    """FR art. 49: the metal chip-and-banknote box built into a contrepartie table, closed by a
    shutter that locks with a key, and the locking banknote coffret inside it when the table
    accepts banknotes (COUNT-37). Append-only: a replaced box is a new record, the latest counts."""

    table = models.ForeignKey(GamingTable, on_delete=models.PROTECT, related_name="cash_boxes")
    box_id = models.CharField(_("caisse incorporée n°"), max_length=40)
    key_reference = models.CharField(_("clé du volet"), max_length=40)
    banknotes_accepted = models.BooleanField(_("billets acceptés à la table"), default=False)
    coffret_id = models.CharField(_("coffret à billets n°"), max_length=40, blank=True)
    coffret_key_reference = models.CharField(_("clé du coffret"), max_length=40, blank=True)
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField(_("inscrite le"))

    class Meta:
        verbose_name = _("caisse incorporée à la table")
        verbose_name_plural = _("caisses incorporées aux tables")
        ordering = ["table", "-recorded_at"]

    def __str__(self) -> str:
        return f"{self.table.number} — {self.box_id}"


class BadBeatTable(models.Model):
    """FR: a cercle table that runs the bad beat jackpot, with its approved recording machine and
    the BBJ cagnotte built into it (art. 56-3-1, COUNT-46). Its end-of-séance count and displayed
    amount are then due at each séance (COUNT-24). Append-only."""

    table = models.OneToOneField(GamingTable, on_delete=models.PROTECT, related_name="bad_beat_jackpot")
    machine_approval = models.CharField(_("agrément de la machine"), max_length=80)
    cagnotte_number = models.CharField(_("cagnotte du bad beat jackpot n°"), max_length=40)
    activated_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    activated_at = models.DateTimeField(_("activé le"))

    class Meta:
        verbose_name = _("table à bad beat jackpot")
        verbose_name_plural = _("tables à bad beat jackpot")

    def __str__(self) -> str:
        return self.table.number


class BadBeatConfig(models.Model):
    """A version of a BBJ's conditions (COUNT-44, COUNT-45): starting value, increment and its
    rounding, side-pot rule, the minimum pot of the règlement intérieur in force, the restart
    value after a win. A new version only once the jackpot is stopped for good: it is a new BBJ,
    which may take back the increment of the stopped one (COUNT-47). Append-only."""

    class Increment(models.TextChoices):
        FIXED = "fixed", _("Montant fixe par pot")
        PERCENT = "percent", _("Pourcentage du pot")

    class Restart(models.TextChoices):
        ZERO = "zero", _("0 €")
        START = "start", _("Valeur de départ")

    jackpot = models.ForeignKey(BadBeatTable, on_delete=models.PROTECT, related_name="configs")
    version = models.PositiveIntegerField(_("version"))
    starting_value = models.DecimalField(_("valeur de départ"), **MONEY)
    increment_kind = models.CharField(_("incrément"), max_length=10, choices=Increment.choices)
    increment_value = models.DecimalField(_("montant ou taux de l'incrément"), **MONEY)
    rounding = models.CharField(_("mode d'arrondi"), max_length=200)
    side_pot_rule = models.CharField(_("retenue en cas de pots extérieurs"), max_length=250)
    minimum_pot = models.DecimalField(_("pot minimum"), **MONEY)
    house_rules_version = models.PositiveIntegerField(_("version du règlement intérieur"))
    restart = models.CharField(_("redémarrage après un gain"), max_length=10, choices=Restart.choices)
    reassigned = models.DecimalField(_("incrément réaffecté"), **MONEY, default=0)
    reassigned_from = models.ForeignKey(
        "BadBeatStop", on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    effective_at = models.DateTimeField(_("en vigueur le"))
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")

    class Meta:
        verbose_name = _("conditions du bad beat jackpot")
        verbose_name_plural = _("conditions du bad beat jackpot")
        ordering = ["jackpot", "version"]
        constraints = [models.UniqueConstraint(fields=["jackpot", "version"], name="bbj_config_version_unique")]

    def __str__(self) -> str:
        return f"{self.jackpot} v{self.version}"


class BadBeatStop(models.Model):
    """A stop of a BBJ (art. 56-3-2, COUNT-47): the final voluntary stop, its increment written to
    the orphans after the Minister's notice; a temporary voluntary stop, resumed at ``restored_at``
    by ``restored_by``; or a technical breakdown (INC-15), the police informed at once. While a
    temporary stop or a breakdown lasts, play goes on without increments or payouts."""

    class Kind(models.TextChoices):
        FINAL = "final", _("Arrêt définitif volontaire")
        BREAKDOWN = "breakdown", _("Arrêt involontaire (panne technique)")
        SUSPENSION = "suspension", _("Arrêt volontaire temporaire")

    jackpot = models.ForeignKey(BadBeatTable, on_delete=models.PROTECT, related_name="stops")
    kind = models.CharField(_("nature"), max_length=10, choices=Kind.choices)
    stopped_at = models.DateTimeField(_("arrêté le"))
    increment = models.DecimalField(_("incrément"), **MONEY, default=0)
    minister_notified_at = models.DateTimeField(_("ministre de l'intérieur informé le"), null=True, blank=True)
    minister_reference = models.CharField(_("référence de l'information du ministre"), max_length=120, blank=True)
    orphan = models.ForeignKey(Orphan, on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    incident = models.ForeignKey(
        "incidents.Incident", on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    police_informed_at = models.DateTimeField(_("police judiciaire informée le"), null=True, blank=True)
    police_service = models.CharField(_("service de police informé"), max_length=150, blank=True)
    restored_at = models.DateTimeField(_("rétabli le"), null=True, blank=True)
    restored_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("repris par"),
    )
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("arrêt du bad beat jackpot")
        verbose_name_plural = _("arrêts du bad beat jackpot")
        ordering = ["-stopped_at"]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} — {self.jackpot}"


class BadBeatWin(models.Model):
    """A BBJ won at a table (art. 56-3, 56-3-3; COUNT-44, COUNT-48): one payment bon per player
    present, 50 % of the jackpot to the losing player who wins it and 50 % shared equally among
    all the players present, paid at the cash desk by the cashier under a comité member's control.
    Append-only."""

    jackpot = models.ForeignKey(BadBeatTable, on_delete=models.PROTECT, related_name="wins")
    table_session = models.ForeignKey(TableSession, on_delete=models.PROTECT, related_name="bad_beat_wins")
    config = models.ForeignKey(BadBeatConfig, on_delete=models.PROTECT, related_name="wins")
    won_at = models.DateTimeField(_("gagné le"))
    combination = models.CharField(_("combinaison"), max_length=200)
    pot = models.DecimalField(_("pot"), **MONEY)
    amount = models.DecimalField(_("montant du bad beat jackpot"), **MONEY)
    players_present = models.PositiveSmallIntegerField(_("joueurs présents à la table"))
    winner_name = models.CharField(_("gagnant du lot principal (nom et prénom)"), max_length=200)
    bons = models.JSONField(_("bons de paiement"))
    restart_value = models.DecimalField(_("valeur de redémarrage"), **MONEY)
    cashier = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    comite = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")

    class Meta:
        verbose_name = _("gain du bad beat jackpot")
        verbose_name_plural = _("gains du bad beat jackpot")
        ordering = ["-won_at"]

    def __str__(self) -> str:
        return f"{self.jackpot} — {self.amount} €"


class TableCagnotte(models.Model):
    """FR: the cagnotte of a cercle table, which receives the levies made for the establishment and
    bears the same number as its table (texas hold'em COUNT-17, baccara COUNT-42). Append-only: a
    replaced cagnotte is a new record, the latest counts."""

    table = models.ForeignKey(GamingTable, on_delete=models.PROTECT, related_name="cagnottes")
    number = models.CharField(_("cagnotte n°"), max_length=40)
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField(_("inscrite le"))

    class Meta:
        verbose_name = _("cagnotte de table")
        verbose_name_plural = _("cagnottes de table")
        ordering = ["table", "-recorded_at"]

    def __str__(self) -> str:
        return f"{self.table.number} — {self.number}"


class SfeAdvance(models.Model):
    """MC chemin de fer: an advance the Société Financière d'Encaissement grants a customer, handed
    over at the table by the changeur (art. 11.3, COUNT-11), with the SFE's authorisation. Append-only."""

    table_session = models.ForeignKey(TableSession, on_delete=models.PROTECT, related_name="sfe_advances")
    customer = models.CharField(_("client"), max_length=200)
    amount = models.DecimalField(_("montant"), **MONEY)
    authorisation = models.CharField(_("autorisation de la SFE"), max_length=80)
    changeur = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    advanced_at = models.DateTimeField(_("avancé le"))

    class Meta:
        verbose_name = _("avance de la SFE")
        verbose_name_plural = _("avances de la SFE")
        ordering = ["-advanced_at"]

    def __str__(self) -> str:
        return f"{self.customer} — {self.amount} €"


class ChangeurFloatFix(models.Model):
    """FR art. 37: the sum the directeur responsable fixes for the cash box of a cercle table's
    changeur (COUNT-28). Append-only: a new amount is a new record, the latest counts."""

    table = models.ForeignKey(GamingTable, on_delete=models.PROTECT, related_name="changeur_float_fixes")
    amount = models.DecimalField(_("somme fixée"), **MONEY)
    fixed_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    fixed_at = models.DateTimeField(_("fixée le"))

    class Meta:
        verbose_name = _("somme fixée du changeur")
        verbose_name_plural = _("sommes fixées des changeurs")
        ordering = ["table", "-fixed_at"]

    def __str__(self) -> str:
        return f"{self.table.number} — {self.amount} €"


class ChangeurFloat(models.Model):
    """FR art. 37: the changeur's cash box at a cercle table-partie, holding the sum fixed by the
    directeur responsable, written in the table's carnet modèle 11 before he changes (COUNT-28).
    Append-only."""

    table_session = models.ForeignKey(TableSession, on_delete=models.PROTECT, related_name="changeur_floats")
    changeur = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    amount = models.DecimalField(_("montant"), **MONEY)
    breakdown = models.JSONField(_("nomenclature"))
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField(_("inscrite le"))

    class Meta:
        verbose_name = _("caisse du changeur")
        verbose_name_plural = _("caisses des changeurs")
        constraints = [models.UniqueConstraint(fields=["table_session", "changeur"], name="one_changeur_float")]

    def __str__(self) -> str:
        return f"{self.table_session} — {self.amount} €"


class BoxHolderDesignation(models.Model):
    """FR art. 42 as amended: where a contrepartie table has no chef de table, the gaming employee
    in charge of its cash box, designated for the table-partie, acts for the box and its carnet
    d'avances (COUNT-13). Append-only."""

    table_session = models.ForeignKey(TableSession, on_delete=models.PROTECT, related_name="box_holders")
    employee = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    designated_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    designated_at = models.DateTimeField(_("désigné le"))

    class Meta:
        verbose_name = _("désignation de l'employé chargé de la caisse")
        verbose_name_plural = _("désignations des employés chargés de la caisse")
        constraints = [models.UniqueConstraint(fields=["table_session"], name="one_box_holder_per_session")]

    def __str__(self) -> str:
        return str(self.table_session)


class ChipSeries(models.Model):
    """FR registre des plaques, jetons et cartes de paiement (modèle 16, art. 81, COUNT-58): a set
    of identical series put into service, described with its manufacturer, the pieces of one
    series per value (plaques and chips), and how many series are in the general reserve and how
    many in service at the change desks and tables."""

    class Kind(models.TextChoices):
        PLAQUE = "plaque", _("Plaques")
        JETON = "jeton", _("Jetons")
        CARTE = "carte", _("Cartes de paiement")

    establishment = models.ForeignKey(Establishment, on_delete=models.PROTECT, related_name="chip_series")
    kind = models.CharField(_("nature"), max_length=10, choices=Kind.choices)
    description = models.CharField(_("description sommaire"), max_length=200)
    manufacturer = models.CharField(_("fabricant"), max_length=150)
    series_count = models.PositiveIntegerField(_("nombre de séries"))
    # One series: [{"value", "quantity"}] for plaques and chips; payment cards: their number per series.
    pieces = models.JSONField(_("valeurs et nombre par valeur d'une série"), default=list, blank=True)
    cards_per_series = models.PositiveIntegerField(_("cartes par série"), default=0)
    reserve_series = models.PositiveIntegerField(_("séries à la réserve générale"))
    in_service_series = models.PositiveIntegerField(_("séries en service"))
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField(_("inscrite le"))
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("série de plaques, jetons ou cartes")
        verbose_name_plural = _("séries de plaques, jetons et cartes")
        ordering = ["establishment", "kind", "recorded_at"]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} — {self.description}"


class ChipCensus(models.Model):
    """The census of the plaques, chips and payment cards in service taken at the start and in the
    middle of each season (art. 81, SET-45), with the amount held by players it gives and the
    balance of the "plaques, jetons et cartes de paiement" account it must equal. Append-only."""

    class Period(models.TextChoices):
        START = "start", _("Début de saison")
        MIDDLE = "middle", _("Mi-saison")

    establishment = models.ForeignKey(Establishment, on_delete=models.PROTECT, related_name="chip_censuses")
    season = models.DateField(_("saison commençant le"))
    period = models.CharField(_("recensement"), max_length=10, choices=Period.choices)
    census_date = models.DateField(_("date du recensement"))
    lines = models.JSONField(_("pièces recensées"))
    counted_total = models.DecimalField(_("montant recensé"), **MONEY)
    taken_in_charge = models.DecimalField(_("montant pris en charge"), **MONEY)
    player_held = models.DecimalField(_("montant conservé par les joueurs"), **MONEY)
    account_balance = models.DecimalField(_("solde créditeur du compte"), **MONEY)
    counted_by = models.CharField(_("recensé par"), max_length=300)
    flags = models.JSONField(_("signalements"), default=list, blank=True)
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField(_("inscrit le"))

    class Meta:
        verbose_name = _("recensement des plaques, jetons et cartes")
        verbose_name_plural = _("recensements des plaques, jetons et cartes")
        constraints = [
            models.UniqueConstraint(fields=["establishment", "season", "period"], name="one_chip_census_per_period")
        ]
        ordering = ["-census_date"]

    def __str__(self) -> str:
        return f"{self.get_period_display()} {self.season:%Y}"


class CardTableNumber(models.Model):
    """FR art. 56-1 (COUNT-39): the serial number of a card table for a season; the numbers of all
    the card tables form one unbroken series and never change during the season. Append-only."""

    table = models.ForeignKey(GamingTable, on_delete=models.PROTECT, related_name="card_numbers")
    season = models.DateField(_("saison commençant le"))
    serial = models.PositiveIntegerField(_("numéro d'ordre"))
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField(_("inscrit le"))

    class Meta:
        verbose_name = _("numéro d'ordre de table de cartes")
        verbose_name_plural = _("numéros d'ordre des tables de cartes")
        constraints = [
            models.UniqueConstraint(fields=["table", "season"], name="card_table_numbered_once_per_season"),
        ]
        ordering = ["season", "serial"]

    def __str__(self) -> str:
        return f"{self.serial} — {self.table.number}"


class TicketStamp(models.Model):
    """FR art. 56-1 (COUNT-40, REG-32): a date stamp the ticket books' keeper applies away from
    the table: on the first ticket's stub when the book is put into service, then before each
    cagnotte séance on the stub of its first ticket, with the blue line. Append-only."""

    class Kind(models.TextChoices):
        IN_SERVICE = "in_service", _("Mise en service (timbre sur le premier ticket)")
        SEANCE_START = "seance_start", _("Début de séance (timbre et trait bleu)")

    book = models.ForeignKey(TicketBook, on_delete=models.PROTECT, related_name="stamps")
    kind = models.CharField(_("nature"), max_length=15, choices=Kind.choices)
    first_ticket = models.PositiveIntegerField(_("premier ticket de la séance"))
    stamped_on = models.DateField(_("date du timbre"))
    blue_line = models.BooleanField(_("trait au crayon bleu"), default=False)
    keeper = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField(_("inscrit le"))

    class Meta:
        verbose_name = _("timbre à date de carnet de tickets")
        verbose_name_plural = _("timbres à date des carnets de tickets")
        constraints = [models.UniqueConstraint(fields=["book", "first_ticket"], name="one_stamp_per_first_ticket")]
        ordering = ["book", "first_ticket"]

    def __str__(self) -> str:
        return f"{self.book} n° {self.first_ticket}"


class LevyMachine(models.Model):
    """FR art. 56-1 (COUNT-41): the approved machine that records the levies of a cercle table
    instead of ticket books; its printed history gives the computed cagnotte. Append-only."""

    table = models.OneToOneField(GamingTable, on_delete=models.PROTECT, related_name="levy_machine")
    approval_reference = models.CharField(_("agrément de la machine"), max_length=80)
    activated_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    activated_at = models.DateTimeField(_("mise en service le"))

    class Meta:
        verbose_name = _("machine de retenue agréée")
        verbose_name_plural = _("machines de retenue agréées")

    def __str__(self) -> str:
        return f"{self.table.number} — {self.approval_reference}"


class ElectronicDevice(models.Model):
    """FR electronic game device: contrepartie (art. 69 b, 70-1), its registre de comptabilité
    modèle 10 bis numbered like it records its stations day by day; cercle (art. 69 c, 71-1), its
    modèle 7 daily statement and carnet 11 quater numbered like it. Append-only."""

    class Family(models.TextChoices):
        CONTREPARTIE = "contrepartie", _("Jeu de contrepartie")
        CERCLE = "cercle", _("Jeu de cercle")

    establishment = models.ForeignKey(Establishment, on_delete=models.PROTECT, related_name="electronic_devices")
    # Contrepartie: modèle 10 bis (art. 70-1); cercle: modèle 7 and carnet 11 quater (art. 71-1).
    family = models.CharField(_("famille"), max_length=12, choices=Family.choices, default=Family.CONTREPARTIE)
    number = models.CharField(_("appareil n°"), max_length=30)
    game = models.CharField(_("jeu pratiqué"), max_length=100)
    stations = models.PositiveSmallIntegerField(_("postes de jeu"))
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField(_("inscrit le"))

    class Meta:
        verbose_name = _("appareil de jeux électroniques")
        verbose_name_plural = _("appareils de jeux électroniques")
        constraints = [models.UniqueConstraint(fields=["establishment", "number"], name="electronic_device_unique")]
        ordering = ["establishment", "number"]

    def __str__(self) -> str:
        return f"{self.number} — {self.game}"


class StationResult(models.Model):
    """A line of modèle 10 bis: one station's day, avances, physical and electronic counts
    ((units in − units out) × unit stake), tickets issued and product (art. 70-1, COUNT-51). Append-only."""

    device = models.ForeignKey(ElectronicDevice, on_delete=models.PROTECT, related_name="results")
    date = models.DateField(_("date"))
    station = models.PositiveSmallIntegerField(_("poste de jeu"))
    avances = models.DecimalField(_("avances de la caisse"), **MONEY)
    physical_count = models.DecimalField(_("comptée physique"), **MONEY)
    units_in = models.PositiveIntegerField(_("unités entrées"))
    units_out = models.PositiveIntegerField(_("unités sorties"))
    unit_stake = models.DecimalField(_("mise unitaire"), **MONEY)
    electronic_count = models.DecimalField(_("comptée électronique"), **MONEY)
    tickets_issued = models.DecimalField(_("tickets émis"), **MONEY)
    product = models.DecimalField(_("produit"), **MONEY)
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField(_("inscrit le"))

    class Meta:
        verbose_name = _("résultat de poste de jeu (modèle 10 bis)")
        verbose_name_plural = _("résultats des postes de jeu (modèle 10 bis)")
        constraints = [models.UniqueConstraint(fields=["device", "date", "station"], name="one_station_line_per_day")]
        ordering = ["device", "date", "station"]

    def __str__(self) -> str:
        return f"{self.device.number} / {self.station} — {self.date:%d/%m/%Y}"


class DeviceDay(models.Model):
    """The day of a device's modèle 10 bis visaed by a comité member: its product may then be
    carried to modèle 12 (art. 70-1, COUNT-51). Append-only."""

    device = models.ForeignKey(ElectronicDevice, on_delete=models.PROTECT, related_name="days")
    date = models.DateField(_("date"))
    product = models.DecimalField(_("produit brut de l'appareil"), **MONEY)
    visa_seq = models.PositiveBigIntegerField(_("visa n°"))
    visaed_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    visaed_at = models.DateTimeField(_("visé le"))

    class Meta:
        verbose_name = _("journée visée du modèle 10 bis")
        verbose_name_plural = _("journées visées du modèle 10 bis")
        constraints = [models.UniqueConstraint(fields=["device", "date"], name="one_visa_per_device_day")]

    def __str__(self) -> str:
        return f"{self.device.number} — {self.date:%d/%m/%Y}"


class CercleDeviceDay(models.Model):
    """FR electronic cercle game device's day (art. 69 c, 71-1, COUNT-55): the modèle 7 daily
    statement and the levies written in its carnet modèle 11 quater, then "certifié exact" by a
    comité member, only after which the amount is carried to modèle 12."""

    device = models.ForeignKey(ElectronicDevice, on_delete=models.PROTECT, related_name="cercle_days")
    date = models.DateField(_("date"))
    parties = models.PositiveIntegerField(_("parties"))
    levies = models.DecimalField(_("retenues au profit de la cagnotte"), **MONEY)
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField(_("inscrit le"))
    certified_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    certification = models.CharField(_("mention"), max_length=40, blank=True)
    certified_at = models.DateTimeField(_("certifiée le"), null=True, blank=True)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("journée d'un jeu de cercle électronique")
        verbose_name_plural = _("journées des jeux de cercle électroniques")
        constraints = [models.UniqueConstraint(fields=["device", "date"], name="one_cercle_device_day")]
        ordering = ["device", "date"]

    def __str__(self) -> str:
        return f"{self.device.number} — {self.date:%d/%m/%Y}"


class BaccaraBank(models.Model):
    """FR baccara à deux tableaux (art. 71, COUNT-54): the mention "Baccara à banque limitée" or
    "Baccara à banque ouverte" the table's carnet modèle 11 bears. Append-only."""

    class Kind(models.TextChoices):
        LIMITED = "limitee", _("Baccara à banque limitée")
        OPEN = "ouverte", _("Baccara à banque ouverte")

    table = models.OneToOneField(GamingTable, on_delete=models.PROTECT, related_name="baccara_bank")
    kind = models.CharField(_("mention"), max_length=10, choices=Kind.choices)
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField(_("inscrite le"))

    class Meta:
        verbose_name = _("mention de la banque de baccara")
        verbose_name_plural = _("mentions des banques de baccara")

    def __str__(self) -> str:
        return f"{self.table.number} — {self.get_kind_display()}"


class BankerSegment(models.Model):
    """FR baccara à deux tableaux (art. 71, COUNT-54): the operations of one banker during a
    table-partie, headed by his name (col. 3; the croupiers and changeurs go to col. 3 bis), with the
    nomenclature of his somme en banque, chips and plaques only (art. 37, COUNT-27).
    Append-only: a segment ends where the next one starts."""

    table_session = models.ForeignKey(TableSession, on_delete=models.PROTECT, related_name="banker_segments")
    banker = models.CharField(_("banquier"), max_length=150)
    # Art. 37 (COUNT-27): the somme en banque of a cercle game holds only chips or plaques.
    bank = models.JSONField(_("somme en banque (nomenclature)"), default=list)
    bank_amount = models.DecimalField(_("somme en banque"), **MONEY, default=0)
    started_at = models.DateTimeField(_("début"))
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")

    class Meta:
        verbose_name = _("banquier de la séance")
        verbose_name_plural = _("banquiers de la séance")
        ordering = ["table_session", "started_at"]

    def __str__(self) -> str:
        return f"{self.table_session} — {self.banker}"


class ElectronicMeterStatement(CertifiedMonthlyStatement):
    """FR état mensuel du relevé des compteurs des jeux électroniques (modèle 33, art. 69 b,
    COUNT-51): one line per electronic contrepartie device that ran during the month, its stations'
    meters (units in and out, unit stake, electronic count) and the product summed from its visaed
    modèle 10 bis days; drawn up by the cash desk and certified with a comité member. Lines:
    [{device, game, days, product, stations: [{station, units_in, units_out, unit_stake, electronic}]}].
    Append-only."""

    total = models.DecimalField(_("produit brut du mois"), max_digits=16, decimal_places=2)
    drawn_up_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("rédigé par")
    )

    class Meta(CertifiedMonthlyStatement.Meta):
        verbose_name = _("état mensuel du relevé des compteurs des jeux électroniques")
        verbose_name_plural = _("états mensuels du relevé des compteurs des jeux électroniques")
        constraints = [
            models.UniqueConstraint(
                fields=["establishment", "year", "month"], name="electronic_statement_33_month_unique"
            )
        ]


class BadBeatLog(models.Model):
    """FR: the per-partie log of a BBJ table's approved machine for one table-partie (art. 56-3-1,
    COUNT-46), imported from its CSV export: per partie the time, the pot, the house and BBJ
    retenues, the wins paid, the BBJ amount and its payments to each player. The sum of its BBJ
    retenues is compared with the retenue written in the registre du BBJ (a difference is flagged).
    Rows: [{time, pot, house, bbj, wins, bbj_amount, payments: [amount]}]. Append-only."""

    table_session = models.OneToOneField(TableSession, on_delete=models.PROTECT, related_name="bad_beat_log")
    rows = models.JSONField(_("parties"))
    bbj_total = models.DecimalField(_("retenues du bad beat jackpot de l'historique"), **MONEY)
    house_total = models.DecimalField(_("retenues de l'établissement de l'historique"), **MONEY)
    flags = models.JSONField(_("signalements"), default=list, blank=True)
    imported_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    imported_at = models.DateTimeField(_("importé le"))

    class Meta:
        verbose_name = _("historique de la machine du bad beat jackpot")
        verbose_name_plural = _("historiques des machines du bad beat jackpot")

    def __str__(self) -> str:
        return str(self.table_session)
