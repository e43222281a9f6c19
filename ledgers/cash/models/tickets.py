"""Ticket books, their date stamps, the card-table numbers and the levy machines."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from ledgers.core.models import Establishment, GamingTable
from ledgers.core.readable import number

from .floats import MONEY


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
        return f"{self.cover_number} ({number(self.ticket_value)} €)"


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
