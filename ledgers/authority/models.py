import datetime

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from ledgers.core.games import GAME_CHOICES
from ledgers.core.models import Establishment, GamingTable, Seance, TableSession
from ledgers.registers.models import Register


class Observation(models.Model):
    """One visit of the police surveillance agents written in the registre spécial d'observations
    (REG-44), and the directeur responsable's follow-up written opposite it. Both are register
    entries; this row is the working copy that says what still waits for a follow-up."""

    class Nature(models.TextChoices):
        VISIT = "visit", _("Visite sans observation")
        OBSERVATION = "observation", _("Observation")
        INSTRUCTION = "instruction", _("Instruction")
        INJUNCTION = "injunction", _("Injonction")

    establishment = models.ForeignKey(Establishment, on_delete=models.PROTECT, related_name="police_observations")
    register = models.ForeignKey(Register, on_delete=models.PROTECT, related_name="+")
    number = models.PositiveIntegerField(_("n°"))
    visited_at = models.DateTimeField(_("jour et heure de la visite"))
    agents = models.CharField(_("agents"), max_length=300)
    operations = models.TextField(_("nature des opérations effectuées"))
    nature = models.CharField(_("nature"), max_length=12, choices=Nature.choices)
    text = models.TextField(_("observations, instructions ou injonctions"), blank=True)
    written_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    entry_seq = models.PositiveBigIntegerField(_("entrée"))
    due_on = models.DateField(_("suite à mentionner au plus tard le"), null=True, blank=True)
    follow_up = models.TextField(_("suite réservée"), blank=True)
    follow_up_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    follow_up_at = models.DateTimeField(_("suite mentionnée le"), null=True, blank=True)
    follow_up_seq = models.PositiveBigIntegerField(_("entrée de la suite"), null=True, blank=True)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("observation de la police")
        verbose_name_plural = _("observations de la police")
        ordering = ["-visited_at", "-pk"]
        constraints = [models.UniqueConstraint(fields=["establishment", "number"], name="observation_number_unique")]

    def __str__(self) -> str:
        return _("Observation n° %(n)s") % {"n": self.number}

    @property
    def needs_follow_up(self) -> bool:
        return self.due_on is not None and not self.follow_up_seq


class LiaisonQuestion(models.Model):
    """A question of the directeur responsable in the registre de liaison and the service's answer
    (REG-45), each its own register entry."""

    establishment = models.ForeignKey(Establishment, on_delete=models.PROTECT, related_name="liaison_questions")
    register = models.ForeignKey(Register, on_delete=models.PROTECT, related_name="+")
    number = models.PositiveIntegerField(_("n°"))
    subject = models.CharField(_("objet"), max_length=250)
    question = models.TextField(_("question"))
    asked_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    asked_at = models.DateTimeField(_("posée le"))
    question_seq = models.PositiveBigIntegerField(_("entrée de la question"))
    answer = models.TextField(_("réponse"), blank=True)
    answered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    answered_at = models.DateTimeField(_("répondue le"), null=True, blank=True)
    answer_seq = models.PositiveBigIntegerField(_("entrée de la réponse"), null=True, blank=True)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("question au service de police")
        verbose_name_plural = _("questions au service de police")
        ordering = ["-asked_at", "-pk"]
        constraints = [models.UniqueConstraint(fields=["establishment", "number"], name="liaison_number_unique")]

    def __str__(self) -> str:
        return _("Question n° %(n)s") % {"n": self.number}


