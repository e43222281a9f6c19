"""Reads of the table cash."""

import datetime
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal
from functools import cache, reduce
from operator import or_

from django.core.exceptions import ValidationError
from django.db.models import Exists, OuterRef, Q, QuerySet, Subquery, Sum
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ledgers.core import amounts, hooks
from ledgers.core.errors import RuleViolation
from ledgers.core.games import Family
from ledgers.core.models import Establishment, GamingTable, Seance, TableSession
from ledgers.core.prepared import Bound, Prepared

from . import rules
from .models import (
    BadBeatConfig,
    BadBeatCount,
    BadBeatOpening,
    BadBeatStop,
    BadBeatTable,
    CagnotteCount,
    CercleDeviceDay,
    ControlDay,
    DeviceDay,
    ElectronicDevice,
    LevyMachine,
    PotRake,
    Slip,
    SlipBook,
    TableCount,
    TableFloat,
    TicketStamp,
)


def art_49_multiple(table: GamingTable) -> int:
    """The art. 49 multiple of the table's game (SET-07), an establishment override first."""
    multiples = {**rules.ART_49_MULTIPLES, **(table.establishment.setting("SET-07") or {})}
    if table.game not in multiples:
        raise ValidationError(
            _("L'article 49 ne donne pas de multiple pour le jeu %(game)s.") % {"game": table.get_game_display()}
        )
    return int(multiples[table.game])


def minimum_avance(session: TableSession) -> Decimal:
    """FR minimum avance: multiple × the minimum stake in force at the table-partie (COUNT-12)."""
    if session.minimum_stake is None:
        raise RuleViolation(
            "COUNT-12",
            _(
                "La mise minimale pratiquée à la table %(table)s n'est pas inscrite pour cette partie : l'avance "
                "minimale de l'article 49 ne peut être calculée."
            )
            % {"table": session.table.number},
        )
    return (art_49_multiple(session.table) * session.minimum_stake).quantize(amounts.CENT)


def fixed_bank(table: GamingTable) -> Decimal | None:
    """MC: the somme mise en banque fixed by the Direction des Jeux for the table (SET-06)."""
    fixed = (table.establishment.setting("SET-06") or {}).get(table.number)
    return None if fixed is None else amounts.money(fixed)


def initial_floats_on(establishment: Establishment, date: datetime.date) -> QuerySet[TableFloat]:
    return TableFloat.objects.filter(
        table_session__seance__establishment=establishment,
        table_session__seance__date=date,
        kind=TableFloat.Kind.INITIAL,
    )


def season_first_float(table: GamingTable, date: datetime.date) -> TableFloat | None:
    """The table's first avance of the season (financial year) containing ``date`` (COUNT-37)."""
    return (
        TableFloat.objects.filter(
            table_session__table=table,
            kind=TableFloat.Kind.INITIAL,
            table_session__seance__date__gte=rules.season_start(date),
            table_session__seance__date__lte=date,
        )
        .order_by("recorded_at")
        .first()
    )


def previous_count(table: GamingTable, session: TableSession) -> TableCount | None:
    """The table's last certified closing count before ``session``: the next opening carries it."""
    return (
        TableCount.objects.filter(table_session__table=table, status=TableCount.Status.CERTIFIED)
        .exclude(table_session=session)
        .order_by("-certified_at")
        .first()
    )


def sessions_with_floats(establishment: Establishment, date: datetime.date) -> QuerySet[TableSession]:
    return (
        TableSession.objects.filter(seance__establishment=establishment, seance__date=date, floats__isnull=False)
        .distinct()
        .select_related("seance", "table", "count")
        .order_by("seance__opened_at", "table__number")
    )


def sessions_of(seances: Iterable[Seance]) -> QuerySet[TableSession]:
    """The table-parties of ``seances``, by table number, with their séance, count and floats."""
    return (
        TableSession.objects.filter(seance__in=list(seances))
        .select_related("seance__establishment", "table__establishment", "count")  # the bank fixed: SET-06
        .prefetch_related("floats")
        .order_by("table__number")
    )


def seance_sessions(seance: Seance) -> QuerySet[TableSession]:
    return sessions_of([seance])


def is_certified(session: TableSession) -> bool:
    count = getattr(session, "count", None)  # the reverse one-to-one raises when there is none
    return count is not None and count.status == TableCount.Status.CERTIFIED


