"""Preconditions that domain apps attach to table sessions and séances.

Core must not import the domain apps, yet a table may open only when their rules allow it
(second control done, dice allocation signed, wheel checked…), and a séance may close only when
every mandatory record of its tables is complete (REG-25). Each app registers its checks in its
``hooks.py``, which its ``AppConfig.ready()`` imports: a table check raises ``RuleViolation`` to
refuse; a séance check returns what is still missing, so that the closing page can list all of it
at once, and what it only flags (``Missing.flag``). Core's own séance check, the table-parties
that cannot end, is the last one below.
"""

import functools
from collections.abc import Callable, Iterable, Iterator
from contextlib import AbstractContextManager, contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from django.core.exceptions import ImproperlyConfigured, ValidationError
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from .errors import RuleViolation
from .models import TableSession
from .prepared import Bound, Prepared
from .seances import table_session_url

if TYPE_CHECKING:
    import datetime
    from decimal import Decimal

    from django.db.models import QuerySet

    from .models import Establishment, GamingTable, Seance

Check = Callable[["TableSession"], None]


@dataclass(frozen=True)
class Missing:
    """One mandatory record a séance still lacks: what (in words), the requirement that asks for
    it, and where it is done (a URL, or "" when there is no page for it)."""

    what: str | Promise
    code: str
    url: str = ""
    flag: bool = False  # a FLAG of the catalogue: listed at the closing, which it does not refuse


SeanceCheck = Callable[["Seance"], Iterable[Missing]]
_seance_checks: list[SeanceCheck] = []
# Checks that only ever flag (``on_seance_closing(flags_only=True)``): what the séance still lacks
# does not read them, so the closing and the homes do not pay their queries.
_flag_only_checks: set[SeanceCheck] = set()

_opening_checks: list[Check] = []
_closing_checks: list[Check] = []


def on_table_opening(check: Check) -> Check:
    if check not in _opening_checks:
        _opening_checks.append(check)
    return check


def on_table_closing(check: Check) -> Check:
    if check not in _closing_checks:
        _closing_checks.append(check)
    return check


def run_opening_checks(session: "TableSession") -> None:
    for check in _opening_checks:
        check(session)


def run_closing_checks(session: "TableSession") -> None:
    for check in _closing_checks:
        check(session)


# Reading the checks of many table-parties at once (a séance's closing, a home's buttons): within
# ``read_together(sessions)``, a check's ``per_session`` fact is loaded once for all of them (one
# query, not one per partie); outside it, for the one partie asked. The same for séances: within
# ``seances_read_together(seances)`` (the home's open séances), a séance check's ``per_seance``
# fact is loaded once for all of them, and so is every table-partie's closing check. Read-only:
# nothing may be written while the facts are held.
T = TypeVar("T")
Facts = tuple[dict[int, Any], dict[str, dict[int, Any]]]  # the objects read together by pk, the facts loaded
_read_together: ContextVar[Facts | None] = ContextVar("read_together", default=None)
_seances_together: ContextVar[Facts | None] = ContextVar("seances_together", default=None)


@contextmanager
def _together(facts: ContextVar[Facts | None], objects: Iterable[Any]) -> Iterator[None]:
    members = {o.pk: o for o in objects}
    current = facts.get()
    if current is not None and members.keys() <= current[0].keys():  # already read together with more
        yield
        return
    token = facts.set((members, {}))
    try:
        yield
    finally:
        facts.reset(token)


def _loaded(
    facts: ContextVar[Facts | None], name: str, obj: Any, load: Callable[[list[Any]], dict[int, T]], whole: bool
) -> dict[int, T]:
    """``load``'s facts for every object read together with ``obj`` (for ``obj`` alone outside),
    given their pks, or the objects themselves when ``whole``."""
    together = facts.get()
    if together is None or obj.pk not in together[0]:
        return load([obj if whole else obj.pk])
    members, loaded = together
    if name not in loaded:
        loaded[name] = load([members[pk] if whole else pk for pk in sorted(members)])
    return loaded[name]


def read_together(sessions: Iterable["TableSession"]) -> AbstractContextManager[None]:
    return _together(_read_together, sessions)


def per_session(name: str, session: "TableSession", load: Callable[[list[int]], dict[int, T]], default: T) -> T:
    """The fact ``name`` of ``session``: ``load(pks)`` gives it by table-partie pk for every
    partie read together (``default`` for those it leaves out)."""
    return _loaded(_read_together, name, session, load, False).get(session.pk, default)


