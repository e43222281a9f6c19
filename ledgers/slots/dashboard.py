"""What waits for the slot superviseur and mechanic: open relèves, open interventions, meter
incidents, flagged counts, (MC) days whose sheets are not handed over yet, (FR) machines overdue
for their SFM revision visit (SLOT-54), (MC) an outdated Secrétariat Général copy (SLOT-08)."""

from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from ledgers.core.authz import roles_of
from ledgers.core.dashboard import Panel, dashboard_panel
from ledgers.core.models import Establishment
from ledgers.core.roles import Role

from . import selectors

CONCERNED = {Role.SUPERVISEUR, Role.MECANICIEN, Role.DIRECTEUR_EXPLOITATION, Role.TECHNICIEN_SFM}


@dashboard_panel
def slots_waiting(request: HttpRequest, establishment: Establishment) -> Panel | None:
    if not roles_of(request.user, establishment) & CONCERNED:
        return None
    context = {
        "releves": list(selectors.open_releves(establishment)),
        "interventions": list(selectors.open_interventions(establishment)),
        "incidents": selectors.meter_incidents(establishment).count(),
        "flagged": selectors.flagged_counts(establishment).count(),
        "untransmitted": selectors.untransmitted_days(establishment) if establishment.jurisdiction == "MC" else [],
        "overdue": selectors.overdue_revisions(establishment),
        "copy_overdue": selectors.files_copy_overdue(establishment),
        "events": selectors.flagged_events(establishment).count(),
    }
    if not any(context.values()):
        return None
    return Panel(_("Machines à sous"), "slots/_panel_waiting.html", context, order=50)
