from pathlib import Path

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db.models import F, QuerySet
from django.shortcuts import get_object_or_404

from .models import Notice


def notices_for(user: AbstractBaseUser) -> QuerySet[Notice]:
    """The notices mailed to ``user``, the ones awaiting their acknowledgement first."""
    return (
        Notice.objects.filter(mails__recipient=user)
        .distinct()
        .select_related("establishment", "register", "acknowledged_by")
        .order_by(F("acknowledged_at").desc(nulls_first=True), "-created_at")
    )


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
    return [(f.name, f.read_text(errors="replace")) for f in files]
