"""Reads of the authorities' records."""

import datetime
from collections.abc import Mapping
from decimal import Decimal
from functools import cache

from django.db.models import Model, OuterRef, Q, QuerySet
from django.utils import timezone

from ledgers.core.approvals import SOURCES
from ledgers.core.models import Establishment, GamingTable
from ledgers.core.prepared import Bound, Prepared
from ledgers.core.selectors import objects_of, rows_of

from . import displays
from .models import (
    AccessLog,
    ApprovedBanker,
    Arrete,
    CalledBet,
    Declaration,
    HouseRulesVersion,
    LiaisonQuestion,
    Observation,
    ProgressiveConfig,
    ProgressivePayout,
    ProgressiveReading,
    RulesDisplay,
    SeasonArchive,
    TableOptionChange,
)


def observations_of(establishment: Establishment | OuterRef) -> QuerySet[Observation]:
    return Observation.objects.filter(establishment=establishment).select_related("written_by", "follow_up_by")


def observations_awaiting_follow_up(establishment: Establishment | OuterRef) -> QuerySet[Observation]:
    return observations_of(establishment).filter(due_on__isnull=False, follow_up_seq__isnull=True).order_by("due_on")


def observations_overdue(establishment: Establishment, today: datetime.date | None = None) -> QuerySet[Observation]:
    """Observations still without a follow-up after their SET-41 deadline (REG-44 flag)."""
    today = today or establishment.localtime(timezone.now()).date()
    return observations_awaiting_follow_up(establishment).filter(due_on__lt=today)


def liaison_of(establishment: Establishment | OuterRef) -> QuerySet[LiaisonQuestion]:
    return LiaisonQuestion.objects.filter(establishment=establishment).select_related("asked_by", "answered_by")


def liaison_unanswered(establishment: Establishment | OuterRef) -> QuerySet[LiaisonQuestion]:
    return liaison_of(establishment).filter(answer_seq__isnull=True).order_by("asked_at")


def police_waiting(establishment: Establishment) -> tuple[list[Observation], list[LiaisonQuestion]]:
    """The observations waiting for their follow-up, each ``past_due`` when overdue (REG-44, as
    ``observations_overdue``), and the liaison questions waiting for their answer (REG-45), both
    read in one query (their related objects not read)."""
    [(awaiting, questions)] = _police_waiting().read(house=establishment.pk)
    today = establishment.localtime(timezone.now()).date()
    observations = objects_of(Observation, awaiting)
    for observation in observations:
        observation.past_due = observation.due_on < today
    return observations, objects_of(LiaisonQuestion, questions)


@cache
def _police_waiting() -> Prepared[Establishment]:
    """What ``police_waiting`` reads of a house (``Bound`` "house"), compiled once: it names no
    house or day, and compiling its subqueries for every read costs more than running them."""
    house = OuterRef("pk")
    rows = {
        "awaiting": rows_of(observations_awaiting_follow_up(house)),
        "questions": rows_of(liaison_unanswered(house)),
    }
    return Prepared(
        Establishment.objects.annotate(**rows).values_list("awaiting", "questions").filter(pk=Bound("house"))
    )


def access_log(establishment: Establishment) -> QuerySet[AccessLog]:
    return AccessLog.objects.filter(establishment=establishment).select_related("user")


def archives_of(establishment: Establishment) -> QuerySet[SeasonArchive]:
    return SeasonArchive.objects.filter(establishment=establishment).select_related("requested_by")


def approvals_overview(establishment: Establishment, on: datetime.date | None = None) -> list[tuple]:
    """Every declared approval source with its approvals and their status on ``on`` (AUTH-06):
    [(source, [(approval, status), …]), …]."""
    on = on or establishment.localtime(timezone.now()).date()
    sources = list(SOURCES)
    if not sources:
        return []
    approved, models = _approved(tuple(source.code for source in sources))
    [found] = approved.read(house=establishment.pk)
    overview = []
    for source in sources:
        name = f"approved_{source.code}"
        approvals = [source.approval(row) for row in objects_of(models[name], found[name])]
        overview.append((source, [(approval, approval.status(on)) for approval in approvals]))
    return overview


