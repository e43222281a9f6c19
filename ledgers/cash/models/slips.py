"""Cash slips (bons de caisse), their books and the SFE advances."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from ledgers.core.models import Establishment, Location, TableSession

from .floats import MONEY


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
