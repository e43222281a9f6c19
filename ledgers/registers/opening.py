"""The registers a house opens before its first séance: each app that writes in a kind says, for an
establishment, which volumes its acts will ask for (``current_register`` refuses an act whose
volume is not open), for the house and for each table whose game needs its own. The list, with
each volume's state, is read here; the directorate creates every missing volume in one act
(``services.registers_to_open_create``) and the authority of each kind cotes and paraphs it."""

import functools
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from django.db.models import OuterRef, TextChoices
from django.db.models.functions import JSONObject
from django.utils.translation import gettext_lazy as _

from ledgers.core.expressions import ArraySubquery
from ledgers.core.models import Establishment, GamingTable, Location
from ledgers.core.prepared import Bound, Prepared
from ledgers.core.roles import REGULATOR_ROLES, Role

from .kinds import MAIN_COURANTE, get_kind, qualifier_label
from .models import Register
from .selectors import live_registers


@dataclass(frozen=True)
class Need:
    """A volume a house must have open: its kind, its qualifier (a table, a domain, a category),
    and why (the catalogue row of the acts that write in it)."""

    kind: str
    qualifier: str = ""
    requirement: str = ""
    # The gaming table it serves ("" for the house's own registers): the table kind's registers.
    table: str = ""
    # How the qualifier reads when no declared source names it (a cash desk's name).
    label: str = ""

    @property
    def kind_title(self) -> str:
        return str(get_kind(self.kind).title)

    @property
    def qualifier_label(self) -> str:
        return self.label or (qualifier_label(self.qualifier) if self.qualifier else "")


NeedSource = Callable[[Establishment], Iterable[Need]]
_sources: list[NeedSource] = []


def opening_needs(source: NeedSource) -> NeedSource:
    """Declare a source of needed volumes (usable as a decorator; declaring twice is harmless)."""
    if source not in _sources:
        _sources.append(source)
    return source


def needs(establishment: Establishment) -> list[Need]:
    """Every volume the house needs, once each (the first source naming it gives its reason), the
    kinds not kept in its jurisdiction left out."""
    found: dict[tuple[str, str], Need] = {}
    establishment._in_service = _in_service(establishment)  # read once for every source
    try:
        for source in _sources:
            for need in source(establishment):
                if establishment.jurisdiction in get_kind(need.kind).jurisdictions:
                    found.setdefault((need.kind, need.qualifier), need)
    finally:
        del establishment._in_service
    return list(found.values())


class State(TextChoices):
    TO_CREATE = "to_create", _("À créer")
    AWAITING = "awaiting", _("En attente de cote et paraphe")
    OPEN = "open", _("Ouvert")


STATE_ORDER = {State.TO_CREATE: 0, State.AWAITING: 1, State.OPEN: 2}


@dataclass(frozen=True)
class ToOpen:
    need: Need
    state: str
    register: Register | None  # the volume open, else the one awaiting its opening act
    authority: str  # who cotes and paraphs it here
    requirement: str  # the catalogue row of the acts that write in it

    @property
    def kind(self):
        return get_kind(self.need.kind)

    @property
    def title(self) -> str:
        return str(self.kind.title)

    @property
    def qualifier_label(self) -> str:
        return self.need.qualifier_label

    @property
    def state_label(self) -> str:
        return str(State(self.state).label)

    @property
    def table(self) -> str:
        return self.need.table

    @property
    def number(self) -> str:
        return self.register.number if self.register else ""


def authority_label(establishment: Establishment, kind: str) -> str:
    """The roles that cote and paraph ``kind`` here, named as the jurisdiction names them; an
    authority of the other jurisdiction (a kind kept in both may name both) is left out."""
    roles = get_kind(kind).paraph_roles_for(establishment.jurisdiction)
    names = establishment.profile.authority_names
    here = [role for role in roles if role in names or role not in REGULATOR_ROLES]
    return ", ".join(str(names.get(role) or Role(role).label) for role in here)


def registers_to_open(establishment: Establishment) -> list[ToOpen]:
    """The needed volumes with their state: open, awaiting the authority's cote et paraphe, or to
    create; the ones to do first, then by kind title. One query for the volumes."""
    volumes: dict[tuple[str, str], Register] = {}
    for register in live_registers(establishment):  # "awaiting" < "open": the latest open volume wins
        volumes[(register.kind, register.qualifier)] = register
    rows = []
    found = needs(establishment)
    # Named once a kind: the volumes of one kind (a table's each) share their authority.
    authorities = {kind: authority_label(establishment, kind) for kind in {need.kind for need in found}}
    for need in found:
        register = volumes.get((need.kind, need.qualifier))
        if register is None:
            state = State.TO_CREATE
        elif register.status == Register.Status.OPEN:
            state = State.OPEN
        else:
            state = State.AWAITING
        requirement = need.requirement or get_kind(need.kind).missing_rule(establishment.jurisdiction)[0]
        rows.append(ToOpen(need, state, register, authorities[need.kind], requirement))
    return sorted(rows, key=lambda row: (STATE_ORDER[row.state], row.title, row.need.table, row.need.qualifier))


def missing(establishment: Establishment) -> list[Need]:
    return [row.need for row in registers_to_open(establishment) if row.state == State.TO_CREATE]


@opening_needs
def house_registers(establishment: Establishment) -> Iterable[Need]:
    """The main courante: the séance's opening and closing are its lines (registers.hooks)."""
    yield Need(MAIN_COURANTE.code)


@dataclass(frozen=True)
class InService:
    """What the sources of needed volumes read of the house: its gaming tables in service
    (number, game) by number, and its places in service (kind, code, name) by code."""

    tables: list[tuple[str, str]]
    places: list[tuple[str, str, str]]


def _in_service(establishment: Establishment) -> InService:
    """``InService`` of the house, both read in one query."""
    [(tables_read, places_read)] = _in_service_read().read(house=establishment.pk)
    return InService(
        [(row["number"], row["game"]) for row in tables_read],
        [(row["kind"], row["code"], row["name"]) for row in places_read],
    )


@functools.cache
def _in_service_read() -> Prepared[Establishment]:
    """What ``_in_service`` reads of a house (``Bound`` "house"), compiled once: it names no house,
    and compiling its subqueries for every read costs more than running them."""
    tables = GamingTable.objects.filter(establishment=OuterRef("pk"), active=True).order_by("number")
    places = Location.objects.filter(establishment=OuterRef("pk"), active=True).order_by("code")
    found = Establishment.objects.annotate(
        tables_read=ArraySubquery(tables.values(json=JSONObject(number="number", game="game"))),
        places_read=ArraySubquery(places.values(json=JSONObject(kind="kind", code="code", name="name"))),
    )
    return Prepared(found.values_list("tables_read", "places_read").filter(pk=Bound("house")))


def _read(establishment: Establishment) -> InService:
    cached = getattr(establishment, "_in_service", None)
    return cached if cached is not None else _in_service(establishment)


def tables_in_service(establishment: Establishment) -> list[tuple[str, str]]:
    """(number, game) of the house's gaming tables in service, by number."""
    return _read(establishment).tables


def places_in_service(establishment: Establishment, kind: str) -> list[tuple[str, str]]:
    """(code, name) of the house's places of ``kind`` in service, by code."""
    return [(code, name) for place_kind, code, name in _read(establishment).places if place_kind == kind]


def games_played(establishment: Establishment, equipment: str | None = None) -> set[str]:
    """The games of the tables in service (those played with ``equipment`` when given)."""
    from ledgers.core.games import GAMES

    return {
        game
        for _number, game in tables_in_service(establishment)
        if equipment is None or equipment in GAMES[game].equipment
    }
