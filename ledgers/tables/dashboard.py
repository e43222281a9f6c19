"""The staffing flags (FLAG rows of GAME-10, 15, 42, and tables opened with no staff logged) for the
Direction, the table managers and the regulators who read the exceptions."""

from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from ledgers.core.authz import roles_of
from ledgers.core.dashboard import Panel, dashboard_panel
from ledgers.core.models import Establishment
from ledgers.core.roles import REGULATOR_ROLES
from ledgers.core.services import TABLE_MANAGERS

from . import selectors

CONCERNED = set(TABLE_MANAGERS) | set(REGULATOR_ROLES)


@dashboard_panel
def table_flags(request: HttpRequest, establishment: Establishment) -> Panel | None:
    if not roles_of(request.user, establishment) & CONCERNED:
        return None
    rows = selectors.exceptions(establishment)
    if not rows:
        return None
    return Panel(_("Parties de table : signalements"), "tables/_panel_flags.html", {"rows": rows[-20:]}, order=60)
