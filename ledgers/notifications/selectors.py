import email
import email.policy
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Count, F, Q, QuerySet
from django.shortcuts import get_object_or_404

from ledgers.core.authz import roles_of
from ledgers.core.models import Establishment

from .models import Mail, Notice, Subscription


def notices_for(user: AbstractBaseUser) -> QuerySet[Notice]:
    """The notices mailed to ``user``, the ones awaiting their acknowledgement first."""
    return (
        Notice.objects.filter(mails__recipient=user)
        .distinct()
        .select_related("establishment", "register", "acknowledged_by")
        .order_by(F("acknowledged_at").desc(nulls_first=True), "-created_at")
    )


@dataclass(frozen=True)
class NoticesMenu:
    pending: int  # notices mailed to the user and not acknowledged yet


def notices_menu(user: AbstractBaseUser, establishment: Establishment | None) -> NoticesMenu | None:
    """The menu's entry for ``user``: shown to whoever has been mailed a notice, or holds a role
    subscribed to notices here; None for the others. One query, two for a subscriber never mailed."""
    mailed = Mail.objects.filter(recipient=user).aggregate(
        notices=Count("notice", distinct=True),
        pending=Count("notice", distinct=True, filter=Q(notice__acknowledged_at=None)),
    )
    if mailed["notices"]:
        return NoticesMenu(pending=mailed["pending"])
    if (
        establishment
        and Subscription.objects.filter(establishment=establishment, role__in=roles_of(user, establishment)).exists()
    ):
        return NoticesMenu(pending=0)
    return None


def notice_for(user: AbstractBaseUser, pk: int) -> Notice:
    return get_object_or_404(notices_for(user), pk=pk)


def demo_mail_files(limit: int = 30) -> list[tuple[str, str]]:
    """With the demo's file backend, the last mails written to its folder (name, content)."""
    if settings.EMAIL_BACKEND != "django.core.mail.backends.filebased.EmailBackend":
        return []
    folder = Path(settings.EMAIL_FILE_PATH)
    files = (
        sorted(folder.glob("*.log"), key=lambda f: f.stat().st_mtime, reverse=True)[:limit] if folder.is_dir() else []
    )
    return [(_mail_summary(f), f.read_text(errors="replace")) for f in files]


def _mail_summary(path: Path) -> str:
    """A mail file as a reader names it: its subject and recipients (the file name is a timestamp)."""
    message = email.message_from_string(path.read_text(errors="replace"), policy=email.policy.default)
    subject, to = message.get("Subject") or "", message.get("To") or ""
    return " — ".join(part for part in (str(subject), str(to)) if part) or path.name
