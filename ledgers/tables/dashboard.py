"""The staffing flags (FLAG rows of GAME-10, 15, 42, and tables opened with no staff logged) for the
Direction, the table managers and the regulators who read the exceptions; the chef de table's main
act: open the parties prepared for the séance, end those in play, each refused beforehand with the
first domain check that stands in the way."""

from django.http import HttpRequest
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from ledgers.core import hooks
from ledgers.core.addresses import Addresses
from ledgers.core.authz import roles_of
from ledgers.core.dashboard import MainAct, Panel, dashboard_panel, main_acts, open_parties
from ledgers.core.models import Establishment, TableSession
from ledgers.core.roles import REGULATOR_ROLES, Role
from ledgers.core.services import TABLE_MANAGERS

from . import selectors

CONCERNED = set(TABLE_MANAGERS) | set(REGULATOR_ROLES)
SHOWN_FLAGS = 20  # the most recent flags, grouped by requirement


@dashboard_panel
def table_flags(request: HttpRequest, establishment: Establishment) -> Panel | None:
    if not roles_of(request.user, establishment) & CONCERNED:
        return None
    rows = selectors.exceptions(establishment, latest=SHOWN_FLAGS)
    if not rows:
        return None
    # One line per requirement, opening onto its flags: the same flag raised night after night is read once.
    by_code: dict[str, list[tuple[TableSession, str, str]]] = {}
    address = Addresses("seance-table", 1)
    for code, what, session in rows:
        by_code.setdefault(code, []).append((session, what, address(session.pk)))
    groups = []
    for code, flags in by_code.items():
        texts = {what for _session, what, _url in flags}
        groups.append((code, texts.pop() if len(texts) == 1 else "", flags))
    return Panel(
        _("Parties de table : signalements"),
        "tables/_panel_flags.html",
        {"groups": groups},
        order=60,
        count=len(rows),
    )


SHOWN = 4  # tables offered as buttons on the home; the séance page lists them all


@main_acts
def chef_table_acts(request: HttpRequest, establishment: Establishment) -> list[MainAct]:
    if Role.CHEF_TABLE not in roles_of(request.user, establishment):
        return []
    # The open séances' parties as the home reads them once, with the facts the checks read.
    parties = open_parties(establishment)
    # The parties to open first (opening starts the day), then those to end: up to SHOWN of each,
    # so that the tables waiting to open never hide those to end.
    live = [
        *[s for s in parties if s.status == TableSession.Status.PREPARING][:SHOWN],
        *[s for s in parties if s.status == TableSession.Status.OPEN][:SHOWN],
    ]
    acts = []
    with hooks.read_together(live):  # each check reads every partie shown in one query
        found = [
            hooks.opening_refusals(s) if s.status == TableSession.Status.PREPARING else hooks.closing_refusals(s)
            for s in live
        ]
    for session, refusals in zip(live, found, strict=True):
        opening = session.status == TableSession.Status.PREPARING
        label = (_("Ouvrir la partie — table %(t)s") if opening else _("Fin de partie — table %(t)s")) % {
            "t": session.table.number
        }
        url = reverse("seance-table", args=[session.pk])
        if refusals:
            acts.append(MainAct(label, reason=refusals[0].message, code=refusals[0].code, order=20))
        else:
            acts.append(MainAct(label, url=url, order=20))
    if not acts:
        acts.append(
            MainAct(
                _("Ouvrir une partie"),
                reason=_(
                    "Aucune table n'est préparée pour une séance ouverte : la direction des jeux prépare les tables."
                ),
                order=20,
            )
        )
    return acts