class AccessLog(models.Model):
    """A regulator's read or print of register content (REG-22): append-only, written by the
    access-log middleware, shown to the regulators and to the Direction."""

    class Action(models.TextChoices):
        READ = "read", _("Consultation")
        PRINT = "print", _("Impression")
        EXPORT = "export", _("Export")

    establishment = models.ForeignKey(Establishment, on_delete=models.PROTECT, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    roles = models.CharField(_("qualité"), max_length=200)
    at = models.DateTimeField(_("le"), auto_now_add=True)
    action = models.CharField(_("nature"), max_length=10, choices=Action.choices)
    target = models.CharField(_("objet"), max_length=200)
    path = models.CharField(_("adresse"), max_length=500)

    class Meta:
        verbose_name = _("accès d'une autorité")
        verbose_name_plural = _("accès des autorités")
        ordering = ["-at", "-pk"]
        indexes = [models.Index(fields=["establishment", "-at"])]

    def __str__(self) -> str:
        return f"{self.user} — {self.get_action_display()} — {self.target}"


def archive_upload_to(archive: "SeasonArchive", filename: str) -> str:
    return f"archives/{archive.establishment.code}/{filename}"


class SeasonArchive(models.Model):
    """The archive of a closed period (season): every register with entries in it, as a sealed PDF
    and as JSON Lines, with a manifest of SHA-256 digests (REG-43, docs/archive-format.md). Built
    in the background; the manifest's own digest is kept here to compare with a copy."""

    class Status(models.TextChoices):
        QUEUED = "queued", _("En attente")
        RUNNING = "running", _("En cours")
        DONE = "done", _("Terminé")
        FAILED = "failed", _("Échec")

    establishment = models.ForeignKey(Establishment, on_delete=models.PROTECT, related_name="+")
    season = models.PositiveIntegerField(_("saison (année de début)"))
    status = models.CharField(_("statut"), max_length=10, choices=Status.choices, default=Status.QUEUED)
    file = models.FileField(_("fichier"), upload_to=archive_upload_to, max_length=300, blank=True)
    manifest_sha256 = models.CharField(_("empreinte du manifeste"), max_length=64, blank=True)
    registers = models.JSONField(_("registres archivés"), default=dict)  # number → head hash archived
    error = models.TextField(_("erreur"), blank=True)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(_("demandé le"), auto_now_add=True)
    finished_at = models.DateTimeField(_("terminé le"), null=True, blank=True)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("archive de saison")
        verbose_name_plural = _("archives de saison")
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return _("Archive %(season)s n° %(pk)s") % {"season": self.season, "pk": self.pk}


class PurgeClearance(models.Model):
    """A register whose retention term is over and whose archive exists, cleared for removal by
    the database owner (the application never deletes ledger rows: docs/archive-format.md)."""

    register = models.ForeignKey(Register, on_delete=models.PROTECT, related_name="+")
    archive = models.ForeignKey(SeasonArchive, on_delete=models.PROTECT, related_name="+")
    retention_end = models.DateField(_("fin de conservation"))
    cleared_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    cleared_at = models.DateTimeField(_("le"), auto_now_add=True)

    class Meta:
        verbose_name = _("autorisation de purge")
        verbose_name_plural = _("autorisations de purge")

    def __str__(self) -> str:
        return f"{self.register} — {self.retention_end:%d/%m/%Y}"


class Declaration(models.Model):
    """A detailed prior declaration (003 art. 7, 9 bis; AUTH-01) and its follow-up (AUTH-02)."""

    class Operation(models.TextChoices):
        REPLACE_TABLES = "2", _("2° Remplacement de tables d'un jeu autorisé par des tables d'un nouveau jeu")
        NEW_GAME = "3", _("3° Exploitation d'un nouveau jeu de table")
        ELECTRONIC = "5", _("5° Exploitation d'une forme électronique de jeux de table autorisés")
        DISTRIBUTION = (
            "6",
            _("6° Modification de la répartition des tables, des mises minimales ou des limites horaires"),
        )
        POKER_TOURNAMENT = "7", _("7° Tables de poker supplémentaires pour un tournoi déclaré")

    class Recipient(models.TextChoices):
        MINISTRY = "dlpaj", _("Ministère de l'intérieur (DLPAJ)")
        SCCJ = "sccj", _("Chef du service central des courses et jeux (SCCJ)")
        TERRITORIAL = "pj", _("Chef du service territorial de police judiciaire")

    class FollowUp(models.TextChoices):
        PENDING = "pending", _("Sans suite enregistrée")
        AMENDMENT_REQUESTED = "requested", _("Modification de l'arrêté d'autorisation demandée")
        AMENDED = "amended", _("Arrêté d'autorisation modifié")
        NOT_NEEDED = "not_needed", _("Aucune modification nécessaire")

    establishment = models.ForeignKey(Establishment, on_delete=models.PROTECT, related_name="declarations")
    register = models.ForeignKey(Register, on_delete=models.PROTECT, related_name="+")
    number = models.PositiveIntegerField(_("n°"))
    operation = models.CharField(_("opération"), max_length=2, choices=Operation.choices)
    details = models.TextField(_("détail"))
    sent_on = models.DateField(_("envoyée le"))
    recipients = models.JSONField(_("destinataires"), default=list)
    proof = models.CharField(_("preuve de l'envoi"), max_length=250)
    implementation_date = models.DateField(_("mise en œuvre le"))
    tournament_until = models.DateField(_("fin du tournoi"), null=True, blank=True)
    declared_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    entry_seq = models.PositiveBigIntegerField(_("entrée"))
    follow_up = models.CharField(_("suite"), max_length=12, choices=FollowUp.choices, default=FollowUp.PENDING)
    follow_up_note = models.TextField(_("précisions sur la suite"), blank=True)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("déclaration préalable")
        verbose_name_plural = _("déclarations préalables")
        ordering = ["-sent_on", "-pk"]
        constraints = [models.UniqueConstraint(fields=["establishment", "number"], name="declaration_number_unique")]

    def __str__(self) -> str:
        return _("Déclaration n° %(n)s") % {"n": self.number}


class CalledBet(models.Model):
    """A complex called bet handed in writing at a table-partie (MC 000 art. 8.3; GAME-20, REG-18):
    authorised only by the direction des jeux's visa, played only with an inspecteur present,
    the SCJ informed as soon as possible."""

    class Status(models.TextChoices):
        HANDED = "handed", _("Remise par écrit")
        AUTHORISED = "authorised", _("Autorisée (visée)")

    table_session = models.ForeignKey(TableSession, on_delete=models.PROTECT, related_name="called_bets")
    register = models.ForeignKey(Register, on_delete=models.PROTECT, related_name="+")
    number = models.PositiveIntegerField(_("n°"))
    content = models.TextField(_("annonce"))
    player = models.CharField(_("joueur"), max_length=200, blank=True)
    inspecteur = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("inspecteur présent")
    )
    written_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    handed_at = models.DateTimeField(_("remise le"))
    entry_seq = models.PositiveBigIntegerField(_("entrée"))
    status = models.CharField(_("statut"), max_length=12, choices=Status.choices, default=Status.HANDED)
    visa_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    visaed_at = models.DateTimeField(_("visée le"), null=True, blank=True)
    # the SCJ's information as recorded by the system (CalledBetScjNotice), copied beside the bet
    scj_informed_at = models.DateTimeField(_("SCJ informé le"), null=True, blank=True)
    scj_channel = models.CharField(_("moyen"), max_length=100, blank=True)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("annonce marquée complexe")
        verbose_name_plural = _("annonces marquées complexes")
        ordering = ["-handed_at", "-pk"]

    def __str__(self) -> str:
        return _("Annonce n° %(n)s") % {"n": self.number}


