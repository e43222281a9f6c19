import datetime
import functools
import operator
from typing import Any
from zoneinfo import ZoneInfo

from django.db.models import (
    BooleanField,
    CharField,
    DateField,
    Exists,
    ExpressionWrapper,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
)
from django.utils.translation import gettext_lazy as _

from ledgers.core.models import Establishment, GamingTable, Seance, TableSession
from ledgers.core.prepared import Bound, Prepared
from ledgers.core.selectors import object_read

from .models import ClosingExtension, PartieBanker, StaffAssignment, TableLimits
from .rules import Position, staffed_games, staffing_for, staffing_of


def staff_of(session: TableSession) -> QuerySet[StaffAssignment]:
    return StaffAssignment.objects.filter(table_session=session).select_related("person", "relief_of__person")


def on_duty(session: TableSession, position: str | None = None) -> QuerySet[StaffAssignment]:
    """Who is on duty at the table now (at one position, or at any)."""
    duty = StaffAssignment.objects.filter(table_session=session, ended_at__isnull=True)
    return duty.filter(position=position) if position else duty


def on_duty_at(session: TableSession, position: str, moment: datetime.datetime) -> QuerySet[StaffAssignment]:
    """Who held ``position`` at the table at ``moment`` (e.g. the inspecteur a called bet needs, GAME-20)."""
    return (
        staff_of(session)
        .filter(position=position, started_at__lte=moment)
        .filter(Q(ended_at__isnull=True) | Q(ended_at__gt=moment))
    )


def limits_of(session: TableSession) -> QuerySet[TableLimits]:
    return TableLimits.objects.filter(table_session=session).select_related("set_by").order_by("set_at", "pk")


def seats_of(session: TableSession) -> int:
    latest = limits_of(session).last()
    return latest.seats if latest is not None else session.table.seats


def with_seats(sessions: QuerySet[TableSession]) -> QuerySet[TableSession]:
    """``sessions`` annotated with ``limits_seats``: the seats of their latest limits (None where
    none were fixed, the table's own seats then apply, as in ``seats_of``), in the same query."""
    latest = TableLimits.objects.filter(table_session=OuterRef("pk")).order_by("-set_at", "-pk").values("seats")[:1]
    return sessions.annotate(limits_seats=Subquery(latest))


def exceptions(
    establishment: Establishment, days: int = 90, latest: int | None = None
) -> list[tuple[str, str, TableSession]]:
    """FLAG rows for the exceptions list, (requirement, what, table-partie), over the séances of
    the last ``days`` days: flagged assignments and reliefs (GAME-10, 15, 42), table-parties
    opened with no staff logged although their text fixes a composition, banks à tout va with no
    banker (GAME-31) and MC parties closed late (GAME-29). Two queries, whatever the history.
    With ``latest``, only the ``latest`` rows of the most recent séances, oldest first, each
    source giving at most that many, the most recent."""
    since = establishment.localtime().date() - datetime.timedelta(days=days)
    rows: list[tuple[str, str, TableSession | Any]] = [
        (flag["code"], f"{duty} — {flag['text']}", duty.table_session)
        for duty in _flagged_duties(latest).read(house=establishment.pk, since=since)
        for flag in duty.flags
    ]
    # The flagged parties as scanned, made table-parties only if shown: most are cut by ``latest``.
    unstaffed, late, banks = _flagged_parties(establishment, since, latest)
    rows += [(code, "", row) for code, row in unstaffed]  # named by its game once made
    rows += [
        ("GAME-29", str(_("Partie fermée après l'heure de fermeture sans prolongation inscrite")), row) for row in late
    ]
    rows += [("GAME-31", str(_("Banque à tout va ouverte sans banquier agréé désigné")), row) for row in banks]
    if latest:
        rows.sort(key=_recency)
        rows = rows[-latest:]
    return [_made(establishment, row) for row in rows]


@functools.cache
def _flagged_duties(latest: int | None) -> Prepared[StaffAssignment]:
    """The flagged assignments and reliefs of a house's séances since a day (``Bound`` "house" and
    "since"), most recent first (the ``latest`` only, if given), compiled once: compiling them for
    every read costs more than running them."""
    duties = (
        StaffAssignment.objects.filter(table_session__seance__establishment=Bound("house"))
        .filter(table_session__seance__date__gte=Bound("since", DateField()))
        .exclude(flags=[])
        .select_related("table_session__table", "table_session__seance", "person")
        .order_by("-table_session__seance__date", "-table_session__opened_at", "-pk")
    )
    return Prepared(duties[:latest] if latest else duties)


