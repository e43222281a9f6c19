"""Notices sent by e-mail to the people holding a role, their acknowledgement, and the outbox
that keeps every mail until the mail server has taken it."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from ledgers.core.models import Establishment
from ledgers.core.roles import Role
from ledgers.registers.models import Register


class NoticeKind(models.TextChoices):
    INCIDENT = "incident", _("Incident à signaler")
    KEY_OVERDUE = "key_overdue", _("Clé non restituée")
    DESTRUCTION = "destruction", _("Avis de destruction")
    DECLARATION = "declaration", _("Déclaration préalable")


class Subscription(models.Model):
    """The holders of ``role`` here receive the notices of ``kind`` at escalation ``level`` (0: at
    once; 1: when level 0 has not acknowledged in time; …)."""

    establishment = models.ForeignKey(Establishment, on_delete=models.PROTECT, related_name="subscriptions")
    role = models.CharField(_("rôle"), max_length=30, choices=Role.choices)
    kind = models.CharField(_("nature"), max_length=20, choices=NoticeKind.choices)
    level = models.PositiveSmallIntegerField(_("niveau"), default=0)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("abonnement")
        verbose_name_plural = _("abonnements")
        constraints = [
            models.UniqueConstraint(fields=["establishment", "role", "kind", "level"], name="subscription_unique")
        ]

    def __str__(self) -> str:
        return f"{self.get_role_display()} — {self.get_kind_display()} ({self.level})"


class Notice(models.Model):
    """One notification, recorded in ``register`` (the register concerned) when it is sent."""

    establishment = models.ForeignKey(Establishment, on_delete=models.PROTECT, related_name="notices")
    kind = models.CharField(_("nature"), max_length=20, choices=NoticeKind.choices)
    register = models.ForeignKey(Register, on_delete=models.PROTECT, related_name="+")
    subject = models.CharField(_("objet"), max_length=200)
    body = models.TextField(_("message"))
    # What it is about, for the app that sent it (an incident, a key…): "app.model:pk".
    about = models.CharField(_("objet concerné"), max_length=100, blank=True)
    created_at = models.DateTimeField(_("envoyée le"))
    # Empty for a notice the system sent by itself (an overdue key found by the periodic task).
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    level = models.PositiveSmallIntegerField(_("niveau"), default=0)
    acknowledge_by = models.DateTimeField(_("à accuser avant le"))
    acknowledged_at = models.DateTimeField(_("reçue le"), null=True, blank=True)
    acknowledged_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("notification")
        verbose_name_plural = _("notifications")
        ordering = ["-created_at"]
        indexes = [
            models.Index(fields=["acknowledge_by"], condition=models.Q(acknowledged_at=None), name="notice_pending_idx")
        ]

    def __str__(self) -> str:
        return self.subject


class Mail(models.Model):
    """The outbox: one row per mail to one recipient, kept until the mail server accepts it."""

    class Status(models.TextChoices):
        PENDING = "pending", _("À envoyer")
        SENT = "sent", _("Envoyé")

    notice = models.ForeignKey(Notice, on_delete=models.PROTECT, related_name="mails")
    recipient = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    role = models.CharField(_("rôle"), max_length=30, choices=Role.choices)
    address = models.EmailField(_("adresse"))
    level = models.PositiveSmallIntegerField(_("niveau"), default=0)
    status = models.CharField(_("statut"), max_length=10, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveIntegerField(_("tentatives"), default=0)
    next_attempt_at = models.DateTimeField(_("prochaine tentative"))
    last_error = models.TextField(_("dernière erreur"), blank=True)
    sent_at = models.DateTimeField(_("envoyé le"), null=True, blank=True)

    class Meta:
        verbose_name = _("courriel")
        verbose_name_plural = _("courriels")
        indexes = [
            models.Index(fields=["next_attempt_at"], condition=models.Q(status="pending"), name="mail_pending_idx")
        ]

    def __str__(self) -> str:
        return f"{self.address} — {self.notice}"
