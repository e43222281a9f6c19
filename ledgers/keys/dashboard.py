"""Late keys, and keys still out after their purpose closed, on the dashboard of those who hand
them over or keep them, and of the Direction; for the accounts, the blind inventory of the keys."""

import datetime

from django.db.models import Count, F, Q
from django.db.models.functions import TruncWeek
from django.http import HttpRequest
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ledgers.core.authz import roles_of
from ledgers.core.charts import chart, month_end, week_label, weeks_until
from ledgers.core.dashboard import MainAct, Panel, dashboard_panel, main_acts
from ledgers.core.models import Establishment
from ledgers.core.roles import Role

from . import selectors
from .models import KeyIssue


@dashboard_panel
def overdue_keys(request: HttpRequest, establishment: Establishment) -> Panel | None:
    types = selectors.concerned_lock_types(request.user, establishment)
    if types is not None and not types:
        return None
    found = selectors.exceptions(establishment, lock_types=types)
    if not found:
        return None
    return Panel(
        _("Clés en retard ou non rendues"), "keys/_panel_overdue.html", {"exceptions": found}, order=30, late=True
    )


@main_acts
def key_inventory(request: HttpRequest, establishment: Establishment) -> list[MainAct]:
    if Role.COMPTABILITE not in roles_of(request.user, establishment):
        return []
    return [MainAct(_("Inventaire des clés"), url=reverse("keys:inventory"), order=40)]


WEEKS = 8


@chart("cles-rendues-en-retard", _("Clés remises et rendues en retard, par semaine"))
def keys_returned_late(establishment: Establishment, month: datetime.date) -> tuple[str, list, list]:
    """The hand-overs of each of the weeks up to the month's end, and those whose key came back
    after its due time (or is still out past it)."""
    now = timezone.now()
    end = month_end(establishment, month)
    weeks = weeks_until(end, WEEKS)
    issues = (
        KeyIssue.objects.filter(
            key__establishment=establishment, issued_at__date__gte=weeks[0], issued_at__date__lte=end
        )
        .annotate(week=TruncWeek("issued_at"))
        .values("week")
        .annotate(
            n=Count("pk"),
            late=Count("pk", filter=Q(returned_at__gt=F("due_at")) | Q(returned_at__isnull=True, due_at__lt=now)),
        )
    )
    by_week = {row["week"].date(): (row["n"], row["late"]) for row in issues}
    return (
        "KEY-05",
        [_("Semaine du"), _("Remises"), _("Rendues en retard ou encore dehors")],
        [[week_label(week), *by_week.get(week, (0, 0))] for week in weeks],
    )