def _recency(row: tuple[str, str, TableSession | Any]) -> tuple:
    """(séance date, opening, pk) of a row's table-partie, made or as scanned (``_flagged_parties``)."""
    party = row[2]
    if isinstance(party, TableSession):
        day, opened_at, pk = party.seance.date, party.opened_at, party.pk
    else:
        day, opened_at, pk = party.seance__date, party.opened_at, party.id
    return day, opened_at.timestamp() if opened_at else 0, pk


def _made(establishment: Establishment, row: tuple[str, str, TableSession | Any]) -> tuple[str, str, TableSession]:
    """The row with its table-partie made from the scanned values, if it was not read as one."""
    code, what, party = row
    if isinstance(party, TableSession):
        return row
    party = _party(establishment, party)
    # Named by its game: each composition's flag says which tables it is about.
    game = str(_("%(game)s : table ouverte sans personnel inscrit") % {"game": party.table.get_game_display()})
    return code, what or game, party


# What the flags of a table-partie are decided on and what they show of it, read for every candidate.
PARTY_FIELDS = ("id", "seance_id", "table_id", "status", "opened_at", "closed_at")
TABLE_FIELDS = ("number", "game", "seats")
SEANCE_FIELDS = ("date", "period", "status")
FLAG_FIELDS = ("limits_seats", "no_staff", "no_banker", "extended_to")


def _party(establishment: Establishment, row) -> TableSession:
    """The table-partie of a scanned row, made from its values with its table and séance (their
    other fields read only if asked)."""

    def related(prefix: str, names: tuple[str, ...]) -> dict:
        return {"establishment_id": establishment.pk, **{name: getattr(row, f"{prefix}__{name}") for name in names}}

    party = object_read(TableSession, {name: getattr(row, name) for name in PARTY_FIELDS})
    party.table = object_read(GamingTable, {"id": row.table_id, **related("table", TABLE_FIELDS)})
    party.seance = object_read(Seance, {"id": row.seance_id, **related("seance", SEANCE_FIELDS)})
    party.table.establishment = party.seance.establishment = establishment
    return party


def _flagged_parties(
    establishment: Establishment, since: datetime.date, latest: int | None
) -> tuple[list[tuple[str, Any]], list[Any], list[Any]]:
    """The table-parties of the séances since ``since`` that a flag names, chosen on a few values of
    each candidate read in one query, as scanned (``_party`` makes them table-parties):
    (composition's code, partie) of those opened with no staff
    logged, most recent first; the MC ones closed after their closing time with no extension
    reaching their end (GAME-29), oldest first; the banks à tout va with no banker named (GAME-31),
    most recent first. With ``latest``, each list holds the ``latest`` most recent at most."""
    jurisdiction = establishment.jurisdiction
    fixed = _fixed_closings(establishment) if jurisdiction == "MC" else {}
    periods = {f"period{n}": period for n, period in enumerate(fixed)}
    candidates = _candidates(jurisdiction, len(fixed)).read(house=establishment.pk, since=since, **periods)
    unstaffed, late, banks = [], [], []
    zone = establishment.timezone
    closings: dict[tuple[datetime.date, str], datetime.datetime | None] = {}  # a séance's, for each of its parties
    for row in candidates:
        recent = (row.seance__date, row.opened_at, row.id)
        seats = row.limits_seats or row.table__seats
        if row.opened_at and row.no_staff and (staffing := staffing_of(jurisdiction, row.table__game, seats)):
            unstaffed.append((recent, (staffing.code, row)))
        if row.opened_at and row.no_banker:
            banks.append((recent, row))
        if (day := (row.seance__date, row.seance__period)) not in closings:
            closings[day] = _closing_at(fixed, zone, *day)
        closing = closings[day]
        if (
            row.closed_at
            and closing
            and row.closed_at > closing
            and not (row.extended_to and row.closed_at <= row.extended_to)
        ):
            late.append(((row.seance__date, row.closed_at, row.id), row))

    def most_recent(found: list) -> list:
        return [item for _order, item in sorted(found, key=operator.itemgetter(0), reverse=True)[:latest]]

    return most_recent(unstaffed), most_recent(late)[::-1], most_recent(banks)


