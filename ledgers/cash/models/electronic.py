"""FR electronic games: devices, station results, device days and meter statements."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from ledgers.core.models import Establishment
from ledgers.core.statements import CertifiedMonthlyStatement

from .floats import MONEY


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
