import email
import email.policy
import functools
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db.models import F, QuerySet
from django.shortcuts import get_object_or_404

from ledgers.core.authz import roles_of
from ledgers.core.models import Establishment
from ledgers.core.prepared import Bound, PreparedCounts

from .models import Notice, Subscription


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


@functools.cache
def _menu_counts(roles: frozenset[str]) -> PreparedCounts:
    """What the menu's entry counts for a user (``Bound`` "user") holding ``roles`` in a house
    (``Bound`` "house"), in one query compiled once for each set of roles: every page reads it."""
    mailed = Notice.objects.filter(mails__recipient=Bound("user")).distinct()
    subscribed = Subscription.objects.filter(establishment=Bound("house"), role__in=sorted(roles))
    return PreparedCounts(notices=mailed, pending=mailed.filter(acknowledged_at=None), subscribed=subscribed)


def notices_menu(user: AbstractBaseUser, establishment: Establishment | None) -> NoticesMenu | None:
    """The menu's entry for ``user``: shown to whoever has been mailed a notice, or holds a role
    subscribed to notices here; None for the others. One query."""
    roles = frozenset(roles_of(user, establishment)) if establishment else frozenset()
    counted = _menu_counts(roles).read(user=user.pk, house=establishment.pk if establishment else None)
    if counted["notices"]:
        return NoticesMenu(pending=counted["pending"])
    return NoticesMenu(pending=0) if counted["subscribed"] else None


def notice_for(user: AbstractBaseUser, pk: int) -> Notice:
    return get_object_or_404(notices_for(user), pk=pk)


@dataclass(frozen=True)
class DemoMail:
    """A mail the demo wrote to its folder instead of sending it, as its reader sees it."""

    subject: str
    sent: str
    body: str
    notice: int | None  # the notice it carries (X-Ledgers-Notice)


# Django's file backend writes each message followed by a line of 79 dashes, several to a file.
MAIL_SEPARATOR = "\n" + "-" * 79 + "\n"


def demo_mails(user: AbstractBaseUser, limit: int = 10) -> list[DemoMail]:
    """With the demo's file backend, the last mails written to ``user``'s address, newest first:
    subject, date and text, never another person's mail nor a raw file."""
    if settings.EMAIL_BACKEND != "django.core.mail.backends.filebased.EmailBackend" or not user.email:
        return []
    folder = Path(settings.EMAIL_FILE_PATH)
    files = sorted(folder.glob("*.log"), key=lambda f: f.stat().st_mtime, reverse=True) if folder.is_dir() else []
    mails: list[DemoMail] = []
    for path in files:
        for text in reversed(path.read_text(errors="replace").split(MAIL_SEPARATOR)):
            if not text.strip():
                continue
            message = email.message_from_string(text.lstrip("\n"), policy=email.policy.default)
            if user.email.lower() not in str(message.get("To") or "").lower():
                continue
            part = message.get_body(preferencelist=("plain",))
            notice = str(message.get("X-Ledgers-Notice") or "")
            mails.append(
                DemoMail(
                    subject=str(message.get("Subject") or ""),
                    sent=str(message.get("Date") or ""),
                    body=part.get_content().strip() if part is not None else "",
                    notice=int(notice) if notice.isdigit() else None,
                )
            )
            if len(mails) == limit:
                return mails
    return mails
