"""The open incidents of the establishment, with the informations still to record, for those
who decide (the Direction) or must be informed (inspecteur, SCJ, police)."""

from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from ledgers.core.authz import roles_of
from ledgers.core.dashboard import Panel, dashboard_panel
from ledgers.core.models import Establishment
from ledgers.core.roles import Role

from .selectors import missing_notices, open_incidents
from .services import DECIDERS

CONCERNED = {
    "MC": {*DECIDERS["MC"], Role.INSPECTEUR, Role.SCJ},
    "FR": {*DECIDERS["FR"], Role.POLICE},
}


@dashboard_panel
def incidents_open(request: HttpRequest, establishment: Establishment) -> Panel | None:
    if not roles_of(request.user, establishment) & CONCERNED[establishment.jurisdiction]:
        return None
    incidents = (
        open_incidents(establishment).select_related("establishment").prefetch_related("notices").order_by("-found_at")
    )
    rows = [(incident, [Role(r).label for r in missing_notices(incident)]) for incident in incidents]
    if not rows:
        return None
    return Panel(_("Incidents ouverts"), "incidents/_panel_open.html", {"rows": rows}, order=30)