@cache
def _approved(codes: tuple[str, ...]) -> tuple[Prepared[Establishment], dict[str, type[Model]]]:
    """The approved things of a house (``Bound`` "house") from each source of ``codes``, with
    their models by name, compiled once for those sources: they name no house, and compiling their
    subqueries for every read costs more than running them."""
    approved = {f"approved_{code}": SOURCES.get(code).approved(OuterRef("pk")) for code in codes}
    found = Establishment.objects.annotate(**{name: rows_of(rows) for name, rows in approved.items()})
    return Prepared(found.values(*approved).filter(pk=Bound("house"))), {
        name: rows.model for name, rows in approved.items()
    }


def approvals_needing_attention(establishment: Establishment, on: datetime.date | None = None) -> list[tuple]:
    """(source, approval, status) of the approvals missing, expired or expiring (AUTH-06)."""
    return [
        (source, approval, status)
        for source, rows in approvals_overview(establishment, on)
        for approval, status in rows
        if status in ("missing", "expired", "expiring")
    ]


def declarations_of(establishment: Establishment | Bound) -> QuerySet[Declaration]:
    return Declaration.objects.filter(establishment=establishment).select_related("declared_by")


def declaration_implemented(
    establishment: Establishment, operation: str, *, on: datetime.date, after: datetime.date | None = None
) -> Declaration | None:
    """The latest declaration of ``operation`` whose implementation date is reached by ``on`` (and
    falls after ``after``, when the change must be newer than a given state): what lets a declared
    operation be applied to the live configuration (AUTH-01)."""
    declared = declarations_of(establishment).filter(operation=operation, implementation_date__lte=on)
    if after is not None:
        declared = declared.filter(implementation_date__gt=after)
    return declared.order_by("-implementation_date", "-number").first()


def tournament_declared(establishment: Establishment, on: datetime.date) -> Declaration | None:
    """The latest declaration of a poker tournament (7°) whose dates cover ``on`` (AUTH-01)."""
    return (
        declarations_of(establishment)
        .filter(operation=Declaration.Operation.POKER_TOURNAMENT, implementation_date__lte=on, tournament_until__gte=on)
        .order_by("-implementation_date", "-number")
        .first()
    )


def arretes_of(establishment: Establishment) -> QuerySet[Arrete]:
    return (
        Arrete.objects.filter(establishment=establishment)
        .select_related("recorded_by", "follows")
        .prefetch_related("games")
    )


def arrete_in_force(establishment: Establishment, on: datetime.date) -> Arrete | None:
    """The arrêté d'autorisation in force on ``on``: the latest to take effect by then (AUTH-03)."""
    return arretes_of(establishment).filter(effective_from__lte=on).order_by("-effective_from", "-number").first()


def authorised_minimums(arrete: Arrete | None, defaults: Mapping | None) -> dict[str, Decimal]:
    """Game → the minimum stake fixed for it: by the arrêté ``arrete`` (the one in force), else by
    ``defaults``, the establishment's SET-08 (AUTH-04)."""
    minimums = {game: Decimal(str(amount)) for game, amount in (defaults or {}).items()}
    if arrete is not None:
        minimums.update(
            {line.game: line.minimum_stake for line in arrete.games.all() if line.minimum_stake is not None}
        )
    return minimums


def declarations_without_follow_up(
    establishment: Establishment | Bound, today: datetime.date | Bound | None = None
) -> QuerySet[Declaration]:
    """Declarations implemented with no follow-up recorded (AUTH-02 flag)."""
    today = today or establishment.localtime(timezone.now()).date()
    return declarations_of(establishment).filter(follow_up=Declaration.FollowUp.PENDING, implementation_date__lte=today)


def called_bets_of(establishment: Establishment | Bound) -> QuerySet[CalledBet]:
    return CalledBet.objects.filter(table_session__seance__establishment=establishment).select_related(
        "table_session__table", "table_session__seance", "inspecteur", "visa_by", "scj_notice"
    )


