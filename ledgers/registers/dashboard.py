"""What waits for the user in the registers: cote et paraphe, visas, their latest entries."""

import functools
from dataclasses import dataclass, field
from operator import attrgetter

from django.core.paginator import Paginator
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from ledgers.core.addresses import Addresses
from ledgers.core.authz import refusal_of
from ledgers.core.dashboard import Panel, dashboard_panel
from ledgers.core.models import Establishment
from ledgers.core.prepared import Bound, Prepared

from . import opening, selectors
from .kinds import MAIN_COURANTE
from .models import Entry, Register
from .services import visa_role_for_kind

AWAITING_PAGE_SIZE = 20
AWAITING_PAGE_PARAM = "registres"


@dataclass
class KindGroup:
    """The registers of one kind awaiting the same act: one line of the authority's home."""

    title: str
    to_open: bool
    kind: str = ""
    registers: list[Register] = field(default_factory=list)
    # Why the volumes may not be visaed together (``visa_role_for_kind``), None when they may.
    together_refusal: Exception | None = None
    # Each register with the URLs of its page and of the act it awaits, for the groups shown.
    rows: list[tuple[Register, str, str]] = field(default_factory=list)

    @property
    def oldest(self):
        return self.registers[0].waiting_since

    @property
    def entries(self) -> int:
        return sum(r.to_visa for r in self.registers)


def kind_groups(registers) -> list[KindGroup]:
    """The waiting registers grouped by kind and act, the group whose oldest waits longest first
    (``registers`` come oldest first, so each group's first is its oldest)."""
    groups: dict[tuple[str, bool], KindGroup] = {}
    for register in registers:
        to_open = register.status == Register.Status.AWAITING_OPENING
        key = (register.kind, to_open)
        if key not in groups:
            groups[key] = KindGroup(str(register.kind_info.title), to_open, register.kind)
        groups[key].registers.append(register)
    return list(groups.values())


@dashboard_panel
def awaiting_authority(request: HttpRequest, establishment: Establishment) -> Panel | None:
    """The authority's work: registers to cote and paraph or to visa, one line per kind with its
    count and the oldest wait, the longest waiting first, opened on demand; a page of kinds at a
    time (``?registres=N``)."""
    groups = kind_groups(selectors.registers_awaiting_authority(request.user, establishment))
    page = Paginator(groups, AWAITING_PAGE_SIZE).get_page(request.GET.get(AWAITING_PAGE_PARAM))
    detail, to_open, to_visa = (Addresses(name, 1) for name in ("registers:detail", "registers:open", "registers:visa"))
    for group in page:
        act = to_open if group.to_open else to_visa
        group.rows = [(register, detail(register.number), act(register.number)) for register in group.registers]
        if not group.to_open and len(group.registers) > 1:
            group.together_refusal = refusal_of(
                lambda group=group: visa_role_for_kind(request.user, establishment, group.kind)
            )
    if not page.paginator.count:
        return None
    return Panel(
        _("Registres à viser ou à coter et parapher"),
        "registers/_panel_awaiting_authority.html",
        {"page": page, "page_param": AWAITING_PAGE_PARAM},
        order=10,
        count=sum(len(g.registers) for g in groups),
    )


@functools.cache
def _recent_entries() -> Prepared[Entry]:
    """A user's latest entries in a house's registers (``Bound`` "user" and "house"), compiled once."""
    return Prepared(selectors.recent_entries_by(Bound("user"), Bound("house")))


@dashboard_panel
def recent_entries(request: HttpRequest, establishment: Establishment) -> Panel | None:
    entries = _recent_entries().read(user=request.user.pk, house=establishment.pk)
    if not entries:
        return None
    address = Addresses("registers:entry", 2)
    rows = [(entry, address(entry.register.number, entry.seq)) for entry in entries]
    return Panel(_("Mes dernières inscriptions"), "registers/_panel_recent_entries.html", {"entries": rows}, order=90)


@dashboard_panel
def main_courante(request: HttpRequest, establishment: Establishment) -> Panel | None:
    """The act of the day for who writes the main courante: one button to inscribe a fact."""
    volumes = [r for r in selectors.live_registers(establishment) if r.kind == MAIN_COURANTE.code]
    register = min((r for r in volumes if r.status == Register.Status.OPEN), key=attrgetter("number"), default=None)
    if register is None or "record" not in selectors.register_actions(request.user, register):
        return None
    return Panel(_("Main courante"), "registers/_panel_main_courante.html", {"register": register}, order=15)


@dashboard_panel
def registers_to_open(request: HttpRequest, establishment: Establishment) -> Panel | None:
    """The directorate's set-up work: the registers the house needs that are not open yet."""
    if not selectors.can_create_registers(request.user, establishment):
        return None
    rows = opening.registers_to_open(establishment)
    waiting = [row for row in rows if row.state != opening.State.OPEN]
    if not waiting:
        return None
    return Panel(
        _("Registres à ouvrir"),
        "registers/_panel_to_open.html",
        {
            "to_create": sum(row.state == opening.State.TO_CREATE for row in waiting),
            "awaiting": sum(row.state == opening.State.AWAITING for row in waiting),
        },
        order=12,
        count=len(waiting),
    )