def per_seance(name: str, seance: "Seance", load: Callable[[list[int]], dict[int, T]], default: T) -> T:
    """The fact ``name`` of ``seance``: ``load(pks)`` gives it by séance pk for every séance read
    together (``default`` for those it leaves out)."""
    return _loaded(_seances_together, name, seance, load, False).get(seance.pk, default)


def per_seance_of(name: str, seance: "Seance", load: Callable[[list["Seance"]], dict[int, T]], default: T) -> T:
    """``per_seance``, ``load`` given the séances themselves (their establishment, date, opening)."""
    return _loaded(_seances_together, name, seance, load, True).get(seance.pk, default)


# What the apps read of every table-partie of a séance (a float received, a shoe allocated…):
# annotations of the query that reads the séance's parties, each app contributing its own with
# ``party_facts``, so that the parties of every open séance are read with all of them in one query.
_party_facts: dict[str, Callable[[], Any]] = {}
_party_related: list[str] = ["table__establishment", "seance__establishment"]  # the checks read both


def party_facts(*related: str, **facts: Callable[[], Any]) -> None:
    """Register each ``facts[name]()`` as the annotation ``name`` of the séances' table-parties,
    with the ``related`` objects they need read along."""
    _party_facts.update(facts)
    _party_related.extend(path for path in related if path not in _party_related)
    _parties_read.cache_clear()
    _open_parties_read.cache_clear()


# What the apps read of every open séance (another séance of its day still open…): annotations of
# the query that reads the open séances, each app contributing its own with ``seance_zone_facts``,
# so that the home reads the open séances with all of them in one query. They name no house, day or
# setting and depend only on the house's jurisdiction and time zone (``facts(jurisdiction, zone)``):
# the query with them is compiled once for each. What they read of a house's day or settings are
# ``Bound`` parameters, whose values each app gives with ``seance_fact_values(establishment)``.
ZoneFacts = Callable[[str, str], dict[str, Any]]
FactValues = Callable[["Establishment"], dict[str, Any]]
_zone_facts: list[ZoneFacts] = []
_fact_values: list[FactValues] = []


def seance_fact_values(values: FactValues) -> FactValues:
    """Register ``values(establishment)``, the values ``{name: value}`` of the ``Bound`` parameters
    of the séances' facts (``seance_zone_facts``) for the house."""
    if values not in _fact_values:
        _fact_values.append(values)
    return values


def seance_zone_facts(facts: ZoneFacts) -> ZoneFacts:
    """Register ``facts(jurisdiction, zone)``, the annotations ``{name: expression}`` of the séances
    of every house of that jurisdiction and time zone (naming no house, day or setting)."""
    if facts not in _zone_facts:
        _zone_facts.append(facts)
        _open_seances_read.cache_clear()
    return facts


@functools.cache
def _open_seances_read(jurisdiction: str, zone: str) -> "Prepared[Seance]":
    """A house's open séances (``Bound`` "house") with every fact of ``seance_zone_facts``, with
    their establishment (the checks read it), by date, compiled once for each jurisdiction and time
    zone: building and compiling their subqueries costs each home more than running them."""
    from .models import Seance

    facts = {name: fact for facts in _zone_facts for name, fact in facts(jurisdiction, zone).items()}
    found = Seance.objects.select_related("establishment").annotate(**facts).order_by("date", "pk")
    return Prepared(found.filter(establishment=Bound("house"), status=Seance.Status.OPEN))


def open_seances_with_facts(establishment: "Establishment") -> "list[Seance]":
    """The open séances of ``establishment``, with their establishment and every app's facts
    (``seance_zone_facts``, their parameters' values ``seance_fact_values``), by date."""
    values = {name: value for values in _fact_values for name, value in values(establishment).items()}
    return _open_seances_read(establishment.jurisdiction, establishment.timezone).read(house=establishment.pk, **values)


def party_fact(session: "TableSession", name: str) -> Any:
    """The fact ``name`` (``party_facts``) of ``session``: its annotation when the partie was read
    with its séance's (``parties_with_facts``), else read for every partie read together with it
    (``read_together``) in one query."""
    if hasattr(session, name):
        return getattr(session, name)

    def load(pks: list[int]) -> dict[int, Any]:
        facts = TableSession.objects.filter(pk__in=pks).annotate(fact=_party_facts[name]())
        return dict(facts.values_list("pk", "fact"))

    return per_session(f"core.party_fact.{name}", session, load, None)


