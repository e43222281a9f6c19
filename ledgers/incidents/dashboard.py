"""The open incidents of the establishment, with the informations still to record, for those
who decide (the Direction) or must be informed (inspecteur, SCJ, police)."""

import datetime
import functools

from django.db.models import Count
from django.db.models.functions import TruncWeek
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from ledgers.core.authz import roles_of
from ledgers.core.charts import chart, month_end, week_label, weeks_until
from ledgers.core.dashboard import Panel, dashboard_panel
from ledgers.core.models import Establishment
from ledgers.core.prepared import Bound, Prepared
from ledgers.core.roles import Role

from .categories import GAME_INCIDENT, get_category
from .models import Incident
from .selectors import missing_notices, open_incidents, with_notices_read
from .services import DECIDERS


@functools.cache
def _open_with_notices() -> Prepared[Incident]:
    """A house's open incidents (``Bound`` "house"), latest found first, with their notices read
    (``with_notices_read``), compiled once."""
    return Prepared(
        with_notices_read(open_incidents(Bound("house")).select_related("establishment")).order_by("-found_at")
    )


CONCERNED = {
    "MC": {*DECIDERS["MC"], Role.INSPECTEUR, Role.SCJ},
    "FR": {*DECIDERS["FR"], Role.POLICE},
}


@dashboard_panel
def incidents_open(request: HttpRequest, establishment: Establishment) -> Panel | None:
    if not roles_of(request.user, establishment) & CONCERNED[establishment.jurisdiction]:
        return None
    rows = [
        (incident, [Role(r).label for r in missing_notices(incident)])
        for incident in _open_with_notices().read(house=establishment.pk)
    ]
    if not rows:
        return None
    return Panel(_("Incidents ouverts"), "incidents/_panel_open.html", {"rows": rows}, order=30)


WEEKS = 8


@chart("incidents-par-semaine", _("Incidents par catégorie et par semaine"))
def incidents_by_category_and_week(establishment: Establishment, month: datetime.date) -> tuple[str, list, list]:
    """The incidents found over the weeks up to the month's end, per category: one group per ISO week."""
    end = month_end(establishment, month)
    weeks = weeks_until(end, WEEKS)
    found = (
        Incident.objects.filter(establishment=establishment, found_at__date__gte=weeks[0], found_at__date__lte=end)
        .annotate(week=TruncWeek("found_at"))
        .values("week", "category")
        .annotate(n=Count("pk"))
    )
    counts = {(row["week"].date(), row["category"]): row["n"] for row in found}
    categories = sorted({category for _week, category in counts}) or [GAME_INCIDENT.code]
    return (
        "INC-01",
        [_("Semaine du"), *(str(get_category(c).label) for c in categories)],
        [[week_label(week), *(counts.get((week, c), 0) for c in categories)] for week in weeks],
    )
