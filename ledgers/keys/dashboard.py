"""Late keys, and keys still out after their purpose closed, on the dashboard of those who hand
them over or keep them, and of the Direction."""

from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from ledgers.core.dashboard import Panel, dashboard_panel
from ledgers.core.models import Establishment

from . import selectors


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
