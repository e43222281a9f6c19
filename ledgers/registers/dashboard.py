"""What waits for the user in the registers: cote et paraphe, visas, their latest entries."""

from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from ledgers.core.dashboard import Panel, dashboard_panel
from ledgers.core.models import Establishment

from . import selectors
from .kinds import MAIN_COURANTE
from .models import Register


@dashboard_panel
def awaiting_opening(request: HttpRequest, establishment: Establishment) -> Panel | None:
    registers = selectors.registers_awaiting_opening(request.user, establishment)
    if not registers:
        return None
    return Panel(
        _("Registres à coter et parapher"), "registers/_panel_awaiting_opening.html", {"registers": registers}, order=10
    )


@dashboard_panel
def awaiting_visa(request: HttpRequest, establishment: Establishment) -> Panel | None:
    pending = selectors.registers_awaiting_visa(request.user, establishment)
    if not pending:
        return None
    return Panel(_("Entrées à viser"), "registers/_panel_awaiting_visa.html", {"pending": pending}, order=20)


@dashboard_panel
def recent_entries(request: HttpRequest, establishment: Establishment) -> Panel | None:
    entries = list(selectors.recent_entries_by(request.user, establishment))
    if not entries:
        return None
    return Panel(
        _("Mes dernières inscriptions"), "registers/_panel_recent_entries.html", {"entries": entries}, order=90
    )


@dashboard_panel
def main_courante(request: HttpRequest, establishment: Establishment) -> Panel | None:
    """The act of the day for who writes the main courante: one button to inscribe a fact."""
    register = (
        establishment.registers.filter(kind=MAIN_COURANTE.code, status=Register.Status.OPEN).order_by("number").first()
    )
    if register is None or "record" not in selectors.register_actions(request.user, register):
        return None
    return Panel(_("Main courante"), "registers/_panel_main_courante.html", {"register": register}, order=15)
