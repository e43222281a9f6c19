"""What waits at the tables in the equipment flows: pre-séance checks, sabot allocations,
end-of-séance shuffler checks, machines out of service."""

from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from ledgers.core.authz import roles_of
from ledgers.core.dashboard import Panel, dashboard_panel
from ledgers.core.models import Establishment
from ledgers.registers.navigation import acts_in

from . import selectors
from .models import AssetStatus, Shuffler

LABELS = {
    "check": _("Vérification avant séance à faire"),
    "shoe": _("Sabot à affecter"),
    "shuffler_end": _("Fin de séance du mélangeur à confirmer"),
    "roster": _("Ordre de roulement à établir"),
}


@dashboard_panel
def equipment_waiting(request: HttpRequest, establishment: Establishment) -> Panel | None:
    # For those who work with the equipment; the others' homes do not list it.
    if not acts_in(roles_of(request.user, establishment), "equipment:overview", establishment.jurisdiction):
        return None
    waiting = [(session, LABELS[what]) for session, what in selectors.waiting_at_tables(establishment)]
    stopped = list(Shuffler.objects.filter(establishment=establishment, status=AssetStatus.OUT_OF_SERVICE))
    if not waiting and not stopped:
        return None
    return Panel(
        _("Matériel de jeu"), "equipment/_panel_waiting.html", {"waiting": waiting, "stopped": stopped}, order=40
    )