class CalledBetScjNotice(models.Model):
    """The SCJ told of a complex called bet (GAME-20), at the time the system recorded when the
    notice was given (never typed in, so it cannot be back-dated to clear the flag). One per bet.
    Append-only."""

    bet = models.OneToOneField(CalledBet, on_delete=models.PROTECT, related_name="scj_notice")
    notified_at = models.DateTimeField(_("SCJ informé le"))
    channel = models.CharField(_("moyen"), max_length=100)
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")

    class Meta:
        verbose_name = _("information du SCJ d'une annonce complexe")
        verbose_name_plural = _("informations du SCJ d'annonces complexes")
        ordering = ["-notified_at"]

    def __str__(self) -> str:
        return f"{self.bet} — {self.channel}"


class HouseOption(models.TextChoices):
    """The blackjack house-rule options lawful only when written in the règlement intérieur (GAME-07)."""

    TWO_BOXES = "two_boxes", _("Un joueur seul joue au moins deux cases")
    SURRENDER = "surrender", _("Abandon après les deux premières cartes pour la moitié de la mise")
    LIMIT_BOXES = "limit_boxes", _("Nombre de cases d'un joueur limité lorsque d'autres veulent jouer")
    NO_DRAW_21 = "no_draw_21", _("Tirage interdit sur 21")
    LIMIT_PAIRS = "limit_pairs", _("Paires limitées aux cartes identiques, nombre de séparations limité")
    NO_DOUBLE_SPLIT = "no_double_split", _("Doubler interdit sur paires séparées")
    LL_SEATED = "ll_seated", _("Mises lucky ladies réservées aux joueurs assis")
    NO_SPLIT_AFTER_LL = "no_split_after_ll", _("Séparation interdite après un gain lucky ladies")