def uncounted(session: TableSession) -> bool:
    """Whether the table-partie received a float and has no certified count (read with its
    séance's parties, ``hooks.seance_parties``)."""
    return session.with_float and not is_certified(session)


# What the séance's closing asks of each table-partie's counts, read with the séance's parties:
# ``with_float`` (with its count, ``uncounted``), ``slips_waiting`` (ravitaillement bons served and
# not centralised), ``bad_beat_waiting`` (``bad_beat_uncounted``) and ``cagnotte_to_count`` (the pk
# of its cagnotte computed from its tickets and not yet counted, else None).
hooks.party_facts(
    "count",
    with_float=lambda: Exists(TableFloat.objects.filter(table_session=OuterRef("pk"))),
    slips_waiting=lambda: Exists(_uncentralised(Slip.objects.filter(table_session=OuterRef("pk")))),
    bad_beat_waiting=lambda: _bad_beat_waiting(),
    cagnotte_to_count=lambda: Subquery(
        CagnotteCount.objects.filter(status=CagnotteCount.Status.COMPUTED, table_session=OuterRef("pk")).values("pk")
    ),
)


def played_without_float(seance: Seance) -> list[TableSession]:
    """Table-parties that opened without the float the texts give them: FR every contrepartie table
    (art. 42, COUNT-34), MC a table whose somme mise en banque the Direction fixed (COUNT-01)."""
    sessions = (
        seance_sessions(seance).exclude(status=TableSession.Status.PREPARING).filter(floats__isnull=True).distinct()
    )
    if seance.establishment.jurisdiction == "FR":
        return [s for s in sessions if s.table.game_info.family == Family.CONTREPARTIE]
    return [s for s in sessions if fixed_bank(s.table) is not None]


def _uncentralised(slips: QuerySet[Slip]) -> QuerySet[Slip]:
    return slips.filter(book__kind=SlipBook.Kind.RAVITAILLEMENT, status=Slip.Status.SERVED, centralised_at__isnull=True)


def uncentralised_slips(seance: Seance) -> QuerySet[Slip]:
    return _uncentralised(Slip.objects.filter(table_session__seance=seance))


def previous_control_day(establishment: Establishment, date: datetime.date) -> ControlDay | None:
    """The last closed day of the same season before ``date`` (its season total is carried)."""
    return (
        ControlDay.objects.filter(establishment=establishment, date__lt=date, date__gte=rules.season_start(date))
        .order_by("-date")
        .first()
    )


def slip_exceptions(establishment: Establishment) -> list[dict]:
    """What the numbered series report: voided slips, slips still unserved once their partie is
    over (COUNT-04 FLAG), and unused numbers of the books."""
    rows = []
    slips = Slip.objects.filter(book__establishment=establishment).select_related("book", "table_session__table")
    for slip in slips.filter(status=Slip.Status.VOID):
        rows.append({"slip": slip, "what": _("Bon annulé : %(reason)s") % {"reason": slip.void_reason}})
    for slip in slips.filter(status=Slip.Status.WRITTEN, table_session__status=TableSession.Status.CLOSED):
        rows.append({"slip": slip, "what": _("Bon non servi à la fin de la partie")})
    for book in SlipBook.objects.filter(establishment=establishment):
        used = set(book.slips.values_list("number", flat=True))
        unused = book.last_number - book.first_number + 1 - len(used)
        if unused:
            rows.append({"book": book, "what": _("%(n)s bon(s) inutilisé(s) dans le carnet") % {"n": unused}})
    return rows


def float_flags(establishment: Establishment) -> QuerySet[TableFloat]:
    """Floats that carry a report (COUNT-37 minimum changed in the season, carry differences)."""
    return (
        TableFloat.objects.filter(table_session__seance__establishment=establishment)
        .exclude(flags=[])
        .select_related("table_session__seance", "table_session__table")
        .order_by("-recorded_at")
    )


def counts_waiting(establishment: Establishment) -> QuerySet[TableCount]:
    return (
        TableCount.objects.filter(table_session__seance__establishment=establishment)
        .exclude(status=TableCount.Status.CERTIFIED)
        .select_related("table_session__seance", "table_session__table")
    )


RAKE_GAMES = ("texas_holdem", "omaha")


