"""Reads on dice: the table's dice, the previous séance, the stock statement, the day view."""

import datetime
from collections import Counter
from dataclasses import dataclass, field

from django.db.models import Exists, OuterRef, Prefetch, Q, QuerySet
from django.utils import timezone

from ledgers.core import hooks
from ledgers.core.dashboard import open_parties
from ledgers.core.models import Establishment, Seance, TableSession
from ledgers.core.prepared import Bound, of_model
from ledgers.custody.models import (
    GONE_STATUSES,
    WITHDRAWN_STATUSES,
    DepotDay,
    DestructionItem,
    DestructionSession,
    ItemStatus,
)
from ledgers.custody.selectors import book_stock
from ledgers.incidents.models import IncidentSubject
from ledgers.incidents.selectors import open_incidents_for
from ledgers.registers.models import Entry

from .domains import DICE
from .models import AllocatedDie, DiceAllocation, DiceCheck, DicePair, Die, PlayRole
from .rules import DICE_GAME


def dice_of(establishment: Establishment | Bound) -> QuerySet[Die]:
    return Die.objects.filter(establishment=establishment).select_related("location", "pair", "supplier")


def dice_tables(establishment: Establishment):
    return establishment.tables.filter(game=DICE_GAME[establishment.jurisdiction], active=True)


def is_dice_session(session: TableSession) -> bool:
    return session.table.game == DICE_GAME[session.table.establishment.jurisdiction]


def dice_at_table(session: TableSession) -> QuerySet[Die]:
    """The dice now at the table (allocated, not yet checked back)."""
    return Die.objects.filter(table_session=session).order_by("pair__number", "serial")


def is_checked(session: TableSession) -> bool:
    """The partie's end-of-séance dice check is signed."""
    return DiceCheck.objects.filter(table_session=session).exists()


def allocated_die_ids(session: TableSession) -> set[int]:
    return set(AllocatedDie.objects.filter(allocation__table_session=session).values_list("die_id", flat=True))


def regular_allocation(session: TableSession) -> DiceAllocation | None:
    return session.dice_allocations.filter(kind=DiceAllocation.Kind.REGULAR).first()


def _before(seance: Seance, prefix: str = "") -> Q:
    return Q(**{f"{prefix}date__lt": seance.date}) | Q(
        **{f"{prefix}date": seance.date, f"{prefix}opened_at__lt": seance.opened_at}
    )


def used_at_previous_seance(session: TableSession) -> set[int]:
    """Ids of the dice allocated at the previous séance (DICE-20). SET-13 (AMB-09) says which:
    "any_table", the casino's previous séance (default, the stricter reading), or "same_table",
    this table's previous séance."""
    est = session.seance.establishment
    seance = session.seance
    if est.setting("SET-13") == "same_table":
        previous = (
            TableSession.objects.filter(_before(seance, "seance__"), table=session.table)
            .order_by("-seance__date", "-seance__opened_at")
            .first()
        )
        sessions = [previous] if previous else []
    else:
        previous_seance = (
            Seance.objects.filter(_before(seance), establishment=est).order_by("-date", "-opened_at").first()
        )
        sessions = list(TableSession.objects.filter(seance=previous_seance)) if previous_seance else []
    return set(AllocatedDie.objects.filter(allocation__table_session__in=sessions).values_list("die_id", flat=True))


def usable_reserve(session: TableSession) -> list[Die]:
    return list(dice_at_table(session).filter(play_role=PlayRole.RESERVE).exclude(status=ItemStatus.DAMAGED))


def pairs_held(establishment: Establishment) -> int:
    """Pairs the casino holds: in stock, at a table or awaiting destruction (DICE-14)."""
    held = Die.objects.filter(pair=OuterRef("pk")).exclude(status__in=GONE_STATUSES)
    return DicePair.objects.filter(establishment=establishment).filter(Exists(held)).count()


def allocatable_pairs(establishment: Establishment) -> QuerySet[DicePair]:
    """Pairs whose two dice are in the cabinet; the allocation service checks the rest."""
    not_in_stock = Die.objects.filter(pair=OuterRef("pk")).exclude(status=ItemStatus.IN_STOCK)
    return DicePair.objects.filter(establishment=establishment).exclude(Exists(not_in_stock)).order_by("number")


def new_dice(establishment: Establishment) -> QuerySet[Die]:
    return dice_of(establishment).filter(status=ItemStatus.IN_STOCK, services=0)


def quarantined_ids(establishment: Establishment) -> set[int]:
    from django.contrib.contenttypes.models import ContentType

    ct = ContentType.objects.get_for_model(Die)
    return set(
        IncidentSubject.objects.filter(
            content_type=ct, incident__status="open", incident__establishment=establishment
        ).values_list("object_id", flat=True)
    )


def destruction_queue(establishment: Establishment | Bound) -> QuerySet[Die]:
    """Used or damaged dice in a depot, not yet in a planned destruction (DICE-07, DICE-19)."""
    planned = DestructionItem.objects.filter(
        of_model(Die), session__status=DestructionSession.Status.PLANNED, object_id=OuterRef("pk")
    )
    return (
        dice_of(establishment)
        .filter(status__in=WITHDRAWN_STATUSES, table_session__isnull=True)
        .exclude(Exists(planned))
        .order_by("received_at", "serial")
    )


def destruction_sessions(establishment: Establishment) -> QuerySet[DestructionSession]:
    return DestructionSession.objects.filter(establishment=establishment, domain=DICE.code).order_by("-planned_at")


