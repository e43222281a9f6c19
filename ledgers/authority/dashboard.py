"""Dashboard panels: the approvals to renew (AUTH-06); the observations waiting for the directeur
responsable's follow-up (overdue ones flagged, REG-44) and the liaison questions waiting for the
police's answer (REG-45)."""

import functools

from django.db.models import DateField
from django.http import HttpRequest
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ledgers.core.authz import roles_of
from ledgers.core.dashboard import Panel, dashboard_panel
from ledgers.core.models import Establishment
from ledgers.core.prepared import Bound, Prepared
from ledgers.core.roles import DIRECTORATE, Role

from . import selectors
from .models import CalledBet, Declaration

POLICE_REGISTER_READERS = {Role.DIRECTEUR_RESPONSABLE, Role.COMITE, Role.POLICE, Role.CHEF_POLICE}


@dashboard_panel
def police_registers(request: HttpRequest, establishment: Establishment) -> Panel | None:
    if establishment.jurisdiction != "FR" or not roles_of(request.user, establishment) & POLICE_REGISTER_READERS:
        return None
    awaiting, questions = selectors.police_waiting(establishment)
    overdue = {observation.pk for observation in awaiting if observation.past_due}
    if not awaiting and not questions:
        return None
    return Panel(
        _("Registres de la police"),
        "authority/_panel_police.html",
        {"awaiting": awaiting, "overdue": overdue, "questions": questions},
        order=25,
        late=bool(overdue),
    )


@functools.cache
def _declarations_pending() -> Prepared[Declaration]:
    """A house's declarations implemented by a day with no follow-up (``Bound`` "house" and
    "today"), compiled once."""
    return Prepared(selectors.declarations_without_follow_up(Bound("house"), Bound("today", DateField())))


@functools.cache
def _called_bets_unnoticed() -> Prepared[CalledBet]:
    """The first of a house's called bets without the SCJ informed (``Bound`` "house"), compiled once."""
    return Prepared(selectors.called_bets_without_scj(Bound("house"))[:20])


@dashboard_panel
def approvals_attention(request: HttpRequest, establishment: Establishment) -> Panel | None:
    """The Direction's approvals that are missing, expired or about to expire (AUTH-06), and the
    declarations implemented without a recorded follow-up (AUTH-02)."""
    if not roles_of(request.user, establishment) & set(DIRECTORATE):
        return None
    rows = selectors.approvals_needing_attention(establishment)
    today = establishment.localtime(timezone.now()).date()
    declarations = _declarations_pending().read(house=establishment.pk, today=today)
    if not rows and not declarations:
        return None
    return Panel(
        _("Agréments et déclarations"),
        "authority/_panel_approvals.html",
        # A declaration implemented with no follow-up is flagged under its row (003 art. 7, 9 bis).
        {"rows": rows, "declarations": declarations, "declarations_flag": "AUTH-02"},
        order=26,
    )


@dashboard_panel
def called_bets_without_scj(request: HttpRequest, establishment: Establishment) -> Panel | None:
    """MC: complex called bets visaed without the SCJ informed (GAME-20 flag), for the Direction
    des Jeux and the SCJ."""
    if establishment.jurisdiction != "MC" or not roles_of(request.user, establishment) & {*DIRECTORATE, Role.SCJ}:
        return None
    bets = _called_bets_unnoticed().read(house=establishment.pk)
    if not bets:
        return None
    return Panel(
        _("Annonces complexes : SCJ non informé"), "authority/_panel_called_bets.html", {"bets": bets}, order=27
    )


@dashboard_panel
def split_aces_unexplained(request: HttpRequest, establishment: Establishment) -> Panel | None:
    """MC: Split Aces closing amounts the séance's stakes × percentage and payouts do not explain
    (GAME-04 flag, BP), for the Direction des Jeux and the SCJ."""
    if establishment.jurisdiction != "MC" or not roles_of(request.user, establishment) & {*DIRECTORATE, Role.SCJ}:
        return None
    readings = list(selectors.progressive_unexplained(establishment)[:20])
    if not readings:
        return None
    return Panel(
        _("Progressif Split Aces : écarts inexpliqués"),
        "authority/_panel_split_aces.html",
        {"readings": readings},
        order=28,
    )
