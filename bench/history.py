"""More history in the demo houses, through the engine's bulk path and the services: the years
of register lines and the séances with their card movements and key hand-overs that the homes
and list pages must read around (their queries may not grow with it). Used by the page-query
tests, by ``bench/homes.py`` (inside a transaction that is rolled back) and by ``bench/scale.py``
(the houses it measures), on the demo houses.

A span (``span_before_demo``) places that history on the days before the demo's month: séances
on days spread over it, each day first given what its séance's opening asks, and the lines'
facts dated evenly across it."""

import datetime
import itertools

from django.utils import timezone

from ledgers.cards import services as cards
from ledgers.cards.models import CardUnit
from ledgers.core.demo import DEMO_FR, DEMO_MC, demo_user
from ledgers.core.models import Establishment, Membership, Seance, SeancePeriod
from ledgers.core.roles import Role
from ledgers.core.selectors import counted_together
from ledgers.core.services import seance_close, seance_open, table_session_close, table_session_prepare
from ledgers.keys.services import key_issue, key_register, key_return
from ledgers.registers.models import Register
from ledgers.registers.services import entries_bulk_append
from ledgers.registers.synthetic import synthetic_payload
from ledgers.slots.demo import staffing_people
from ledgers.slots.models import StaffApproval
from ledgers.slots.selectors import valid_approval
from ledgers.slots.services import staff_approval_record
from ledgers.slots.services.staffing import staffing_counts, staffing_missing, staffing_record

Span = tuple[datetime.date, datetime.date]  # first and last day
DEMO = (DEMO_MC, DEMO_FR)
BATCH = 2000  # entries per bulk call: the writers of a register take turns


def span_before_demo(days: int) -> Span:
    """The ``days`` days before the demo's first séance."""
    first = Seance.objects.filter(establishment__code__in=DEMO).order_by("date").values_list("date", flat=True)[0]
    return first - datetime.timedelta(days=days), first - datetime.timedelta(days=1)


