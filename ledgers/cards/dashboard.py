"""What waits in the card room: for whoever keeps the cards (MC the cartier, FR the key holders
of the cabinet), the units at the tables, to control and to destroy; for the inspecteur, the
returns to supervise, the exchanges to reconcile and the open card incidents. The main acts: the
MC cartier issues cards to a table for the séance, the FR cartier controls the used cards in the
cabinet, the croupier controls the cards at his table."""

import functools

from django.http import HttpRequest
from django.urls import reverse
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from ledgers.core.authz import roles_of
from ledgers.core.dashboard import MainAct, Panel, dashboard_panel, main_acts
from ledgers.core.models import Establishment
from ledgers.core.prepared import Bound, PreparedCounts
from ledgers.core.roles import Role

from . import selectors
from .domains import rule_id
from .services import DEPOT_CONTROLLERS


def _counts(title: Promise, link: str, lines: list[tuple[Promise, int]]) -> Panel | None:
    if not any(count for _label, count in lines):
        return None
    return Panel(title, "cards/_panel_counts.html", {"link": link, "lines": lines}, order=50)


# What each panel counts in a house, by name.
COUNTED = {
    "keepers": {
        "issued": selectors.issued_units,
        "control": selectors.awaiting_control,
        "destruction": selectors.awaiting_destruction,
    },
    "inspector": {
        "issued": selectors.issued_units,
        "exchanges": selectors.open_exchanges,
        "incidents": selectors.card_incidents,
    },
}


@functools.cache
def _counted(panel: str) -> PreparedCounts:
    """What ``panel`` counts in a house (``Bound`` "house"), in one query compiled once."""
    house = Bound("house")
    return PreparedCounts(**{name: counted(house) for name, counted in COUNTED[panel].items()})


@dashboard_panel
def card_room(request: HttpRequest, establishment: Establishment) -> Panel | None:
    if not roles_of(request.user, establishment) & set(DEPOT_CONTROLLERS[establishment.jurisdiction]):
        return None
    counted = _counted("keepers").read(house=establishment.pk)
    return _counts(
        _("Journée du cartier"),
        "cards:day",
        [
            (_("Cartes en service aux tables"), counted["issued"]),
            (_("En attente de contrôle"), counted["control"]),
            (_("En attente de destruction"), counted["destruction"]),
        ],
    )


@dashboard_panel
def card_inspection(request: HttpRequest, establishment: Establishment) -> Panel | None:
    if Role.INSPECTEUR not in roles_of(request.user, establishment):
        return None
    counted = _counted("inspector").read(house=establishment.pk)
    return _counts(
        _("File de l'inspecteur"),
        "cards:inspector",
        [
            (_("Rentrées à surveiller"), counted["issued"]),
            (_("Échanges de cartes à rapprocher"), counted["exchanges"]),
            (_("Incidents de cartes ouverts"), counted["incidents"]),
        ],
    )


@main_acts
def card_acts(request: HttpRequest, establishment: Establishment) -> list[MainAct]:
    roles, est = roles_of(request.user, establishment), establishment
    acts = []
    if Role.CARTIER in roles and est.jurisdiction == "MC":
        label = _("Sortir des cartes pour une table")
        if not selectors.live_sessions(est).exists():
            acts.append(
                MainAct(
                    label,
                    reason=_(
                        "Les cartes ne sortent qu'au moment où il en est fait usage : aucune partie n'est préparée."
                    ),
                    code="CARD-12",
                )
            )
        elif not selectors.issuable_units(est).exists():
            acts.append(MainAct(label, reason=_("Aucune carte en dépôt ne peut sortir."), code="CARD-08"))
        else:
            acts.append(MainAct(label, url=reverse("cards:issue")))
    if Role.CARTIER in roles and est.jurisdiction == "FR":
        label = _("Contrôler les cartes rentrées")
        if selectors.depot_units(est).filter(status="in_stock", is_new=False).exists():
            acts.append(MainAct(label, url=reverse("cards:first-control")))
        else:
            acts.append(
                MainAct(label, reason=_("Aucun jeu usagé n'attend de contrôle dans l'armoire."), code="CARD-28")
            )
    if Role.CROUPIER in roles:
        label = _("Contrôler les cartes à ma table")
        if selectors.issued_units(est).filter(pae=False, is_new=False).exists():
            acts.append(MainAct(label, url=reverse("cards:table-control")))
        else:
            acts.append(
                MainAct(
                    label,
                    reason=_("Aucune carte n'est sortie pour une table : le contrôle se fait quand elles arrivent."),
                    code=rule_id(est, "CARD-15", "CARD-36"),
                )
            )
    return acts