class HouseRulesVersion(models.Model):
    """A version of the posted règlement intérieur (REG-19): its date of effect and the options it
    writes (GAME-07), signed by the directeur responsable. Append-only: a change is a new version."""

    establishment = models.ForeignKey(Establishment, on_delete=models.PROTECT, related_name="+")
    version = models.PositiveIntegerField(_("version"))
    effective_from = models.DateField(_("en vigueur le"))
    reference = models.CharField(_("référence du texte affiché"), max_length=250)
    options = models.JSONField(_("options"), default=list)
    signed_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField(_("inscrite le"), auto_now_add=True)
    entry_seq = models.PositiveBigIntegerField(_("entrée"))

    class Meta:
        verbose_name = _("version du règlement intérieur")
        verbose_name_plural = _("versions du règlement intérieur")
        ordering = ["-effective_from", "-version"]
        constraints = [models.UniqueConstraint(fields=["establishment", "version"], name="house_rules_version_unique")]

    def __str__(self) -> str:
        return _("Règlement intérieur, version %(v)s") % {"v": self.version}


class TableOptionChange(models.Model):
    """An option put in force (or withdrawn) at a table, under the règlement version in force then."""

    table = models.ForeignKey(GamingTable, on_delete=models.PROTECT, related_name="+")
    option = models.CharField(_("option"), max_length=20, choices=HouseOption.choices)
    enabled = models.BooleanField(_("en vigueur"))
    rules = models.ForeignKey(HouseRulesVersion, on_delete=models.PROTECT, null=True, related_name="+")
    changed_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    changed_at = models.DateTimeField(_("le"), auto_now_add=True)

    class Meta:
        verbose_name = _("option de table")
        verbose_name_plural = _("options de table")
        ordering = ["table", "option", "-changed_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.table} — {self.get_option_display()}"


class DisplayItem(models.TextChoices):
    """What the texts require to be displayed to the public (REG-23, SET-32) and the devices a slot
    machine in service carries (SLOT-29), each recorded on the checklist of its table or machine."""

    ROUE_RULES = "roue_rules", _("Règles de fonctionnement de la roue de la chance")
    ART_55_20 = "art_55_20", _("Texte des articles 55-20 et 55-20-1 (ultimate hold'em poker)")
    ART_55_21 = "art_55_21", _("Texte des articles 55-21 et 55-21-1 (poker trois cartes)")
    ART_55_22 = "art_55_22", _("Texte des articles 55-22, 55-22-1 et 55-22-2 (rampo)")
    RAKE_RATE = "rake_rate", _("Taux de la retenue (cagnotte)")
    BBJ_INCREMENT = "bbj_increment", _("Conditions et taux de l'incrément du bad beat jackpot")
    SLOT_RULES = "slot_rules", _("Règles du jeu énoncées en français")
    SLOT_STAKE = "slot_stake", _("Valeur unitaire des mises")
    SLOT_PAYOUTS = "slot_payouts", _("Combinaisons gagnantes et montant des paiements")
    SLOT_FRONT_LIGHT = (
        "slot_front_light",
        _("Affichage lumineux sur le front de la machine (jackpot non payé par la machine)"),
    )
    SLOT_LOCK = "slot_lock", _("Blocage électronique après un jackpot à paiement manuel")
    SLOT_TOP_LIGHT = "slot_top_light", _("Voyant lumineux au-dessus de la machine (porte ouverte)")


class RulesDisplay(models.Model):
    """One line of a display checklist (REG-23): an item posted at a table or on a slot machine,
    the date it was posted and who checked it. Append-only: a display put up again is a new line."""

    establishment = models.ForeignKey(Establishment, on_delete=models.PROTECT, related_name="+")
    table = models.ForeignKey(
        GamingTable, on_delete=models.PROTECT, null=True, blank=True, related_name="+", verbose_name=_("table")
    )
    machine = models.ForeignKey(
        "slots.Machine", on_delete=models.PROTECT, null=True, blank=True, related_name="+", verbose_name=_("machine")
    )
    item = models.CharField(_("affichage"), max_length=20, choices=DisplayItem.choices)
    posted_on = models.DateField(_("affiché le"))
    checked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("vérifié par")
    )
    recorded_at = models.DateTimeField(_("inscrit le"), auto_now_add=True)
    entry_seq = models.PositiveBigIntegerField(_("entrée"))

    class Meta:
        verbose_name = _("affichage réglementaire")
        verbose_name_plural = _("affichages réglementaires")
        ordering = ["-recorded_at", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(table__isnull=True) ^ models.Q(machine__isnull=True), name="display_one_subject"
            )
        ]

    def __str__(self) -> str:
        return f"{self.table or self.machine} — {self.get_item_display()}"