@functools.cache
def _candidates(jurisdiction: str, periods: int) -> Prepared[TableSession]:
    """The values (``PARTY_FIELDS``…) of the table-parties a flag may name, with what their flags
    are decided on (``FLAG_FIELDS``), of a house's séances since a day (``Bound`` "house" and
    "since"): those opened with no staff at a table of a game whose composition the texts of
    ``jurisdiction`` fix, or with no banker, and those closed of séances of the ``periods`` periods
    whose closing the house fixes ("period0"…). Compiled once for each jurisdiction and number of
    periods: compiling their subqueries for every home costs more than running them."""
    bank = Q(table__game="banque_tout_va") & ~Exists(PartieBanker.objects.filter(table_session=OuterRef("pk")))
    # Each partie with the latest end its extensions give it, read with it (not every extension of the period).
    extended_to = ClosingExtension.objects.filter(table_session=OuterRef("pk")).order_by("-new_end").values("new_end")
    fixed = [Bound(f"period{n}", CharField()) for n in range(periods)]
    columns = PARTY_FIELDS + tuple(f"table__{name}" for name in TABLE_FIELDS)
    columns += tuple(f"seance__{name}" for name in SEANCE_FIELDS) + FLAG_FIELDS
    return Prepared(
        with_seats(TableSession.objects.all())
        .annotate(
            no_staff=~Exists(StaffAssignment.objects.filter(table_session=OuterRef("pk"))),
            no_banker=ExpressionWrapper(bank, output_field=BooleanField()),
            extended_to=Subquery(extended_to[:1]),
        )
        .filter(seance__establishment=Bound("house"), seance__date__gte=Bound("since", DateField()))
        .filter(
            Q(opened_at__isnull=False)
            & (Q(no_staff=True, table__game__in=staffed_games(jurisdiction)) | Q(no_banker=True))
            | Q(closed_at__isnull=False, seance__period__in=fixed)
        )
        .values_list(*columns, named=True)
    )


def _fixed_closings(establishment: Establishment) -> dict[str, list]:
    """The closing times the house fixes (SET-25): period → ["HH:MM", days after the séance's date]."""
    return (establishment.setting("SET-25") or {}).get("closing") or {}


def _closing_at(fixed: dict[str, list], timezone: str, day: datetime.date, period: str) -> datetime.datetime | None:
    if not (closing := fixed.get(period)):
        return None
    at, days = closing
    local = datetime.datetime.combine(day + datetime.timedelta(days=days), datetime.time.fromisoformat(at))
    return local.replace(tzinfo=ZoneInfo(timezone))


def closing_time(seance: Seance) -> datetime.datetime | None:
    """The closing time the house fixes for the séance (SET-25), or None where none is set."""
    return _closing_at(_fixed_closings(seance.establishment), seance.establishment.timezone, seance.date, seance.period)


def closed_late_without_extension(
    establishment: Establishment, days: int = 90, latest: int | None = None
) -> list[TableSession]:
    """MC table-parties closed after their séance's closing time (SET-25) with no extension
    decision reaching their end (GAME-29 FLAG), over the last ``days`` days, oldest first; with
    ``latest``, the most recent ones only."""
    since = establishment.localtime().date() - datetime.timedelta(days=days)
    return [_party(establishment, row) for row in _flagged_parties(establishment, since, latest)[1]]


def banker_of(session: TableSession) -> PartieBanker | None:
    return PartieBanker.objects.filter(table_session=session).select_related("banker").order_by("named_at", "pk").last()


def extensions_of(session: TableSession):
    return ClosingExtension.objects.filter(table_session=session).select_related("decided_by")


def composition_gaps(session: TableSession) -> list[str]:
    """What the staff on duty lacks, or has too much of, against the table's composition."""
    staffing = staffing_for(session.table, seats_of(session))
    if staffing is None:
        return []
    gaps = []
    for position, (low, high) in staffing.positions.items():
        n = on_duty(session, position).count()
        if not low <= n <= high:
            wanted = str(low) if low == high else f"{low}–{high}"
            gaps.append(f"{Position(position).label} : {n} / {wanted}")
    return gaps
