"""An opening inventory: what the house already holds in one domain, copied from its paper
registers, reviewed and signed by the directorate, visaed by the authority where the texts give it
that role, then posted: each object enters in its real state, citing its paper register and page."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from ledgers.core.models import Establishment


class Inventory(models.Model):
    class Status(models.TextChoices):
        DRAFT = "draft", _("À signer")
        SIGNED = "signed", _("Signé par la direction")
        VISAED = "visaed", _("Visé par l'autorité")
        POSTED = "posted", _("Reporté aux registres")

    establishment = models.ForeignKey(Establishment, on_delete=models.PROTECT, related_name="+")
    domain = models.CharField(_("domaine"), max_length=20)
    paper_register = models.CharField(_("registre papier repris"), max_length=200)
    # One dict per line, as checked: the fields of the domain and "page", the page of the paper register.
    rows = models.JSONField(_("lignes"))
    status = models.CharField(_("statut"), max_length=10, choices=Status.choices, default=Status.DRAFT)
    prepared_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    prepared_at = models.DateTimeField(_("établi le"))
    signed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    signed_role = models.CharField(_("signé en qualité de"), max_length=30, blank=True)
    signed_at = models.DateTimeField(_("signé le"), null=True, blank=True)
    visa_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    visa_role = models.CharField(_("visé en qualité de"), max_length=30, blank=True)
    visa_at = models.DateTimeField(_("visé le"), null=True, blank=True)
    visa_statement = models.CharField(_("mention du visa"), max_length=300, blank=True)
    posted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    posted_at = models.DateTimeField(_("reporté le"), null=True, blank=True)
    # The primary keys of the objects the posting created (the domain's own model).
    objects_created = models.JSONField(_("objets repris"), default=list, blank=True)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("inventaire de reprise")
        verbose_name_plural = _("inventaires de reprise")
        ordering = ["-prepared_at"]
        indexes = [models.Index(fields=["establishment", "domain", "status"])]

    def __str__(self) -> str:
        return f"{_('Inventaire de reprise')} n° {self.pk} — {self.paper_register}"
