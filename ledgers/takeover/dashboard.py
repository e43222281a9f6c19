"""What waits on the home in the take-over: the inventories the authority is to visa, and those
the directorate is to sign or post (nothing else tells an official that an inventory awaits them)."""

import functools

from django.http import HttpRequest
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from ledgers.core.authz import roles_of
from ledgers.core.dashboard import Panel, dashboard_panel
from ledgers.core.models import Establishment
from ledgers.core.prepared import Bound, Prepared
from ledgers.custody.services import AUTHORITY, DIRECTION

from .domains import get_domain
from .models import Inventory
from .selectors import inventories

Status = Inventory.Status


@functools.cache
def _unposted() -> Prepared[Inventory]:
    """A house's inventories not yet posted (``Bound`` "house"), as prepared, compiled once."""
    return Prepared(inventories(Bound("house")).exclude(status=Status.POSTED).order_by("prepared_at"))


@dashboard_panel
def inventories_waiting(request: HttpRequest, establishment: Establishment) -> Panel | None:
    est = establishment
    roles = roles_of(request.user, est)
    visas = bool(roles & set(AUTHORITY[est.jurisdiction]))
    signs = bool(roles & set(DIRECTION[est.jurisdiction]))
    if not (visas or signs):
        return None
    waiting = []
    for inventory in _unposted().read(house=est.pk):
        visa = get_domain(inventory.domain).visa.get(est.jurisdiction)
        awaits_visa = inventory.status == Status.SIGNED and visa is not None
        if inventory.status == Status.DRAFT:
            act = (_("Signer"), "takeover:sign") if signs else None
        elif awaits_visa and visas:
            act = (_("Viser"), "takeover:visa")
        elif signs and not (awaits_visa and visa[1]):  # a visa the posting needs comes first
            act = (_("Reporter aux registres"), "takeover:post")
        else:
            act = None
        if act:
            waiting.append((inventory, act[0], reverse(act[1], args=[inventory.pk])))
    if not waiting:
        return None
    return Panel(_("Inventaires de reprise en attente"), "takeover/_panel_waiting.html", {"waiting": waiting}, order=14)