class ProgressiveConfig(models.Model):
    """A version of the Split Aces progressive's parameters fixed by the operator (MC GAME-04,
    SET-22): combinations and prizes, stake, percentage of stakes fed into the progressive, the
    tables linked, its date of effect and the approving officer. Append-only."""

    establishment = models.ForeignKey(Establishment, on_delete=models.PROTECT, related_name="+")
    version = models.PositiveIntegerField(_("version"))
    effective_from = models.DateField(_("en vigueur le"))
    combinations = models.TextField(_("combinaisons gagnantes et gains"))
    stake = models.DecimalField(_("montant de la mise"), max_digits=10, decimal_places=2)
    percentage = models.DecimalField(_("pourcentage des enjeux affecté au progressif"), max_digits=5, decimal_places=2)
    tables = models.JSONField(_("tables reliées"), default=list)  # table numbers
    approved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("approuvée par")
    )
    recorded_at = models.DateTimeField(_("inscrite le"), auto_now_add=True)
    entry_seq = models.PositiveBigIntegerField(_("entrée"))

    class Meta:
        verbose_name = _("configuration du progressif Split Aces")
        verbose_name_plural = _("configurations du progressif Split Aces")
        ordering = ["-effective_from", "-version"]
        constraints = [models.UniqueConstraint(fields=["establishment", "version"], name="progressive_version_unique")]

    def __str__(self) -> str:
        return _("Progressif Split Aces, version %(v)s") % {"v": self.version}


class ProgressiveReading(models.Model):
    """The progressive amount read at a séance's opening or closing (GAME-04); at the closing, the
    side-bet stakes of the séance and what they and the payouts leave unexplained (FLAG, BP)."""

    class Moment(models.TextChoices):
        OPENING = "opening", _("Ouverture de la séance")
        CLOSING = "closing", _("Clôture de la séance")

    establishment = models.ForeignKey(Establishment, on_delete=models.PROTECT, related_name="+")
    seance = models.ForeignKey(Seance, on_delete=models.PROTECT, related_name="+", verbose_name=_("séance"))
    moment = models.CharField(_("moment"), max_length=10, choices=Moment.choices)
    amount = models.DecimalField(_("montant du progressif"), max_digits=14, decimal_places=2)
    stakes = models.DecimalField(
        _("mises Split Aces de la séance"), max_digits=14, decimal_places=2, null=True, blank=True
    )
    config = models.ForeignKey(ProgressiveConfig, on_delete=models.PROTECT, related_name="+")
    unexplained = models.DecimalField(
        _("écart inexpliqué"), max_digits=16, decimal_places=2, null=True, blank=True
    )  # stakes and payouts can exceed one amount
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField(_("relevé le"), auto_now_add=True)
    entry_seq = models.PositiveBigIntegerField(_("entrée"))

    class Meta:
        verbose_name = _("relevé du progressif Split Aces")
        verbose_name_plural = _("relevés du progressif Split Aces")
        ordering = ["-recorded_at", "-pk"]
        constraints = [models.UniqueConstraint(fields=["seance", "moment"], name="progressive_reading_unique")]

    def __str__(self) -> str:
        return f"{self.seance} — {self.get_moment_display()}"


class ProgressivePayout(models.Model):
    """A Split Aces jackpot paid: table, time, amount, winner (GAME-04)."""

    establishment = models.ForeignKey(Establishment, on_delete=models.PROTECT, related_name="+")
    seance = models.ForeignKey(Seance, on_delete=models.PROTECT, related_name="+", verbose_name=_("séance"))
    table = models.ForeignKey(GamingTable, on_delete=models.PROTECT, related_name="+", verbose_name=_("table"))
    paid_at = models.DateTimeField(_("payé le"))
    amount = models.DecimalField(_("montant"), max_digits=14, decimal_places=2)
    winner = models.CharField(_("gagnant"), max_length=200)
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    entry_seq = models.PositiveBigIntegerField(_("entrée"))

    class Meta:
        verbose_name = _("paiement du jackpot Split Aces")
        verbose_name_plural = _("paiements du jackpot Split Aces")
        ordering = ["-paid_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.table} — {self.amount} €"


class ApprovedBanker(models.Model):
    """A banker approved by the Direction for banque à tout va (MC GAME-31): identity, approval
    date and the approving officer; a withdrawal ends the approval (same row, its own entry)."""

    establishment = models.ForeignKey(Establishment, on_delete=models.PROTECT, related_name="+")
    number = models.PositiveIntegerField(_("n°"))
    full_name = models.CharField(_("nom et prénoms"), max_length=200)
    birth_date = models.DateField(_("date de naissance"))
    identity_document = models.CharField(_("pièce d'identité"), max_length=200)
    approved_on = models.DateField(_("agréé le"))
    approved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("agréé par")
    )
    entry_seq = models.PositiveBigIntegerField(_("entrée"))
    withdrawn_on = models.DateField(_("agrément retiré le"), null=True, blank=True)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("banquier agréé")
        verbose_name_plural = _("banquiers agréés")
        ordering = ["full_name", "pk"]
        constraints = [models.UniqueConstraint(fields=["establishment", "number"], name="banker_number_unique")]

    def __str__(self) -> str:
        return f"{self.full_name} (n° {self.number})"

    def approved(self, on: datetime.date) -> bool:
        return self.approved_on <= on and (self.withdrawn_on is None or on < self.withdrawn_on)