@functools.cache
def _parties_read() -> "QuerySet[TableSession]":
    """The table-parties with every fact, built once (again when a fact is registered): the facts
    name no house, day or user, and building and resolving a dozen subqueries costs each home more
    than reading them."""
    facts = {name: expression() for name, expression in _party_facts.items()}
    return TableSession.objects.select_related(*_party_related).annotate(**facts).order_by("table__number", "pk")


def parties_with_facts(**filters: Any) -> "QuerySet[TableSession]":
    """The table-parties that match ``filters``, with every app's facts (``party_facts``), by table number."""
    return _parties_read().filter(**filters)


@functools.cache
def _open_parties_read() -> "Prepared[TableSession]":
    """The table-parties of a house's open séances with every fact, compiled once (again when a
    fact is registered): compiling their dozen subqueries costs each home more than running them."""
    from .models import Seance

    return Prepared(parties_with_facts(seance__establishment=Bound("house"), seance__status=Seance.Status.OPEN))


def open_parties_with_facts(establishment: "Establishment") -> list[TableSession]:
    """Every table-partie of the open séances of ``establishment``, with every app's facts
    (``party_facts``), by table number."""
    return _open_parties_read().read(house=establishment.pk)


def _seance_parties(pks: list[int]) -> dict[int, list[TableSession]]:
    parties: dict[int, list[TableSession]] = {}
    for session in parties_with_facts(seance_id__in=pks):
        parties.setdefault(session.seance_id, []).append(session)
    return parties


def seance_parties(seance: "Seance") -> list[TableSession]:
    """Every table-partie of ``seance``, with the apps' facts (``party_facts``), by table number;
    within ``seances_read_together``, read with those of every séance read together."""
    return per_seance("core.seance_parties", seance, _seance_parties, [])


@contextmanager
def seances_read_together(seances: Iterable["Seance"], parties: Iterable[TableSession] | None = None) -> Iterator[None]:
    """Within the block, the séance checks read every séance of ``seances`` together, their table-
    parties (``parties``, every one of those séances' when already read, else read here) and the
    closing checks of those still to end."""
    seances = list(seances)
    with _together(_seances_together, seances):
        together = _seances_together.get()
        if parties is not None and together is not None and "core.seance_parties" not in together[1]:
            grouped: dict[int, list[TableSession]] = {}
            for session in parties:
                grouped.setdefault(session.seance_id, []).append(session)
            together[1]["core.seance_parties"] = grouped
        to_end = [s for seance in seances for s in seance_parties(seance) if s.status != TableSession.Status.CLOSED]
        with read_together(to_end):
            yield


def _refusals(checks: list[Check], session: "TableSession") -> list[RuleViolation]:
    refusals = []
    for check in checks:
        try:
            check(session)
        except RuleViolation as exc:
            refusals.append(exc)
    return refusals


def opening_refusals(session: "TableSession") -> list[RuleViolation]:
    """Every refusal the opening checks would give the table-partie now (not only the first)."""
    return _refusals(_opening_checks, session)


def closing_refusals(session: "TableSession") -> list[RuleViolation]:
    """Every refusal the closing checks would give the table-partie now (not only the first)."""
    return _refusals(_closing_checks, session)


# What a table-partie would open without although no text refuses it (no staff logged, no limits
# fixed, no cards issued): ``gap(session)`` returns the missing things as ``Missing``; the opening
# asks the person opening to confirm them by name (``opening_confirmation``).
OpeningGap = Callable[["TableSession"], Iterable[Missing]]
_opening_gaps: list[OpeningGap] = []


def on_table_opening_gap(gap: OpeningGap) -> OpeningGap:
    if gap not in _opening_gaps:
        _opening_gaps.append(gap)
    return gap


def opening_gaps(session: "TableSession") -> list[Missing]:
    """Everything the table-partie would open without, in the order the apps registered them."""
    return [missing for gap in _opening_gaps for missing in gap(session)]


