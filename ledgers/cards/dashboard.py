"""What waits in the card room: for whoever keeps the cards (MC the cartier, FR the key holders
of the cabinet), the units at the tables, to control and to destroy; for the inspecteur, the
returns to supervise, the exchanges to reconcile and the open card incidents."""

from django.http import HttpRequest
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from ledgers.core.authz import roles_of
from ledgers.core.dashboard import Panel, dashboard_panel
from ledgers.core.models import Establishment
from ledgers.core.roles import Role

from . import selectors
from .services import DEPOT_CONTROLLERS


def _counts(title: Promise, link: str, lines: list[tuple[Promise, int]]) -> Panel | None:
    if not any(count for _label, count in lines):
        return None
    return Panel(title, "cards/_panel_counts.html", {"link": link, "lines": lines}, order=50)


@dashboard_panel
def card_room(request: HttpRequest, establishment: Establishment) -> Panel | None:
    if not roles_of(request.user, establishment) & set(DEPOT_CONTROLLERS[establishment.jurisdiction]):
        return None
    return _counts(
        _("Journée du cartier"),
        "cards:day",
        [
            (_("Cartes en service aux tables"), selectors.issued_units(establishment).count()),
            (_("En attente de contrôle"), selectors.awaiting_control(establishment).count()),
            (_("En attente de destruction"), selectors.awaiting_destruction(establishment).count()),
        ],
    )


@dashboard_panel
def card_inspection(request: HttpRequest, establishment: Establishment) -> Panel | None:
    if Role.INSPECTEUR not in roles_of(request.user, establishment):
        return None
    return _counts(
        _("File de l'inspecteur"),
        "cards:inspector",
        [
            (_("Rentrées à surveiller"), selectors.issued_units(establishment).count()),
            (_("Échanges de cartes à rapprocher"), selectors.open_exchanges(establishment).count()),
            (_("Incidents de cartes ouverts"), selectors.card_incidents(establishment).count()),
        ],
    )
