from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Q, QuerySet

from ledgers.core.models import Seance
from ledgers.core.selectors import establishments_for

from .models import ReportJob
from .roles import DAILY_READERS


def reports_for(user: AbstractBaseUser) -> QuerySet[ReportJob]:
    """The reports a user may see: those they asked for, and the daily séance reports the
    system produced for the establishments where they hold a role that reads them."""
    if not user.is_authenticated:
        return ReportJob.objects.none()
    readers = establishments_for(user).filter(memberships__user=user, memberships__role__in=DAILY_READERS)
    return ReportJob.objects.filter(
        Q(requested_by=user) | Q(requested_by__isnull=True, kind=ReportJob.Kind.DAILY, establishment__in=readers)
    ).select_related("establishment", "requested_by")


def seances_awaiting_report() -> QuerySet[Seance]:
    """Closed séances that have no daily report yet (asked for or produced)."""
    return (
        Seance.objects.filter(status=Seance.Status.CLOSED)
        .exclude(report_jobs__kind=ReportJob.Kind.DAILY)
        .select_related("establishment")
        .order_by("closed_at", "pk")
    )
