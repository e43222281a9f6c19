"""Sending notices to the holders of a role, escalating those not acknowledged in time, and the
outbox's delivery through Django's mail framework.

A notice is an entry of the register concerned, written in the caller's transaction with who is
notified and when; its mails are sent by Celery tasks once that transaction has committed, retried
with backoff while the mail server refuses them (the outbox row stays ``pending`` until it is
taken, and the beat's ``mails_flush`` resends whatever a lost task left behind). The recipient's
acknowledgement and each escalation are entries of the same register, whatever the notice. A
notice no person sent (a periodic task's) and every escalation are signed by the system's marker
(``registers.models.SYSTEM_ACTOR``).
"""

import datetime
import logging
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import PermissionDenied
from django.core.mail import EmailMessage
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ledgers.core.authz import save_audited
from ledgers.core.errors import impossible
from ledgers.core.models import Establishment
from ledgers.core.roles import Role
from ledgers.registers.chain import format_timestamp
from ledgers.registers.models import Register
from ledgers.registers.selectors import current_register
from ledgers.registers.services import display_name, notification_entry_append, register_language

from .models import Mail, Notice, Subscription

logger = logging.getLogger(__name__)

# Apps that want to know of an acknowledgement (an incident records the authority as informed).
ACKNOWLEDGED: dict[str, Callable[[Notice, AbstractBaseUser, str], None]] = {}


def on_acknowledged(kind: str, callback: Callable[[Notice, AbstractBaseUser, str], None]) -> None:
    ACKNOWLEDGED[kind] = callback


def _roles_at(establishment: Establishment, kind: str, level: int) -> list[str]:
    return list(
        Subscription.objects.filter(establishment=establishment, kind=kind, level=level).values_list("role", flat=True)
    )


def _recipients(
    establishment: Establishment, roles: Iterable[str], people: Iterable[tuple[AbstractBaseUser, str]] = ()
) -> list[tuple[AbstractBaseUser, str]]:
    """``people`` (named persons, with the role they are told in) then the active holders of
    ``roles`` here, those who have an address, each once, with the role."""
    named = [(user, str(role)) for user, role in people if user.is_active and user.email]
    roles = set(roles)
    users = (
        get_user_model()
        .objects.filter(is_active=True, memberships__establishment=establishment, memberships__role__in=roles)
        .exclude(email="")
        .distinct()
        .order_by("pk")
        .prefetch_related("memberships")
    )
    seen = {user.pk for user, _role in named}
    return named + [
        (
            user,
            next(m.role for m in user.memberships.all() if m.establishment_id == establishment.pk and m.role in roles),
        )
        for user in users
        if user.pk not in seen
    ]


def _queue_mails(notice: Notice, recipients: list[tuple[AbstractBaseUser, str]], level: int) -> list[Mail]:
    """One outbox row per recipient, each handed to a Celery task once the transaction commits."""
    from .tasks import mail_deliver_task

    now = timezone.now()
    mails = Mail.objects.bulk_create(
        Mail(notice=notice, recipient=user, role=role, address=user.email, level=level, next_attempt_at=now)
        for user, role in recipients
    )
    for mail in mails:
        transaction.on_commit(lambda pk=mail.pk: mail_deliver_task.delay(pk))
    return mails


def _recipients_text(mails: Iterable[Mail]) -> list[str]:
    return [f"{display_name(mail.recipient)} ({mail.get_role_display()}) <{mail.address}>" for mail in mails]


def _register_of(notice: Notice) -> Register:
    """The volume a notice's later lines go to: its own, or the one in service of the same kind
    once it is closed."""
    register = notice.register
    if register.status == Register.Status.CLOSED:
        return current_register(notice.establishment, register.kind, register.qualifier)
    return register


def _notice_line(notice: Notice, event, **fields: Any) -> dict[str, Any]:
    return {"event": str(event), "notice": notice.pk, "subject": notice.subject, "text": notice.subject, **fields}


@transaction.atomic
def notice_send(
    *,
    establishment: Establishment,
    kind: str,
    register: Register | Callable[[], Register],
    subject: str,
    body: str,
    actor: AbstractBaseUser | None,
    role: str = "",
    roles: Iterable[str] = (),
    people: Iterable[tuple[AbstractBaseUser, str]] = (),
    about: str = "",
    columns: Mapping[str, Any] | None = None,
) -> Notice | None:
    """Notify ``people`` (persons named, with their role), the roles the texts name (``roles``)
    and those subscribed to ``kind`` at level 0; recorded in ``register`` by ``actor`` acting as
    ``role`` (no actor: the system), in the caller's transaction, with ``columns`` (the register
    kind's own columns, e.g. the key and its holder). None when nobody to notify has an e-mail
    address (nothing was sent). ``register`` may be given as a callable, looked up only when
    there is someone to notify."""
    asked, people = set(roles) | set(_roles_at(establishment, kind, 0)), list(people)
    recipients = _recipients(establishment, asked, people)
    if not recipients:
        if asked or people:  # someone was to be told and cannot be: the casino's IT must know
            logger.warning("notice %r: no recipient with an e-mail address", subject)
        return None
    if callable(register):
        register = register()
    now = timezone.now()
    notice = Notice.objects.create(
        establishment=establishment,
        kind=kind,
        register=register,
        subject=subject[:200],
        body=body,
        about=about,
        created_at=now,
        created_by=actor,
        acknowledge_by=now + datetime.timedelta(minutes=settings.NOTIFICATIONS_ACKNOWLEDGE_MINUTES),
    )
    mails = _queue_mails(notice, recipients, 0)
    with register_language():
        notification_entry_append(
            register=register,
            actor=actor,
            role=role,
            payload=_notice_line(
                notice,
                _("Notification"),
                **(columns or {}),
                recipients=_recipients_text(mails),
                notified_at=format_timestamp(now),
            ),
        )
    return notice