def spread_days(span: Span, count: int) -> list[datetime.date]:
    """``count`` days spread evenly over ``span`` (a day twice or three times, one séance a period,
    where there are more than days)."""
    length = (span[1] - span[0]).days + 1
    return [span[0] + datetime.timedelta(days=i * length // count) for i in range(count)]


def shares(registers: list[Register], total: int) -> list[int]:
    """``total`` entries shared out over ``registers`` as their own entries are (the busiest first
    takes what rounding leaves)."""
    held = sum(r.head_seq for r in registers)
    counts = [total * r.head_seq // held for r in registers]
    counts[max(range(len(registers)), key=lambda i: registers[i].head_seq)] += total - sum(counts)
    return counts


def more_history(per_register: int = 0, *, total: int = 0, span: Span | None = None) -> None:
    """More entries in every open register of the demo houses, written by the demo users whose
    role writes there, taking turns: ``per_register`` each, or ``total`` shared out as the houses'
    own mix (each register its share of their entries). Their facts are a minute apart from a
    year ago or, over a ``span``, spread evenly across it."""
    memberships = Membership.objects.filter(establishment__code__in=DEMO).select_related("user")
    registers = list(
        Register.objects.filter(establishment__code__in=DEMO, status=Register.Status.OPEN).order_by("number")
    )
    counts = shares(registers, total) if total else [per_register] * len(registers)
    for register, count in zip(registers, counts, strict=True):
        writers = [m for m in memberships if m.establishment_id == register.establishment_id]
        writers = [m for m in writers if m.role in register.kind_info.record_roles]
        if span is None:
            start, every = timezone.now() - datetime.timedelta(days=365), datetime.timedelta(minutes=1)
        else:
            start = datetime.datetime.combine(span[0], datetime.time(10), tzinfo=datetime.UTC)
            every = (span[1] - span[0] + datetime.timedelta(days=1)) / max(count, 1)
        batch = max(1, min(BATCH, -(-count // len(writers))))
        for first, membership in zip(range(1, count + 1, batch), itertools.cycle(writers)):
            entries_bulk_append(
                register=register,
                actor=membership.user,
                role=membership.role,
                payloads=(
                    synthetic_payload(register.kind_info, n, start=start, every=every)
                    for n in range(first, min(first + batch, count + 1))
                ),
            )


def approvals_since(est: Establishment, day: datetime.date, people: dict) -> None:
    """FR: the slot staff's ministerial approvals reach back to ``day`` (SLOT-50): one more for
    each person whose approvals begin later, up to the day before the first of them."""
    keeper = people["actor"]
    kind = StaffApproval.Kind.SLOT_STAFF
    for user in (people["comite"], people["cashier"], people["maintainer"]):
        if valid_approval(est, user, kind, day) is not None:
            continue
        held = StaffApproval.objects.filter(establishment=est, user=user, kind=kind).order_by("valid_from").first()
        staff_approval_record(
            establishment=est,
            user=user,
            kind=kind,
            reference=f"{held.reference}-{day:%Y%m%d}",
            issuer=held.issuer,
            valid_from=day,
            valid_until=held.valid_from - datetime.timedelta(days=1),
            actor=keeper,
        )


def day_prepared(est: Establishment, day: datetime.date) -> None:
    """What a séance's opening asks of its day, written first where the day lacks it: FR with
    machines in operation, the slot room's staffing (SLOT-50), as the demo names it. The other
    opening check, the JPM's 28 S line (SLOT-38), asks only of the JPMs in service by that day:
    none before the demo's seeding, which puts its jackpots in service."""
    if est.jurisdiction == "FR" and staffing_missing(counted_together(**staffing_counts(est, day))):
        people = staffing_people(est)
        approvals_since(est, day, people)
        staffing_record(establishment=est, date=day, **people)


def seance_days(est: Establishment, count: int, span: Span | None) -> list[datetime.date]:
    """The days of ``count`` more séances: the last days the demo held one, or days spread over
    ``span``."""
    if span is not None:
        return spread_days(span, count)
    held = Seance.objects.filter(establishment=est, status=Seance.Status.CLOSED)
    days = sorted(set(held.values_list("date", flat=True)))[-count:] if count else []
    assert len(days) == count, days
    return days


def more_seances(count: int, span: Span | None = None) -> None:
    """``count`` more séances in each demo house, held through the services at a time of the day
    still free: on the last days the demo held one (their rooms were staffed and read, SLOT-38,
    SLOT-50) or, over a ``span``, on days spread across it, each given first what its opening
    asks (``day_prepared``). In each, a blackjack table-partie prepared, a sealed sixain issued to
    it, examined and returned (MC: under the inspecteur, then controlled by the cartier), a
    roulette lid key handed over for the séance and back, the séance closed."""
    for est in Establishment.objects.filter(code__in=DEMO).order_by("code"):
        mc = est.jurisdiction == "MC"
        director = demo_user(est, Role.DIRECTEUR_JEUX if mc else Role.DIRECTEUR_RESPONSABLE)
        keeper = demo_user(est, Role.CARTIER) if mc else director
        holder = demo_user(est, Role.INSPECTEUR if mc else Role.COMITE)
        table = est.tables.filter(game="blackjack", super_prive=False, active=True).order_by("number").first()
        sealed = CardUnit.objects.filter(
            establishment=est, parent=None, unit_type="sixain", status="in_stock", is_new=True
        ).exclude(location=None)
        unit = next(u for u in sealed.prefetch_related("members").order_by("serial") if u.colours() == [3, 3])
        depot = unit.location
        key = key_register(
            establishment=est,
            actor=director,
            code="HIST-CY",
            lock_type="cylinder_lid",
            opens="Couvercle du cylindre de réserve",
            asset_ref="réserve",
            custodian=holder,
        )
        held = Seance.objects.filter(establishment=est)
        for day in seance_days(est, count, span):
            day_prepared(est, day)
            taken = set(held.filter(date=day).values_list("period", flat=True))
            period = next(p for p in (SeancePeriod.MATIN, SeancePeriod.APRES_MIDI, SeancePeriod.NUIT) if p not in taken)
            seance = seance_open(establishment=est, date=day, period=period, actor=director)
            session = table_session_prepare(seance=seance, table=table, actor=director)
            cards.cards_issue(table_session=session, units=[unit], actor=keeper, received_by="Chef de table")
            if not mc:  # FR: examined at the table before it goes back to the cabinet (CARD-37)
                cards.cards_post_control(
                    unit=unit,
                    actor=demo_user(est, Role.CROUPIER),
                    complete=True,
                    order_restored=True,
                    marks_found=False,
                )
            cards.cards_return(
                units=[unit],
                to_location=depot,
                actor=keeper,
                returned_by="Équipe de la table",
                inspecteur=demo_user(est, Role.INSPECTEUR) if mc else None,
            )
            table_session_close(session=session, actor=director)
            if mc:  # MC: the cartier's control in the depot before any further use (CARD-14)
                cards.cards_post_control(unit=unit, actor=keeper, complete=True, order_restored=True, marks_found=False)
            issue = key_issue(
                key=key,
                actor=director,
                holder=holder,
                purpose_type="core.seance",
                purpose_id=seance.pk,
                due_at=timezone.now() + datetime.timedelta(hours=6),
            )
            key_return(issue=issue, actor=director, returned_by=holder)
            seance_close(seance=seance, actor=director)
