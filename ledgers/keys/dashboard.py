"""Late keys, and keys still out after their purpose closed, on the dashboard of those who hand
them over or keep them, and of the Direction; for the accounts, the blind inventory of the keys."""

from django.http import HttpRequest
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from ledgers.core.authz import roles_of
from ledgers.core.dashboard import MainAct, Panel, dashboard_panel, main_acts
from ledgers.core.models import Establishment
from ledgers.core.roles import Role

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


@main_acts
def key_inventory(request: HttpRequest, establishment: Establishment) -> list[MainAct]:
    if Role.COMPTABILITE not in roles_of(request.user, establishment):
        return []
    return [MainAct(_("Inventaire des clés"), url=reverse("keys:inventory"), order=40)]