class Arrete(models.Model):
    """An arrêté d'autorisation of the establishment's games (003 art. 4, 5, 7; AUTH-03): the total
    number of tables the Minister authorises and, per game, its tables and the minimum stake it
    fixes (AUTH-04). An amendment is a new arrêté (AUTH-02), which may name the prior declaration
    it follows up. Append-only."""

    establishment = models.ForeignKey(Establishment, on_delete=models.PROTECT, related_name="+")
    register = models.ForeignKey(Register, on_delete=models.PROTECT, related_name="+")
    number = models.PositiveIntegerField(_("n°"))
    reference = models.CharField(_("référence de l'arrêté"), max_length=250)
    signed_on = models.DateField(_("signé le"))
    effective_from = models.DateField(_("en vigueur le"))
    total_tables = models.PositiveIntegerField(_("nombre total de tables autorisées"))
    follows = models.ForeignKey(
        Declaration,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("déclaration préalable suivie"),
    )
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField(_("inscrit le"), auto_now_add=True)
    entry_seq = models.PositiveBigIntegerField(_("entrée"))

    class Meta:
        verbose_name = _("arrêté d'autorisation")
        verbose_name_plural = _("arrêtés d'autorisation")
        ordering = ["-effective_from", "-number"]
        constraints = [models.UniqueConstraint(fields=["establishment", "number"], name="arrete_number_unique")]

    def __str__(self) -> str:
        return _("Arrêté n° %(n)s (%(reference)s)") % {"n": self.number, "reference": self.reference}


class ArreteGame(models.Model):
    """What an arrêté authorises for one game: its number of tables and the minimum stake it fixes
    (none when it fixes none). Append-only, with its arrêté."""

    arrete = models.ForeignKey(Arrete, on_delete=models.PROTECT, related_name="games")
    game = models.CharField(_("jeu"), max_length=40, choices=GAME_CHOICES)
    tables = models.PositiveIntegerField(_("tables autorisées"))
    minimum_stake = models.DecimalField(_("mise minimale"), max_digits=10, decimal_places=2, null=True, blank=True)

    class Meta:
        verbose_name = _("jeu autorisé")
        verbose_name_plural = _("jeux autorisés")
        ordering = ["arrete", "game"]
        constraints = [models.UniqueConstraint(fields=["arrete", "game"], name="arrete_game_unique")]

    def __str__(self) -> str:
        return f"{self.get_game_display()} : {self.tables}"


class TableAuthorisation(models.Model):
    """What allowed a FR table's set-up act (added, game changed, put in or out of service): the
    arrêté in force and, where it was needed, the prior declaration (AUTH-01: 2° or 3° for a game
    the arrêté does not name, 6° for more tables of a game, 7° for a tournament's poker table). The
    table's latest line says what it is now: a tournament table opens only within its declared
    dates. Append-only."""

    table = models.ForeignKey(GamingTable, on_delete=models.PROTECT, related_name="+")
    arrete = models.ForeignKey(Arrete, on_delete=models.PROTECT, related_name="+")
    declaration = models.ForeignKey(Declaration, on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    recorded_at = models.DateTimeField(_("inscrit le"), auto_now_add=True)
    entry_seq = models.PositiveBigIntegerField(_("entrée"))

    class Meta:
        verbose_name = _("autorisation d'une table")
        verbose_name_plural = _("autorisations des tables")
        ordering = ["table", "-pk"]

    def __str__(self) -> str:
        return f"{self.table} — {self.arrete}"