def rake_terms(establishment: Establishment, game: str) -> tuple[Decimal, str]:
    """The rake rate of ``game`` posted at the tables (SET-16, COUNT-20) and the SET-17 order of
    the cap and the round-up."""
    rates = establishment.setting("SET-16") or {}
    if game not in rates:
        raise ValidationError(_("Aucun taux de cagnotte n'est configuré pour ce jeu (SET-16)."))
    return Decimal(str(rates[game])), establishment.setting("SET-17") or rules.CAP_LAST


def pots_of(session: TableSession) -> QuerySet[PotRake]:
    return PotRake.objects.filter(table_session=session).select_related("taken_by").order_by("number")


def pot_rakes_total(session: TableSession) -> Decimal | None:
    """The sum of the rakes recorded pot by pot at a table-partie, None when none was (in cents:
    SQLite's sum of decimals drops the trailing zeros)."""
    total = PotRake.objects.filter(table_session=session).aggregate(total=Sum("taken"))["total"]
    return None if total is None else amounts.money(total)


def rake_for(
    establishment: Establishment, *, game: str, pot: Decimal, cave: Decimal, recorded: Decimal | None = None
) -> dict:
    """The rake allowed on a pot (COUNT-18, COUNT-19) with the jurisdiction's SET-16 rates and
    SET-17 order; ``recorded``: a rake taken, flagged when above the allowed amount."""
    rate, order = rake_terms(establishment, game)
    pot, cave = amounts.money(pot), amounts.money(cave)
    allowed = rules.rake(pot=pot, cave=cave, rate_percent=rate, order=order)
    cap = rules.rake_cap(cave)
    return {
        "game": game,
        "pot": str(pot),
        "cave": str(cave),
        "rate_percent": str(rate),
        "cap": str(cap) if cap is not None else None,
        "order": order,
        "rake": str(allowed),
        "over": recorded is not None and amounts.money(recorded) > allowed,
    }


def slips_to_serve(establishment: Establishment) -> QuerySet[Slip]:
    return (
        Slip.objects.filter(book__establishment=establishment, status=Slip.Status.WRITTEN)
        .select_related("book", "table_session__table")
        .order_by("book__number", "number")
    )


def seances_with_uncentralised_slips(establishment: Establishment) -> QuerySet[Seance]:
    return Seance.objects.filter(
        establishment=establishment,
        table_sessions__slips__status=Slip.Status.SERVED,
        table_sessions__slips__centralised_at__isnull=True,
        table_sessions__slips__book__kind=SlipBook.Kind.RAVITAILLEMENT,
    ).distinct()


def days_awaiting_visas(establishment: Establishment) -> QuerySet[ControlDay]:
    """Closed days of modèle 12 still short of one of their two visas, oldest first."""
    return ControlDay.objects.filter(establishment=establishment, status=ControlDay.Status.CLOSED).order_by("date")


def days_to_visa(establishment: Establishment, user) -> list[ControlDay]:
    """Closed days of modèle 12 still short of a visa that ``user`` has not given."""
    return [day for day in days_awaiting_visas(establishment) if all(visa["user"] != user.pk for visa in day.visas)]


def day_to_close(establishment: Establishment) -> datetime.date | None:
    """The first past day whose tables all have certified counts and that modèle 12 has not closed."""
    closed = ControlDay.objects.filter(establishment=establishment).values("date")
    # The first day played and not closed, found by the database: not every day ever played.
    date = (
        TableSession.objects.filter(seance__establishment=establishment, floats__isnull=False)
        .exclude(seance__date__in=closed)
        .order_by("seance__date")
        .values_list("seance__date", flat=True)
        .first()
    )
    if date is None:
        return None
    return date if all(is_certified(s) for s in sessions_with_floats(establishment, date)) else None


def cagnottes_on(establishment: Establishment, date: datetime.date) -> QuerySet[CagnotteCount]:
    return CagnotteCount.objects.filter(
        table_session__seance__establishment=establishment, table_session__seance__date=date
    ).select_related("table_session__seance", "table_session__table")


def _bad_beat_due(sessions: QuerySet[TableSession]) -> QuerySet[TableSession]:
    return sessions.filter(table__bad_beat_jackpot__isnull=False, bad_beat__isnull=True).exclude(
        status=TableSession.Status.PREPARING
    )


def _bad_beat_waiting() -> Exists:
    """Whether the table-partie is of a BBJ table, not in preparation, without its count."""
    return Exists(_bad_beat_due(TableSession.objects.filter(pk=OuterRef("pk"))))


