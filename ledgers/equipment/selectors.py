"""Reads on sabots, shufflers and wheels."""

import datetime
from collections.abc import Sequence
from dataclasses import dataclass, field

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Count, Exists, F, Max, Min, OuterRef, Prefetch, Q, QuerySet, Subquery
from django.db.models.functions import JSONObject

from ledgers.core import hooks
from ledgers.core.catalogue import REQUIREMENTS
from ledgers.core.dashboard import open_parties
from ledgers.core.models import Establishment, GamingTable, Seance, TableSession
from ledgers.custody.models import ItemStatus
from ledgers.custody.selectors import intake_registers
from ledgers.incidents.selectors import has_open_incident
from ledgers.registers.models import EntryKind
from ledgers.registers.services import display_name

from .domains import SHOES
from .models import (
    AssetStatus,
    LaunchRoster,
    LaunchRosterPlace,
    LaunchTurn,
    LidLock,
    Shoe,
    ShoeAllocation,
    Shuffler,
    ShufflerUse,
    Wheel,
    WheelCheck,
)


def shoe_inventory(establishment: Establishment) -> set[str]:
    """Numbers of the sabots in the inventory (IN minus OUT entries of the sabots section of the
    intake register: SHOE-11)."""
    present: set[str] = set()
    for register in intake_registers(SHOES, establishment):
        payloads = register.entries.filter(kind=EntryKind.RECORD).order_by("seq").values_list("payload", flat=True)
        for payload in payloads.iterator():
            if payload.get("movement") == "IN":
                present.update(payload["serials"])
            elif payload.get("movement") == "OUT":
                present.difference_update(payload["serials"])
    return present


def shoes_in_stock(establishment: Establishment) -> QuerySet[Shoe]:
    """Sabots in stock in a depot, that may be allocated to a table: the one that has rested
    longest first, so that the same sabots do not keep going to the same tables (SHOE-05)."""
    return (
        Shoe.objects.filter(establishment=establishment, status=ItemStatus.IN_STOCK, location__isnull=False)
        .annotate(last_allocated=Max("allocations__allocated_at"))
        .order_by(F("last_allocated").asc(nulls_first=True), "serial")
        .select_related("location", "model")
    )


def previous_seances(seance: Seance, count: int) -> list[Seance]:
    """The ``count`` séances of the establishment just before ``seance``."""
    earlier = Q(date__lt=seance.date) | Q(date=seance.date, opened_at__lt=seance.opened_at)
    return list(
        Seance.objects.filter(earlier, establishment_id=seance.establishment_id).order_by("-date", "-opened_at")[:count]
    )


def recent_allocation(shoe: Shoe, table: GamingTable, seance: Seance, window: int) -> ShoeAllocation | None:
    """The allocation of this sabot to this table within the last ``window`` séances (SET-20)."""
    if window <= 0:
        return None
    return (
        ShoeAllocation.objects.filter(
            shoe=shoe, table_session__table=table, table_session__seance__in=previous_seances(seance, window)
        )
        .select_related("table_session__seance")
        .first()
    )


def repeated_pairs(
    establishment: Establishment, date_from: datetime.date, date_to: datetime.date, minimum: int = 2
) -> list[dict]:
    """Sabot × table pairs allocated ``minimum`` times or more over the period: the periodic report
    that shows whether the same sabots go systematically to the same tables (SHOE-05, SHOE-12)."""
    rows = (
        ShoeAllocation.objects.filter(
            establishment=establishment,
            table_session__seance__date__gte=date_from,
            table_session__seance__date__lte=date_to,
        )
        .values("shoe__serial", "table_session__table__number")
        .annotate(
            count=Count("id"),
            first=Min("table_session__seance__date"),
            last=Max("table_session__seance__date"),
            flagged=Count("id", filter=~Q(flags=[])),
        )
        .filter(count__gte=minimum)
        .order_by("-count", "shoe__serial", "table_session__table__number")
    )
    return [
        {
            "shoe": row["shoe__serial"],
            "table": row["table_session__table__number"],
            "count": row["count"],
            "first": row["first"],
            "last": row["last"],
            "flagged": row["flagged"],
        }
        for row in rows
    ]


def flagged_allocations(establishment: Establishment) -> QuerySet[ShoeAllocation]:
    return (
        ShoeAllocation.objects.filter(establishment=establishment)
        .exclude(flags=[])
        .select_related("shoe", "table_session__table", "table_session__seance", "allocated_by")
    )


