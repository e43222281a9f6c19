"""What waits at the dice tables today (allocations to sign, end-of-séance checks) and the dice
awaiting destruction, for those who keep and sign for the dice: MC the cartier and the
sous-directeur (DICE-10), FR the directeur responsable and the comité members (DICE-23)."""

import functools

from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from ledgers.core.authz import roles_of
from ledgers.core.dashboard import Panel, dashboard_panel
from ledgers.core.models import Establishment
from ledgers.core.prepared import Bound, PreparedCounts
from ledgers.core.roles import Role

from . import selectors

CONCERNED = {"MC": {Role.CARTIER, Role.SOUS_DIRECTEUR}, "FR": {Role.DIRECTEUR_RESPONSABLE, Role.COMITE}}
ACTIONS = {  # what waits → (label, page where it is done)
    "allocation": (_("Dotation à signer"), "dice:allocate"),
    "end_check": (_("Contrôle de fin de séance à faire"), "dice:end_check"),
}


@functools.cache
def _queue() -> PreparedCounts:
    """The number of dice of a house (``Bound`` "house") awaiting destruction, compiled once."""
    return PreparedCounts(queue=selectors.destruction_queue(Bound("house")))


@dashboard_panel
def dice_waiting(request: HttpRequest, establishment: Establishment) -> Panel | None:
    if not roles_of(request.user, establishment) & CONCERNED[establishment.jurisdiction]:
        return None
    waiting = [(session, *ACTIONS[what]) for session, what in selectors.waiting_today(establishment)]
    queue = _queue().read(house=establishment.pk)["queue"]
    if not waiting and not queue:
        return None
    return Panel(_("Journée des dés"), "dice/_panel_waiting.html", {"waiting": waiting, "queue": queue}, order=45)