def bad_beat_uncounted(seance: Seance) -> QuerySet[TableSession]:
    """Table-parties of a BBJ table without their count and displayed amount (COUNT-24)."""
    return _bad_beat_due(TableSession.objects.filter(seance=seance))


@cache
def _waiting(counts: bool, cagnottes: bool, bad_beats: bool) -> Prepared[TableSession]:
    """The table-parties of a house (``Bound`` "house") with those of ``counts``, ``cagnottes``
    and ``bad_beats`` asked for, compiled once for each question: it names no house, and compiling
    its subqueries for every read costs more than running them."""
    wanted = [
        condition
        for asked, condition in (
            (counts, Q(count__isnull=False) & ~Q(count__status=TableCount.Status.CERTIFIED)),
            (cagnottes, Q(cagnotte__status=CagnotteCount.Status.COMPUTED)),
            (
                bad_beats,
                Q(table__bad_beat_jackpot__isnull=False, bad_beat__isnull=True, status=TableSession.Status.CLOSED),
            ),
        )
        if asked
    ]
    return Prepared(
        TableSession.objects.filter(reduce(or_, wanted))
        .annotate(bad_beat_due=_bad_beat_waiting())
        .select_related("seance", "table", "count", "cagnotte")
        .filter(seance__establishment=Bound("house"))
    )


@dataclass(frozen=True)
class CashWaiting:
    """What waits at the cash desk: the counts not certified, the table-parties whose cagnotte is
    computed from its tickets and not yet opened and counted (COUNT-08, COUNT-43), the closed
    table-parties of a BBJ table whose count and displayed amount are not entered (COUNT-24)."""

    counts: list[TableCount]
    cagnottes: list[TableSession]
    bad_beats: list[TableSession]


def waiting_at_cash(establishment: Establishment, *, counts: bool, cagnottes: bool, bad_beats: bool) -> CashWaiting:
    """Those of ``counts``, ``cagnottes`` and ``bad_beats`` asked for, each in the order they were
    recorded, read in one query on the house's table-parties (none when none is asked for)."""
    if not (counts or cagnottes or bad_beats):
        return CashWaiting([], [], [])
    sessions = _waiting(counts, cagnottes, bad_beats).read(house=establishment.pk)
    found = [
        session.count
        for session in sessions
        if counts and (count := getattr(session, "count", None)) and count.status != TableCount.Status.CERTIFIED
    ]
    computed = [
        session
        for session in sessions
        if cagnottes and getattr(session, "cagnotte", None) and session.cagnotte.status == CagnotteCount.Status.COMPUTED
    ]
    due = [
        session
        for session in sessions
        if bad_beats and session.status == TableSession.Status.CLOSED and session.bad_beat_due
    ]
    return CashWaiting(
        sorted(found, key=lambda count: count.pk),
        sorted(computed, key=lambda session: session.cagnotte.pk),
        sorted(due, key=lambda session: session.pk),
    )


# --- bad beat jackpot (COUNT-24, COUNT-44 to COUNT-48) ------------------------------------------


def current_config(jackpot: BadBeatTable) -> BadBeatConfig | None:
    return jackpot.configs.order_by("-version").first()


def final_stop(jackpot: BadBeatTable) -> BadBeatStop | None:
    """The final stop of the BBJ of the current conditions, if it was stopped for good."""
    config = current_config(jackpot)
    stops = jackpot.stops.filter(kind=BadBeatStop.Kind.FINAL)
    if config is not None:
        stops = stops.filter(stopped_at__gte=config.effective_at)
    return stops.order_by("-stopped_at").first()


def open_breakdown(jackpot: BadBeatTable) -> BadBeatStop | None:
    return jackpot.stops.filter(kind=BadBeatStop.Kind.BREAKDOWN, restored_at__isnull=True).first()


def open_suspension(jackpot: BadBeatTable) -> BadBeatStop | None:
    """The temporary voluntary stop in course; a final stop since ends the jackpot it suspended."""
    stops = jackpot.stops.filter(kind=BadBeatStop.Kind.SUSPENSION, restored_at__isnull=True)
    last_final = jackpot.stops.filter(kind=BadBeatStop.Kind.FINAL).order_by("-stopped_at").first()
    if last_final is not None:
        stops = stops.filter(stopped_at__gt=last_final.stopped_at)
    return stops.first()