def live_sessions(establishment: Establishment) -> QuerySet[TableSession]:
    """Table-parties being prepared or open in the open séances."""
    return (
        TableSession.objects.filter(seance__establishment=establishment, seance__status=Seance.Status.OPEN)
        .exclude(status=TableSession.Status.CLOSED)
        .select_related("table", "seance")
        .order_by("table__number")
    )


def shufflers_at(table: GamingTable) -> QuerySet[Shuffler]:
    return Shuffler.objects.filter(socle__table=table).select_related("model", "socle")


def passed_check(session: TableSession, wheel: Wheel) -> WheelCheck | None:
    """The latest check of this wheel for this table-partie, if it passed."""
    latest = WheelCheck.objects.filter(table_session=session, wheel=wheel).order_by("-checked_at").first()
    return latest if latest is not None and latest.passed else None


@dataclass
class TableEquipment:
    """What stands at one table now, for the overview."""

    table: GamingTable
    session: TableSession | None
    shoes: list[Shoe] = field(default_factory=list)
    shufflers: list[Shuffler] = field(default_factory=list)
    uses: list[ShufflerUse] = field(default_factory=list)
    wheel: Wheel | None = None
    wheel_quarantined: bool = False
    check: WheelCheck | None = None
    lid: LidLock | None = None


def table_overview(establishment: Establishment) -> list[TableEquipment]:
    sessions = {s.table_id: s for s in live_sessions(establishment)}
    shoes_by_session: dict[int, list[Shoe]] = {}
    for shoe in Shoe.objects.filter(table_session__in=sessions.values()).select_related("model"):
        shoes_by_session.setdefault(shoe.table_session_id, []).append(shoe)
    shufflers: dict[int, list[Shuffler]] = {}
    for shuffler in Shuffler.objects.filter(establishment=establishment, socle__isnull=False).select_related("socle"):
        shufflers.setdefault(shuffler.socle.table_id, []).append(shuffler)
    uses: dict[int, list[ShufflerUse]] = {}
    for use in ShufflerUse.objects.filter(table_session__in=sessions.values()).select_related("shuffler"):
        uses.setdefault(use.table_session_id, []).append(use)
    wheels = {w.table_id: w for w in Wheel.objects.filter(establishment=establishment, table__isnull=False)}
    rows = []
    tables = GamingTable.objects.filter(establishment=establishment, active=True).select_related("room")
    for table in tables.order_by("number"):
        session = sessions.get(table.pk)
        row = TableEquipment(
            table=table, session=session, shufflers=shufflers.get(table.pk, []), wheel=wheels.get(table.pk)
        )
        if session is not None:
            row.shoes = shoes_by_session.get(session.pk, [])
            row.uses = uses.get(session.pk, [])
            if row.wheel is not None:
                row.check = WheelCheck.objects.filter(table_session=session, wheel=row.wheel).first()
                row.lid = LidLock.objects.filter(table_session=session).first()
        if row.wheel is not None:
            row.wheel_quarantined = has_open_incident(row.wheel)
        rows.append(row)
    return rows


def in_service_shufflers(establishment: Establishment) -> QuerySet[Shuffler]:
    return Shuffler.objects.filter(establishment=establishment, status=AssetStatus.IN_SERVICE)


# What the equipment flows ask of each table-partie, read with the séances' parties.
hooks.party_facts(
    rostered=lambda: Exists(LaunchRoster.objects.filter(table_session=OuterRef("pk"))),
    with_shoe=lambda: Exists(Shoe.objects.filter(table_session=OuterRef("pk"))),
    wheel_checked=lambda: Exists(WheelCheck.objects.filter(table_session=OuterRef("pk"), passed=True)),
    # The first shuffler use whose end is not confirmed (None when there is none): what it needs to
    # be named and whether it ended (``hooks.check_shuffler_ended``).
    shuffler_open_use=lambda: Subquery(
        ShufflerUse.objects.filter(table_session=OuterRef("pk"), end_confirmed=False)
        .order_by("pk")
        .values(json=JSONObject(ended_at="ended_at", machine_type="shuffler__machine_type", number="shuffler__number"))[
            :1
        ]
    ),
)