def called_bets_without_scj(establishment: Establishment | Bound) -> QuerySet[CalledBet]:
    """Authorised complex called bets the SCJ was not told of (GAME-20 flag). A time typed with the
    visa, before the notice was an act the system times, still counts: no notice time is invented
    for those bets."""
    return called_bets_of(establishment).filter(status=CalledBet.Status.AUTHORISED, scj_informed_at__isnull=True)


def house_rules_in_force(establishment: Establishment, on: datetime.date | None = None) -> HouseRulesVersion | None:
    """The règlement intérieur version in force on ``on`` (REG-19: the one shown to inspectors)."""
    on = on or establishment.localtime(timezone.now()).date()
    return (
        HouseRulesVersion.objects.filter(establishment=establishment, effective_from__lte=on)
        .order_by("-effective_from", "-version")
        .first()
    )


def table_options_in_force(establishment: Establishment) -> dict[tuple[str, str], TableOptionChange]:
    """(table number, option) → the last change that put the option in force there (withdrawn ones left out)."""
    latest: dict[tuple[str, str], TableOptionChange] = {}
    changes = TableOptionChange.objects.filter(table__establishment=establishment).select_related("table")
    for change in changes.order_by("changed_at", "pk"):
        latest[(change.table.number, change.option)] = change
    return {key: change for key, change in sorted(latest.items()) if change.enabled}


def display_checklists(establishment: Establishment) -> list[dict]:
    """Every FR table and slot machine that needs displays (REG-23, SLOT-29), with each required
    item and its latest posting (None while missing): [{"subject", "lines": [(required, line)]}]."""
    posted: dict[tuple, RulesDisplay] = {}
    for line in (
        RulesDisplay.objects.filter(establishment=establishment)
        .select_related("checked_by")
        .order_by("recorded_at", "pk")
    ):
        posted[(line.table_id, line.machine_id, line.item)] = line
    rows = []
    tables = GamingTable.objects.filter(establishment=establishment, active=True).order_by("number")
    for table in tables:
        if required := displays.table_items(table):
            rows.append({"subject": table, "lines": [(r, posted.get((table.pk, None, r.item))) for r in required]})
    for machine in displays.active_machines(establishment):
        if required := displays.machine_items(machine):
            rows.append({"subject": machine, "lines": [(r, posted.get((None, machine.pk, r.item))) for r in required]})
    return rows


def progressive_in_force(establishment: Establishment, on: datetime.date | None = None) -> ProgressiveConfig | None:
    """The Split Aces configuration in force on ``on`` (GAME-04)."""
    on = on or establishment.localtime(timezone.now()).date()
    return (
        ProgressiveConfig.objects.filter(establishment=establishment, effective_from__lte=on)
        .order_by("-effective_from", "-version")
        .first()
    )


def progressive_readings(establishment: Establishment) -> QuerySet[ProgressiveReading]:
    return ProgressiveReading.objects.filter(establishment=establishment).select_related("seance", "recorded_by")


def progressive_unexplained(establishment: Establishment) -> QuerySet[ProgressiveReading]:
    """Closing amounts the séance's stakes × percentage and payouts do not explain (GAME-04 flag)."""
    return progressive_readings(establishment).exclude(unexplained__isnull=True).exclude(unexplained=0)


def progressive_payouts(establishment: Establishment) -> QuerySet[ProgressivePayout]:
    return ProgressivePayout.objects.filter(establishment=establishment).select_related("table", "seance")


def bankers_of(establishment: Establishment) -> QuerySet[ApprovedBanker]:
    return ApprovedBanker.objects.filter(establishment=establishment).select_related("approved_by")


def bankers_approved(establishment: Establishment, on: datetime.date) -> QuerySet[ApprovedBanker]:
    """The bankers whose approval holds on ``on`` (GAME-31)."""
    return (
        bankers_of(establishment)
        .filter(approved_on__lte=on)
        .filter(Q(withdrawn_on__isnull=True) | Q(withdrawn_on__gt=on))
    )