def expected_display(jackpot: BadBeatTable, *, retained: Decimal, before: BadBeatCount | None = None) -> dict | None:
    """COUNT-24: the amount the jackpot should display after a séance that retained ``retained``:
    the previous displayed amount (or the starting value and reassigned increment of a new BBJ),
    plus the retenues, less the payouts of the wins since, plus their restart values. None when
    nothing is known to start from."""
    last_count = (
        BadBeatCount.objects.filter(table_session__table=jackpot.table)
        .exclude(pk=getattr(before, "pk", None))
        .order_by("-recorded_at")
        .first()
    )
    config = current_config(jackpot)
    # The last amount known displayed: the last count's, or the one taken over from paper.
    opening = BadBeatOpening.objects.filter(jackpot=jackpot).first()
    known = [(row.displayed, row.recorded_at) for row in (last_count, opening) if row is not None]
    last = max(known, key=lambda pair: pair[1]) if known else None
    # A jackpot taken over keeps running under its first recorded conditions: only a new BBJ after
    # a final stop (a later version) starts again from its starting value.
    restarts = config is not None and not (opening is not None and config.version == 1)
    if restarts and (last is None or config.effective_at > last[1]):
        base, since = config.starting_value + config.reassigned, config.effective_at
    elif last is not None:
        base, since = last
    else:
        return None
    wins = jackpot.wins.filter(won_at__gte=since).aggregate(paid=Sum("amount"), restarted=Sum("restart_value"))
    paid, restarted = wins["paid"] or Decimal("0.00"), wins["restarted"] or Decimal("0.00")
    return {
        "previous": base,
        "retained": retained,
        "paid": paid,
        "restarted": restarted,
        "expected": base + retained - paid + restarted,
    }


def stop_covering(session: TableSession) -> BadBeatStop | None:
    """The breakdown or temporary stop of the table's BBJ that lasted the whole partie: no increment
    could be taken (COUNT-47)."""
    jackpot = getattr(session.table, "bad_beat_jackpot", None)
    if jackpot is None or session.opened_at is None:
        return None
    end = session.closed_at or timezone.now()
    return (
        jackpot.stops.filter(
            kind__in=(BadBeatStop.Kind.BREAKDOWN, BadBeatStop.Kind.SUSPENSION), stopped_at__lte=session.opened_at
        )
        .exclude(restored_at__lt=end)
        .first()
    )


def current_amount(jackpot: BadBeatTable) -> Decimal:
    """The jackpot's amount now: the last displayed amount, or what follows from its conditions and wins."""
    expected = expected_display(jackpot, retained=Decimal("0.00"))
    return expected["expected"] if expected else Decimal("0.00")


def bad_beat_flags(establishment: Establishment) -> QuerySet[BadBeatCount]:
    """BBJ counts whose displayed amount breaks the continuity (COUNT-24 FLAG)."""
    return (
        BadBeatCount.objects.filter(table_session__seance__establishment=establishment)
        .exclude(flags=[])
        .select_related("table_session__seance", "table_session__table")
        .order_by("-recorded_at")
    )


def seance_stamp_missing(book) -> bool:
    """FR art. 56-1 (COUNT-40): the keeper has not date-stamped the stub of the book's next ticket,
    the first one this cagnotte séance detaches (at put into service, or since the last count)."""
    return not TicketStamp.objects.filter(book=book, first_ticket=book.next_number).exists()


def uses_levy_machine(table: GamingTable) -> bool:
    return LevyMachine.objects.filter(table=table).exists()


def device_days_to_carry(est: Establishment, date: datetime.date) -> list[tuple[ElectronicDevice, DeviceDay | None]]:
    """FR modèle 10 bis: the devices with station lines on ``date`` and their visaed day (None: not
    visaed yet, COUNT-51)."""
    devices = ElectronicDevice.objects.filter(establishment=est, results__date=date).distinct().order_by("number")
    visaed = {day.device_id: day for day in DeviceDay.objects.filter(device__establishment=est, date=date)}
    return [(device, visaed.get(device.pk)) for device in devices]


def cercle_device_days_on(est: Establishment, date: datetime.date) -> QuerySet[CercleDeviceDay]:
    """FR electronic cercle devices' days to carry to modèle 12 (COUNT-55)."""
    return CercleDeviceDay.objects.filter(device__establishment=est, date=date).select_related("device")