def waiting_at_tables(establishment: Establishment) -> list[tuple[TableSession, str]]:
    """What the live table-parties still need from the equipment flows, for the dashboard."""
    from .specs import CHECK_RULES, ROTATION_GAMES, SHOE_GAMES_FR

    checks = CHECK_RULES[establishment.jurisdiction]
    rotation = ROTATION_GAMES[establishment.jurisdiction]
    # Only the live table-parties' rows, with what each has (``hooks.party_facts`` below), as the
    # home reads them once: the history of every past partie is never read.
    live = [session for session in open_parties(establishment) if session.status != TableSession.Status.CLOSED]
    rostered = {session.pk for session in live if session.rostered}
    with_shoe = {session.pk for session in live if session.with_shoe}
    checked = {session.pk for session in live if session.wheel_checked}
    open_uses = {session.pk for session in live if session.shuffler_open_use}
    waiting = []
    for session in live:
        game = session.table.game
        if session.status == TableSession.Status.PREPARING and game in checks and session.pk not in checked:
            waiting.append((session, "check"))
        if (
            establishment.jurisdiction == "FR"
            and session.status == TableSession.Status.PREPARING
            and game in SHOE_GAMES_FR
            and session.pk not in with_shoe
        ):
            waiting.append((session, "shoe"))
        if establishment.jurisdiction == "FR" and session.pk in open_uses:
            waiting.append((session, "shuffler_end"))
        if game in rotation and session.pk not in rostered:
            waiting.append((session, "roster"))
    return waiting


# --- Launchers at roulette and boule (WHEEL-09) ------------------------------------------------------


def launch_staff(establishment: Establishment, roles: Sequence[str]) -> QuerySet:
    """The users holding one of ``roles`` here, by name."""
    return (
        get_user_model()
        .objects.filter(memberships__establishment=establishment, memberships__role__in=roles)
        .distinct()
        .order_by("last_name", "first_name", "username")
    )


def roster_in_force(session: TableSession, at: datetime.datetime | None = None) -> LaunchRoster | None:
    """The ordre de roulement of the table-partie in force at ``at`` (now by default): the last one
    set by then."""
    rosters = session.launch_rosters.all()
    if at is not None:
        rosters = rosters.filter(set_at__lte=at)
    places = Prefetch("places", LaunchRosterPlace.objects.select_related("croupier"))
    return rosters.order_by("-set_at", "-pk").prefetch_related(places).first()


def launch_turns(session: TableSession) -> QuerySet[LaunchTurn]:
    """The turns of the table-partie, first to last."""
    return session.launch_turns.order_by("started_at", "pk").select_related("launcher", "recorded_by")


def next_launcher(session: TableSession) -> AbstractBaseUser | None:
    """Whose turn it is in the roster in force: the croupier after the last launcher (the first one
    when nobody has launched yet or the last launcher is not in the order)."""
    roster = roster_in_force(session)
    if roster is None:
        return None
    order = [place.croupier for place in roster.places.all()]
    last = session.launch_turns.order_by("-started_at", "-pk").values_list("launcher", flat=True).first()
    ids = [user.pk for user in order]
    return order[(ids.index(last) + 1) % len(order)] if last in ids else order[0]


def launch_counts(session: TableSession) -> list[tuple[AbstractBaseUser, int]]:
    """How many turns each launcher took at the table-partie, most first."""
    counts: dict[int, int] = {}
    users: dict[int, AbstractBaseUser] = {}
    for turn in launch_turns(session):
        counts[turn.launcher_id] = counts.get(turn.launcher_id, 0) + 1
        users[turn.launcher_id] = turn.launcher
    return sorted(((users[pk], n) for pk, n in counts.items()), key=lambda row: -row[1])


# --- Exceptions (FLAG checks) ----------------------------------------------------------------------


@dataclass
class EquipmentFlag:
    """One flag raised by an equipment record: allowed, but reported to inspectors and authorities."""

    code: str
    text: str
    at: datetime.datetime
    session: TableSession
    subject: str

    @property
    def article(self) -> str:
        return REQUIREMENTS[self.code].article if self.code in REQUIREMENTS else ""


def exceptions(establishment: Establishment) -> list[EquipmentFlag]:
    """The flags of the sabot allocations (SHOE-05, SHOE-12, AMB-49) and of the launch turns
    (WHEEL-09), newest first."""
    rows = [
        EquipmentFlag(
            flag["code"], flag["text"], allocation.allocated_at, allocation.table_session, str(allocation.shoe)
        )
        for allocation in flagged_allocations(establishment)
        for flag in allocation.flags
    ]
    turns = (
        LaunchTurn.objects.filter(establishment=establishment)
        .exclude(flags=[])
        .select_related("launcher", "table_session__table", "table_session__seance")
    )
    rows += [
        EquipmentFlag(flag["code"], flag["text"], turn.started_at, turn.table_session, display_name(turn.launcher))
        for turn in turns
        for flag in turn.flags
    ]
    return sorted(rows, key=lambda row: row.at, reverse=True)
