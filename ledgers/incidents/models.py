from django.conf import settings
from django.contrib.contenttypes.fields import GenericForeignKey
from django.contrib.contenttypes.models import ContentType
from django.db import models
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from ledgers.core.models import Establishment, Location, TableSession
from ledgers.core.roles import Role


class Incident(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", _("Ouvert")
        CLOSED = "closed", _("Clos")

    establishment = models.ForeignKey(Establishment, on_delete=models.PROTECT, related_name="incidents")
    category = models.CharField(_("catégorie"), max_length=40)
    requirement = models.CharField(_("exigence"), max_length=12)
    status = models.CharField(_("statut"), max_length=10, choices=Status.choices, default=Status.OPEN)
    found_at = models.DateTimeField(_("constaté le"))
    found_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    description = models.TextField(_("description"))
    circumstances = models.TextField(_("circonstances"), blank=True)
    table_session = models.ForeignKey(
        TableSession,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="incidents",
        verbose_name=_("partie de table"),
    )
    location = models.ForeignKey(
        Location,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="incidents",
        verbose_name=_("emplacement"),
    )
    decision = models.TextField(_("décision"), blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    decided_at = models.DateTimeField(_("décidé le"), null=True, blank=True)
    closed_at = models.DateTimeField(_("clos le"), null=True, blank=True)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("incident")
        verbose_name_plural = _("incidents")
        ordering = ["-found_at"]
        indexes = [models.Index(fields=["establishment", "status"])]

    def __str__(self) -> str:
        return f"{_('Incident')} n° {self.pk}"


class IncidentSubject(models.Model):
    """A regulated object an incident concerns (a card unit, a die, a shoe…). While the incident
    is open the object is quarantined by its domain's rules."""

    incident = models.ForeignKey(Incident, on_delete=models.PROTECT, related_name="subjects")
    content_type = models.ForeignKey(ContentType, on_delete=models.PROTECT)
    object_id = models.PositiveBigIntegerField()
    label = models.CharField(_("objet"), max_length=200)
    subject = GenericForeignKey("content_type", "object_id")

    class Meta:
        verbose_name = _("objet concerné")
        verbose_name_plural = _("objets concernés")
        indexes = [models.Index(fields=["content_type", "object_id"])]

    def __str__(self) -> str:
        return self.label


class IncidentNotice(models.Model):
    """The information of a person or authority: who, when, how (INC-01, INC-02, INC-13)."""

    class Channel(models.TextChoices):
        IN_PERSON = "in_person", _("En personne")
        PHONE = "phone", _("Téléphone")
        EMAIL = "email", _("Courriel")
        WRITTEN = "written", _("Rapport écrit")

    incident = models.ForeignKey(Incident, on_delete=models.PROTECT, related_name="notices")
    recipient_role = models.CharField(_("destinataire"), max_length=30, choices=Role.choices)
    recipient_name = models.CharField(_("nom du destinataire"), max_length=200)
    notified_at = models.DateTimeField(_("informé le"))
    channel = models.CharField(_("moyen"), max_length=12, choices=Channel.choices)
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")

    class Meta:
        verbose_name = _("information")
        verbose_name_plural = _("informations")
        ordering = ["notified_at"]

    def __str__(self) -> str:
        return f"{self.get_recipient_role_display()} — {self.notified_at:%d/%m/%Y %H:%M}"
