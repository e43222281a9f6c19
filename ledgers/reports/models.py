from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from ledgers.core.models import Establishment, Seance
from ledgers.registers.models import Register


def report_upload_to(job: "ReportJob", filename: str) -> str:
    return f"reports/{job.establishment.code}/{filename}"


class ReportJob(models.Model):
    """A document produced in the background (printed register, daily séance report): what was
    asked, by whom, how far it is, and the file. Progress is written by the worker as it goes
    (operational state, outside the ledgers)."""

    class Kind(models.TextChoices):
        REGISTER = "register", _("Registre imprimé")
        DAILY = "daily", _("Rapport de séance")

    class Status(models.TextChoices):
        QUEUED = "queued", _("En attente")
        RUNNING = "running", _("En cours")
        DONE = "done", _("Terminé")
        FAILED = "failed", _("Échec")

    class Notice(models.TextChoices):
        BROKER_DOWN = (
            "broker_down",
            _(
                "Le service d'impression est injoignable : la demande est enregistrée et "
                "partira automatiquement dès son retour."
            ),
        )
        RESENT = "resent", _("Le service d'impression s'est interrompu pendant ce travail : il a été relancé.")

    kind = models.CharField(_("nature"), max_length=20, choices=Kind.choices)
    establishment = models.ForeignKey(Establishment, on_delete=models.PROTECT, related_name="report_jobs")
    register = models.ForeignKey(
        Register,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="report_jobs",
        verbose_name=_("registre"),
    )
    seance = models.ForeignKey(
        Seance,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="report_jobs",
        verbose_name=_("séance"),
    )
    parameters = models.JSONField(_("paramètres"), default=dict)  # {"lang": "fr", "sealed": false}
    # The state the document shows (e.g. register number, head seq and hash, language, seal): a
    # request for a state already printed reuses that file.
    fingerprint = models.CharField(_("empreinte de l'état"), max_length=64, db_index=True)
    status = models.CharField(_("statut"), max_length=10, choices=Status.choices, default=Status.QUEUED)
    progress = models.PositiveSmallIntegerField(_("avancement"), default=0)
    file = models.FileField(_("fichier"), upload_to=report_upload_to, max_length=300, blank=True)
    error = models.TextField(_("erreur"), blank=True)
    # What the user is told while the job waits.
    notice = models.CharField(_("avis"), max_length=20, choices=Notice.choices, blank=True)
    attempts = models.PositiveSmallIntegerField(_("envois"), default=0)  # messages handed to the broker
    sent_at = models.DateTimeField(_("envoyé le"), null=True, blank=True)
    # Written by the worker as it renders: a running job whose heartbeat stops has lost its worker.
    heartbeat_at = models.DateTimeField(_("dernier signe de vie"), null=True, blank=True)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="report_jobs",
        verbose_name=_("demandé par"),
    )
    created_at = models.DateTimeField(_("demandé le"), auto_now_add=True)
    started_at = models.DateTimeField(_("commencé le"), null=True, blank=True)
    finished_at = models.DateTimeField(_("terminé le"), null=True, blank=True)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("rapport")
        verbose_name_plural = _("rapports")
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["requested_by", "-created_at"])]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} n° {self.pk}"

    @property
    def is_active(self) -> bool:
        return self.status in (self.Status.QUEUED, self.Status.RUNNING)