def destruction_dice(session: DestructionSession) -> QuerySet[Die]:
    ids = session.items.values_list("object_id", flat=True)
    return Die.objects.filter(pk__in=ids).order_by("serial")


@dataclass
class StockLine:
    place: str
    new: int = 0
    used: int = 0  # allocated before, back in the depot (FR) or awaiting destruction (MC)
    damaged: int = 0
    at_table: int = 0

    @property
    def total(self) -> int:
        return self.new + self.used + self.damaged + self.at_table


@dataclass
class StockStatement:
    lines: list[StockLine]
    book: int  # Σ IN − Σ OUT of the intake register
    located: int
    pairs_held: int | None = None
    pairs_max: int | None = None
    pairs_reference: str = ""
    queue: int = 0
    quarantined: int = 0
    by_location: dict = field(default_factory=dict)  # {(location id, category): count} for the verification

    @property
    def balanced(self) -> bool:
        return self.book == self.located


def stock_statement(establishment: Establishment) -> StockStatement:
    """On-demand statement of the dice held, per depot and at the tables, against the book stock
    (DICE-05; FR: the cabinet against modèle 19)."""
    lines: dict[str, StockLine] = {}
    by_location: Counter = Counter()
    rows = (
        Die.objects.filter(establishment=establishment)
        .exclude(status__in=GONE_STATUSES)
        .values_list("location__name", "location_id", "table_session_id", "status", "services", "category")
    )
    for name, location_id, session_id, status, services, category in rows:
        place = name if not session_id else "—"
        line = lines.setdefault(place, StockLine(place=place))
        if session_id:
            line.at_table += 1
        elif status in (ItemStatus.DAMAGED, ItemStatus.MARKED):
            line.damaged += 1
        elif status == ItemStatus.OUT_OF_USE or services:
            line.used += 1
        else:
            line.new += 1
        by_location[(None if session_id else location_id, category)] += 1
    located = sum(by_location.values())
    statement = StockStatement(
        lines=sorted(lines.values(), key=lambda line: (line.place == "—", line.place)),
        book=book_stock(DICE, establishment).get("des", 0),
        located=located,
        queue=destruction_queue(establishment).count(),
        quarantined=len(quarantined_ids(establishment)),
        by_location=dict(by_location),
    )
    if establishment.jurisdiction == "FR":
        cap = establishment.setting("SET-14") or {}
        statement.pairs_held = pairs_held(establishment)
        statement.pairs_max = cap.get("max_pairs")
        statement.pairs_reference = cap.get("reference", "")
    return statement


def sessions_with_dice(establishment: Establishment, date: datetime.date) -> QuerySet[TableSession]:
    """The dice tables' sessions of the séances of ``date``, with their allocations, swaps and check."""
    return (
        TableSession.objects.filter(
            seance__establishment=establishment, seance__date=date, table__game=DICE_GAME[establishment.jurisdiction]
        )
        .select_related("seance", "table", "dice_check")
        .prefetch_related(
            Prefetch(
                "dice_allocations",
                queryset=DiceAllocation.objects.select_related("signed_by")
                .prefetch_related("lines__die")
                .order_by("recorded_at"),
            ),
            "dice_swaps",
        )
        .order_by("seance__opened_at", "table__number")
    )


def waiting_today(establishment: Establishment) -> list[tuple[TableSession, str]]:
    """The dice tables of today's séances not closed yet that wait for their signed allocation
    ("allocation") or, allocated, for their end-of-séance check ("end_check")."""
    today, game = timezone.localdate(), DICE_GAME[establishment.jurisdiction]
    # Today's séances are open while their parties are: the open séances' parties, as the home reads them.
    sessions = sorted(
        (
            session
            for session in open_parties(establishment)
            if session.seance.date == today
            and session.table.game == game
            and session.status != TableSession.Status.CLOSED
        ),
        key=lambda session: (session.seance.opened_at, session.table.number),
    )
    waiting = []
    for session in sessions:
        if not session.dice_allocated:
            waiting.append((session, "allocation"))
        elif not session.dice_checked:
            waiting.append((session, "end_check"))
    return waiting


# Whether each table-partie has its dice allocation and its end-of-séance check, read with the séances' parties.
hooks.party_facts(
    dice_allocated=lambda: Exists(DiceAllocation.objects.filter(table_session=OuterRef("pk"))),
    dice_checked=lambda: Exists(DiceCheck.objects.filter(table_session=OuterRef("pk"))),
)


def unclosed_annex_days(establishment: Establishment) -> list[datetime.date]:
    """Past days with depot transfers whose annex ledger day is not closed (MC, DICE-04: FLAG a
    depot day not closed before the next séance)."""
    if establishment.jurisdiction != "MC" or DICE.annex_kind is None:
        return []
    moved = set(
        Entry.objects.filter(
            register__establishment=establishment,
            register__kind=DICE.annex_kind,
            register__qualifier=DICE.code,
            kind="record",
            payload__movement="TRANSFER",
        ).values_list("payload__date", flat=True)
    )
    closed = set(
        DepotDay.objects.filter(domain=DICE.code, location__establishment=establishment).values_list("date", flat=True)
    )
    today = timezone.localdate()
    return sorted(day for day in map(datetime.date.fromisoformat, moved) if day < today and day not in closed)


def die_incidents(die: Die):
    return open_incidents_for(die)
