"""Chip and plaque series and their censuses (modèle 16)."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from ledgers.core.models import Establishment

from .floats import MONEY


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
