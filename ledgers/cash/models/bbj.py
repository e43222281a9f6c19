"""Bad beat jackpot: its tables, conditions, stops, wins, counts and per-partie log."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from ledgers.core.models import GamingTable, TableSession
from ledgers.incidents.models import IncidentNotice

from .floats import MONEY
from .orphans import Orphan


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


class BadBeatOpening(models.Model):
    """FR: the amount a bad beat jackpot already running displayed when the house took it over
    from its paper registre du bad beat jackpot (the balance of its cagnotte): the COUNT-24 check of
    its first count here continues from it. Append-only."""

    jackpot = models.OneToOneField(BadBeatTable, on_delete=models.PROTECT, related_name="opening")
    displayed = models.DecimalField(_("montant affiché à la reprise"), **MONEY)
    source = models.CharField(_("registre papier et page"), max_length=300)
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField(_("inscrit le"))

    class Meta:
        verbose_name = _("reprise du bad beat jackpot")
        verbose_name_plural = _("reprises du bad beat jackpot")

    def __str__(self) -> str:
        return f"{self.jackpot} — {self.displayed} €"


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


class BadBeatStopNotice(models.Model):
    """The Minister of the Interior told of the coming final stop of a BBJ (art. 56-3-2, COUNT-47),
    at the time the system recorded when the notice was given (never typed in, so it cannot be
    back-dated): the final stop comes within the SET-42 window after it ("dans les quarante-huit
    heures qui précèdent son arrêt", AMB-50); told again once that window has passed. Append-only."""

    jackpot = models.ForeignKey(BadBeatTable, on_delete=models.PROTECT, related_name="final_stop_notices")
    notified_at = models.DateTimeField(_("ministre de l'intérieur informé le"))
    channel = models.CharField(_("moyen"), max_length=20, choices=IncidentNotice.Channel.choices)
    reference = models.CharField(_("référence de l'information du ministre"), max_length=120)
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")

    class Meta:
        ordering = ["-notified_at", "-pk"]
        verbose_name = _("information du ministre de l'arrêt définitif")
        verbose_name_plural = _("informations du ministre de l'arrêt définitif")

    def __str__(self) -> str:
        return f"{self.jackpot} — {self.reference}"


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