@transaction.atomic
def notice_acknowledge(*, notice: Notice, actor: AbstractBaseUser) -> Notice:
    """The recipient confirms they have read the notice: recorded in the register concerned, by
    them in the role they were told in, whatever the notice. The app told of the acknowledgement
    (``on_acknowledged``) acts first, so that the line names what it changed (``written``)."""
    notice = Notice.objects.select_for_update().get(pk=notice.pk)
    mail = notice.mails.filter(recipient=actor).order_by("level").first()
    if mail is None:
        raise PermissionDenied(_("Cette notification ne vous est pas adressée."))
    if notice.acknowledged_at is not None:
        raise impossible(_("Cette notification a déjà été accusée."))
    if callback := ACKNOWLEDGED.get(notice.kind):
        callback(notice, actor, mail.role)
    notice.acknowledged_at, notice.acknowledged_by = timezone.now(), actor
    save_audited(notice, actor=actor, reason="accusé de réception")
    with register_language():
        notification_entry_append(
            register=_register_of(notice),
            actor=actor,
            role=mail.role,
            payload=_notice_line(
                notice,
                _("Accusé de réception"),
                acknowledged_by=f"{display_name(actor)} ({Role(mail.role).label})",
                acknowledged_at=format_timestamp(notice.acknowledged_at),
            ),
        )
    return notice


@transaction.atomic
def notices_escalate(*, now: datetime.datetime | None = None) -> int:
    """Notices not acknowledged in time go to the next level's subscribers, each escalation a line
    of the register concerned signed by the system (to whom, when); the count escalated."""
    now = now or timezone.now()
    escalated = 0
    overdue = Notice.objects.select_for_update(skip_locked=True, of=("self",)).filter(
        acknowledged_at=None, acknowledge_by__lte=now
    )
    for notice in overdue.select_related("register", "establishment"):
        recipients = _recipients(notice.establishment, _roles_at(notice.establishment, notice.kind, notice.level + 1))
        if not recipients:
            continue
        notice.level += 1
        notice.acknowledge_by = now + datetime.timedelta(minutes=settings.NOTIFICATIONS_ACKNOWLEDGE_MINUTES)
        save_audited(notice, actor=None, reason="relance")
        mails = _queue_mails(notice, recipients, notice.level)
        with register_language():
            notification_entry_append(
                register=_register_of(notice),
                actor=None,
                payload=_notice_line(
                    notice,
                    _("Relance, faute d'accusé de réception"),
                    level=notice.level,
                    recipients=_recipients_text(mails),
                    escalated_at=format_timestamp(now),
                ),
            )
        escalated += 1
    return escalated


def mail_deliver(*, mail_id: int) -> bool:
    """Hand one outbox mail to the mail server. True when sent (or sent before); on failure the
    row records the error and its next attempt (exponential backoff) and the error is raised."""
    with transaction.atomic():
        mail = Mail.objects.select_for_update(skip_locked=True).select_related("notice").filter(pk=mail_id).first()
        if mail is None or mail.status == Mail.Status.SENT:
            return mail is not None
        notice = mail.notice
        message = EmailMessage(
            subject=f"{settings.EMAIL_SUBJECT_PREFIX}{notice.subject}",
            body=f"{notice.body}\n\n{settings.NOTIFICATIONS_SITE_URL}/notifications/{notice.pk}/",
            to=[mail.address],
            headers={"X-Ledgers-Notice": str(notice.pk)},
        )
        mail.attempts += 1
        try:
            message.send()
        except Exception as exc:  # whatever the backend raises: the mail stays in the outbox
            delay = min(settings.NOTIFICATIONS_RETRY_SECONDS * 2 ** (mail.attempts - 1), 3600)
            mail.last_error = f"{type(exc).__name__}: {exc}"[:2000]
            mail.next_attempt_at = timezone.now() + datetime.timedelta(seconds=delay)
            mail.save(update_fields=["attempts", "last_error", "next_attempt_at"])
            failure = exc
        else:
            mail.status, mail.sent_at, mail.last_error = Mail.Status.SENT, timezone.now(), ""
            mail.save(update_fields=["attempts", "status", "sent_at", "last_error"])
            return True
    raise failure


def mails_flush(*, now: datetime.datetime | None = None) -> int:
    """Send the outbox mails whose next attempt has come (a lost task, a retry due); the number
    sent. A mail the server still refuses keeps its row, error and next attempt."""
    due = Mail.objects.filter(status=Mail.Status.PENDING, next_attempt_at__lte=now or timezone.now())
    sent = 0
    for mail_id in due.order_by("next_attempt_at").values_list("pk", flat=True):
        try:
            sent += mail_deliver(mail_id=mail_id)
        except Exception:  # recorded on the row by mail_deliver
            logger.warning("mail %s not delivered yet", mail_id, exc_info=True)
    return sent