def opening_confirmation(session: "TableSession", confirmed: bool) -> None:
    """The one check the opening page and the API run before opening: a table-partie that would open
    without something its texts expect opens only once the person confirms it, by name."""
    if session.status != TableSession.Status.PREPARING:
        return
    refusals = opening_refusals(session)
    if refusals:  # a refused opening is refused, not asked about
        raise refusals[0]
    if confirmed:
        return
    gaps = opening_gaps(session)
    if gaps:
        raise ValidationError(
            _("Confirmez l'ouverture sans : %(gaps)s.") % {"gaps": " ; ".join(f"{g.what} ({g.code})" for g in gaps)}
        )


# Checks before a séance opens: ``check(establishment, date)`` raises ``RuleViolation`` to refuse
# (e.g. FR SLOT-38: a JPM member's room opens only once the day's modèle 28 S line is written).
SeanceOpeningCheck = Callable[["Establishment", "datetime.date"], None]
_seance_opening_checks: list[SeanceOpeningCheck] = []


def on_seance_opening(check: SeanceOpeningCheck) -> SeanceOpeningCheck:
    if check not in _seance_opening_checks:
        _seance_opening_checks.append(check)
    return check


def run_seance_opening_checks(establishment: "Establishment", date: "datetime.date") -> None:
    for check in _seance_opening_checks:
        check(establishment, date)


# Checks before a gaming table is set up (added, its game changed, put in or out of service):
# ``check(table)`` receives the table as it would stand after the act, not yet saved (a new one has
# no pk), and raises ``RuleViolation`` to refuse (FR: the arrêté d'autorisation and the prior
# declarations, AUTH-01, AUTH-03).
TableSetupCheck = Callable[["GamingTable"], None]
_table_setup_checks: list[TableSetupCheck] = []


def on_table_setup(check: TableSetupCheck) -> TableSetupCheck:
    if check not in _table_setup_checks:
        _table_setup_checks.append(check)
    return check


def run_table_setup_checks(table: "GamingTable") -> None:
    for check in _table_setup_checks:
        check(table)


def on_seance_closing(
    check: SeanceCheck | None = None, *, flags_only: bool = False
) -> SeanceCheck | Callable[[SeanceCheck], SeanceCheck]:
    """Register a séance check (usable as ``@on_seance_closing`` or, for a check that yields only
    flags, ``@on_seance_closing(flags_only=True)``)."""

    def declare(check: SeanceCheck) -> SeanceCheck:
        if check not in _seance_checks:
            _seance_checks.append(check)
        if flags_only:
            _flag_only_checks.add(check)
        return check

    return declare if check is None else declare(check)


def seance_missing(seance: "Seance") -> list[Missing]:
    """Every mandatory record the séance still lacks, in the order the apps registered their checks."""
    return [
        missing
        for check in _seance_checks
        if check not in _flag_only_checks
        for missing in check(seance)
        if not missing.flag
    ]


def seance_flags(seance: "Seance") -> list[Missing]:
    """What the closing page flags without refusing the closing (e.g. keys still out, KEY-05)."""
    return [missing for check in _seance_checks for missing in check(seance) if missing.flag]


# Panels other apps add to the table-partie page (staffing, limits…): ``panel(request, session)``
# returns the HTML of its section, or "" when it has nothing to show for that table.
TablePanel = Callable[[Any, "TableSession"], str]
_table_panels: list[TablePanel] = []


def on_table_page(panel: TablePanel) -> TablePanel:
    if panel not in _table_panels:
        _table_panels.append(panel)
    return panel


def table_page_panels(request: Any, session: "TableSession") -> list[str]:
    return [html for panel in _table_panels if (html := panel(request, session))]


# Monthly totals one app certifies and another carries (FR: the modèle 35 slot total that the
# carnet des prélèvements modèle 13 takes, COUNT-57): ``total(establishment, year, month)`` gives
# the certified total, None while the month is not certified.
MonthTotal = Callable[["Establishment", int, int], "Decimal | None"]
_month_totals: dict[str, MonthTotal] = {}
SLOT_STATEMENT_TOTAL = "slot_statement_35"


def provides_month_total(name: str) -> Callable[[MonthTotal], MonthTotal]:
    def declare(total: MonthTotal) -> MonthTotal:
        _month_totals[name] = total
        return total

    return declare


