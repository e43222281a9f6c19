"""Who staffs each table-partie (with reliefs) and the seats and stakes fixed for it."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy
from simple_history.models import HistoricalRecords

from ledgers.core.models import TableSession, choice_label

from .rules import Position


class StaffAssignment(models.Model):
    """One person at one position of a table-partie from ``started_at`` to ``ended_at`` (open while
    on duty). A relief ends one assignment and starts the next, which points to it."""

    table_session = models.ForeignKey(
        TableSession, on_delete=models.PROTECT, related_name="staff", verbose_name=_("partie de table")
    )
    position = models.CharField(pgettext_lazy("staff position", "poste"), max_length=20, choices=Position.choices)
    person = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="table_duties", verbose_name=_("personne")
    )
    started_at = models.DateTimeField(_("début"))
    ended_at = models.DateTimeField(_("fin"), null=True, blank=True)
    relief_of = models.OneToOneField(
        "self", on_delete=models.PROTECT, null=True, blank=True, related_name="relieved_by", verbose_name=_("relève de")
    )
    at_break = models.BooleanField(_("en fin de paquet ou entre deux coups"), default=True)
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    flags = models.JSONField(_("signalements"), default=list, blank=True)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("affectation à une table")
        verbose_name_plural = _("affectations aux tables")
        ordering = ["table_session", "started_at", "pk"]

    def __str__(self) -> str:
        return f"{self.get_position_display()} — {self.person.get_full_name() or self.person}"

    def get_position_display(self) -> str:
        return choice_label(Position, self.position)


class TableLimits(models.Model):
    """Seats and stakes fixed for a table-partie (append-only): at opening, then every change
    during play as a new row. The latest row is in force."""

    table_session = models.ForeignKey(
        TableSession, on_delete=models.PROTECT, related_name="limits", verbose_name=_("partie de table")
    )
    seats = models.PositiveSmallIntegerField(_("places"))
    players = models.PositiveSmallIntegerField(_("joueurs assis à l'ouverture"), null=True, blank=True)
    minimum_stake = models.DecimalField(_("mise minimale"), max_digits=12, decimal_places=2)
    maximum_stake = models.DecimalField(_("mise maximale"), max_digits=12, decimal_places=2, null=True, blank=True)
    bet_maximums = models.JSONField(_("maximums par chance"), default=dict, blank=True)
    pay_table = models.CharField(_("table de paiement"), max_length=1, blank=True)
    # Boule: the Administration's agreement (GAME-25); chemin de fer: the garage notification (GAME-28).
    agreement_reference = models.CharField(_("référence de l'accord de l'Administration"), max_length=200, blank=True)
    display_updated = models.BooleanField(_("affichage de la table mis à jour"), default=False)
    during_play = models.BooleanField(_("changement en cours de partie"), default=False)
    set_at = models.DateTimeField(_("fixées le"))
    set_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("fixées par")
    )

    class Meta:
        verbose_name = _("limites de mise")
        verbose_name_plural = _("limites de mise")
        ordering = ["table_session", "set_at", "pk"]

    def __str__(self) -> str:
        return f"{self.table_session} : {self.minimum_stake} – {self.maximum_stake or '—'}"


class ClosingExtension(models.Model):
    """MC chemin de fer going on past the closing time (GAME-29): the Direction des Jeux's
    decision for a table-partie, with the new end time. Append-only."""

    table_session = models.ForeignKey(
        TableSession, on_delete=models.PROTECT, related_name="extensions", verbose_name=_("partie de table")
    )
    new_end = models.DateTimeField(_("nouvelle heure de fin"))
    reason = models.CharField(_("joueurs présents et activité"), max_length=300)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("décidée par")
    )
    decided_at = models.DateTimeField(_("décidée le"), auto_now_add=True)

    class Meta:
        verbose_name = _("prolongation de partie")
        verbose_name_plural = _("prolongations de partie")
        ordering = ["table_session", "-new_end", "-pk"]

    def __str__(self) -> str:
        return f"{self.table_session} → {self.new_end:%H:%M}"


class PartieBanker(models.Model):
    """The banker of a banque à tout va table-partie (MC GAME-31), from the register of approved
    bankers. Append-only: a change of banker is a new row."""

    table_session = models.ForeignKey(
        TableSession, on_delete=models.PROTECT, related_name="bankers", verbose_name=_("partie de table")
    )
    banker = models.ForeignKey(
        "authority.ApprovedBanker", on_delete=models.PROTECT, related_name="+", verbose_name=_("banquier")
    )
    named_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    named_at = models.DateTimeField(_("désigné le"), auto_now_add=True)

    class Meta:
        verbose_name = _("banquier de la partie")
        verbose_name_plural = _("banquiers des parties")
        ordering = ["table_session", "named_at", "pk"]

    def __str__(self) -> str:
        return f"{self.table_session} — {self.banker}"