def month_total(name: str, establishment: "Establishment", year: int, month: int) -> "Decimal | None":
    """The certified total ``name`` of the month, None while it is not certified or no app provides it."""
    total = _month_totals.get(name)
    return total(establishment, year, month) if total else None


# An act of one app that is also a line of a register another app keeps (FR: a sabot's allocation
# is written on the table's carnet d'avances or modèle 11, which the table cash keeps). The acting
# app announces the act; the keeper of the register writes its own line in the same transaction.
SHOE_ALLOCATED = "shoe_allocated"
Recorder = Callable[..., None]
_recorders: dict[str, list[Recorder]] = {}


def records(event: str) -> Callable[[Recorder], Recorder]:
    def declare(recorder: Recorder) -> Recorder:
        if recorder not in _recorders.setdefault(event, []):
            _recorders[event].append(recorder)
        return recorder

    return declare


def announce(event: str, **facts: Any) -> None:
    """Have every app that keeps a register line of ``event`` write it."""
    for recorder in _recorders.get(event, ()):
        recorder(**facts)


# Core's own acts are register lines too, yet core keeps no register: the app that keeps the
# register of each act declares its writer (``records``), and the act's service has it written in
# its transaction (``record``): the séance opened or closed in the main courante, the table-partie
# prepared, opened or ended in the table-partie log, a setting changed in the main courante, a
# gaming table set up in the register of its jurisdiction. Each receives the act's object, the actor
# and the role they act in.
SEANCE_OPENED = "seance_opened"
SEANCE_CLOSED = "seance_closed"
TABLE_PREPARED = "table_prepared"
TABLE_OPENED = "table_opened"
TABLE_CLOSED = "table_closed"
# A setting of the establishment changed (``establishment_setting_write``): the establishment, the
# setting's code and its value before.
SETTING_CHANGED = "setting_changed"
# A gaming table set up (``gaming_table_create``, ``gaming_table_change``): the table as the act
# leaves it, and ``before``, the table as it stood (None when it is added).
TABLE_SET_UP = "table_set_up"
# An act on who may act as what, or on the establishment's set-up (the establishment created, a
# role granted or revoked, an account created, invited or deactivated, a room or a place added, a
# second factor enrolled): a line of the register of authorisations. Facts: ``establishment``,
# ``actor`` (None: the system, e.g. the directory), ``role`` (the role acted in), ``subject`` (the
# act in words), ``text`` (a callable giving the line's relation, evaluated in the registers'
# language) and, by key, what the line is about (``person``: the login concerned, ``granted``: a
# role code, ``valid_from``).
STAFF_ACT = "staff_act"


def set_up_act(table: "GamingTable", before: "GamingTable | None") -> Promise:
    """A table's set-up act in words, as its register line names it."""
    if before is None:
        return _("Mise en service d'une table")
    if before.game != table.game:
        return _("Changement de jeu d'une table")
    return _("Remise en service d'une table") if table.active else _("Mise hors service d'une table")


def set_up_detail(table: "GamingTable", before: "GamingTable | None") -> str:
    """The table as a set-up act leaves it, in words: game, room, seats, and the game it replaces."""
    detail = _("%(game)s, %(room)s, %(seats)s places") % {
        "game": table.get_game_display(),
        "room": table.room.name,
        "seats": table.seats,
    }
    if before is not None and before.game != table.game:
        detail = _("%(detail)s (jeu précédent : %(before)s)") % {"detail": detail, "before": before.get_game_display()}
    return str(detail)


def record(event: str, **facts: Any) -> None:
    """Have the line of ``event`` written, as ``announce`` does; an act that no app writes down is
    a configuration error, never an act left unwritten."""
    if not _recorders.get(event):
        raise ImproperlyConfigured(f"no register keeps the line of {event!r}")
    announce(event, **facts)


@on_seance_closing
def table_parties_closable(seance: "Seance") -> Iterator[Missing]:
    """Each table-partie still open or in preparation must be able to end: every refusal its
    closing checks give is a missing record. The séance closing then ends those parties."""
    sessions = [session for session in seance_parties(seance) if session.status != TableSession.Status.CLOSED]
    with read_together(sessions):
        refusals = [(session, closing_refusals(session)) for session in sessions]
    for session, found in refusals:
        for refusal in found:
            yield Missing(
                _("Table %(table)s : %(message)s") % {"table": session.table.number, "message": refusal.message},
                refusal.code,
                table_session_url(session),
            )
