"""FR slot sums that become orphans (art. 41) and go to the orphans carnet modèle 11 bis of
``ledgers.cash``, with their modèle 29 line:

- SLOT-43: the état de rapprochement modèle 31 drawn up at each meter reading: per machine read,
  its manual-jackpot and cumulative-prize meter since the previous reading against the cash-desk
  payments of its modèle 29; a shortfall of payments is unclaimed wins, posted in the same
  transaction (so the reading cannot be reconciled without its orphans entry); payments above the
  meters are flagged. The relève closes only with its modèle 31 (``services.releve_close``); the
  dashboard lists the relèves waiting for it.
- SLOT-44: TITO tickets imported from the approved cashless system; a ticket not redeemed within
  SET-37 days after its issue date expires: never redeemed, posted to orphans by the expiry run.

Each ticket imported and each ticket paid is a line of the slot cash desk's register, in the same
transaction: the tickets issued and the tickets paid are what justifies the desk's encaisse (art.
68-26, SLOT-49). The machines' tickets also go, day by day, into their modèle 29 (SLOT-55), and the
expired ones into the orphans carnet 11 bis.
"""

import datetime
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import OuterRef, QuerySet, Subquery, Sum
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from simple_history.utils import bulk_create_with_history

from ledgers.cash import services as cash_services
from ledgers.cash.models import Orphan
from ledgers.core.authz import check_text_lengths, require_role, save_audited
from ledgers.core.errors import RuleViolation
from ledgers.core.exports import neutralise
from ledgers.core.models import Establishment
from ledgers.core.prepared import Bound
from ledgers.core.roles import Role
from ledgers.registers.selectors import current_register
from ledgers.registers.services import display_name, entries_bulk_append, entry_append, register_language
from ledgers.registers.written import note_written

from ..models import (
    AccountingLine,
    Machine,
    Meter,
    MeterCode,
    MeterReading,
    Reconciliation,
    ReconciliationLine,
    Releve,
    Ticket,
)
from ..registers import CHANGE_POINTS, RECONCILIATION_31
from .accounting import CENT, Kind, _paired, _visaed_entry
from .accounting import _append as carnet_append
from .cashdesk import desk_line
from .common import _writer

TICKET_DESK = (Role.CAISSIER, Role.CAISSIER_PRINCIPAL, Role.COMITE, Role.DIRECTEUR_RESPONSABLE)


def validity_days(est: Establishment) -> int:
    """SET-37 (AMB-52): a ticket issued on day D expires at the end of day D + this (8 in France)."""
    return int(est.setting("SET-37") or 8)


def _fr(est: Establishment) -> None:
    if est.jurisdiction != "FR":
        raise ValidationError(_("Cette opération relève de l'arrêté français de 2007."))


def _require_pair(est: Establishment, actor: AbstractBaseUser, comite: AbstractBaseUser | None, code: str) -> None:
    """Modèle 29 lines are written by the cashier and visaed by a comité member (SLOT-55)."""
    if not _paired(est, actor, Role.CAISSIER, comite):
        raise RuleViolation(code, _("La ligne est visée par le caissier et par un membre du comité de direction."))


def _orphan(est: Establishment, category: str, amount: Decimal, place: str, actor: AbstractBaseUser) -> Orphan:
    return cash_services.orphan_record(
        establishment=est,
        category=category,
        amount=amount,
        place=place[:100],
        found_by=display_name(actor),
        paid_into=str(_("compte orphelins")),
        actor=actor,
    )


# --- TITO tickets (SLOT-44) --------------------------------------------------------------------------


@dataclass(frozen=True)
class TicketRow:
    number: str
    issued_at: datetime.datetime
    amount: Decimal
    machine: str = ""  # the issuing machine's casino number; "" when issued by the cash desk


def _ticket_line(
    est: Establishment, ticket: Ticket, *, actor: AbstractBaseUser, role: str, event: Any, at: datetime.datetime
) -> dict[str, Any]:
    """A ticket's line in the slot cash desk's register: issued by which machine or the desk, when."""
    with register_language():
        issuer = f"{_('machine')} {ticket.machine.number}" if ticket.machine else str(_("caisse"))
        detail = _("ticket %(number)s émis par %(issuer)s le %(at)s") % {
            "number": ticket.number,
            "issuer": issuer,
            "at": est.localtime(ticket.issued_at).strftime("%Y-%m-%d %H:%M"),
        }
    return desk_line(est, actor=actor, role=role, event=event, at=at, detail=str(detail), amount=ticket.amount)


def expiry_date(est: Establishment, ticket: Ticket) -> datetime.date:
    """The last day the ticket may be redeemed (SET-37)."""
    return est.localtime(ticket.issued_at).date() + datetime.timedelta(days=validity_days(est))


def valid_since(est: Establishment, today: datetime.date | None = None) -> datetime.datetime:
    """The start of the first day whose tickets are still valid ``today`` (SET-37): those issued
    before it have expired."""
    today = today or est.localtime().date()
    first_valid_day = today - datetime.timedelta(days=validity_days(est))
    return datetime.datetime.combine(first_valid_day, datetime.time(), tzinfo=est.localtime().tzinfo)


def issued_before(est: Establishment | OuterRef, start: datetime.datetime | Bound) -> QuerySet[Ticket]:
    """The tickets of ``est`` issued before ``start`` and not yet posted to orphans."""
    return Ticket.objects.filter(establishment=est, status=Ticket.Status.ISSUED, issued_at__lt=start)


def expired_unposted(est: Establishment, today: datetime.date | None = None) -> QuerySet[Ticket]:
    """Tickets past their expiry date not yet posted to orphans."""
    return issued_before(est, valid_since(est, today))


@transaction.atomic
def tickets_import(*, establishment: Establishment, rows: Sequence[TicketRow], actor: AbstractBaseUser) -> list[Ticket]:
    """Tickets issued by the machines or the cash desk, from the approved system: all rows or none,
    each a line of the slot cash desk's register. An import holds thousands of tickets: they and
    their lines are written in bulk."""
    est = establishment
    _fr(est)
    role = require_role(actor, est, TICKET_DESK)
    register = current_register(est, CHANGE_POINTS.code)
    machines = {m.casino_number: m for m in Machine.objects.filter(establishment=est)}
    numbers = [row.number.strip() for row in rows]
    if len(set(numbers)) != len(numbers) or not all(numbers):
        raise ValidationError(_("Numéros de tickets vides ou en double."))
    if known := list(Ticket.objects.filter(establishment=est, number__in=numbers).values_list("number", flat=True)):
        # The file's own text, echoed back as a spreadsheet will not run it.
        known = ", ".join(str(neutralise(number)) for number in known[:20])
        raise ValidationError(_("Tickets déjà enregistrés : %(n)s.") % {"n": known})
    tickets = []
    for row in rows:
        machine = None
        if row.machine.strip():
            machine = machines.get(row.machine.strip())
            if machine is None or not machine.cashless:
                raise ValidationError(_("Machine à tickets inconnue : %(m)s.") % {"m": neutralise(row.machine)})
        if not Decimal("0") < row.amount < Decimal("1e12"):
            raise ValidationError(_("Montant du ticket %(n)s invalide.") % {"n": neutralise(row.number)})
        ticket = Ticket(
            establishment=est,
            number=row.number.strip(),
            issued_at=row.issued_at,
            amount=row.amount.quantize(CENT),
            machine=machine,
        )
        check_text_lengths(ticket)
        tickets.append(ticket)
    tickets = bulk_create_with_history(tickets, Ticket, default_user=actor, default_change_reason="émission")
    note_written(Ticket, [ticket.pk for ticket in tickets])  # bulk history rows send no signal
    now, role = timezone.now(), _writer(register, role)
    lines = [_ticket_line(est, ticket, actor=actor, role=role, event=_("Ticket émis"), at=now) for ticket in tickets]
    entries_bulk_append(register=register, actor=actor, role=role, payloads=lines)
    return tickets


@transaction.atomic
def ticket_redeem(*, establishment: Establishment, number: str, actor: AbstractBaseUser) -> Ticket:
    """A ticket paid at the cash desk or accepted by a machine, within its validity only: an expired
    ticket is an orphan, never redeemed nor refunded (SLOT-44, art. 41)."""
    est = establishment
    _fr(est)
    role = require_role(actor, est, TICKET_DESK)
    ticket = (
        Ticket.objects.select_for_update(of=("self",))
        .select_related("machine")
        .filter(establishment=est, number=number.strip())
        .first()
    )
    if ticket is None:
        raise ValidationError(_("Ticket inconnu."))
    if ticket.status == Ticket.Status.EXPIRED or est.localtime().date() > expiry_date(est, ticket):
        raise RuleViolation(
            "SLOT-44",
            _("Ticket périmé depuis le %(d)s : il est orphelin et n'est jamais remboursé.")
            % {"d": f"{expiry_date(est, ticket) + datetime.timedelta(days=1):%d/%m/%Y}"},
        )
    if ticket.status == Ticket.Status.REDEEMED:
        raise ValidationError(_("Ticket déjà payé."))
    ticket.status, ticket.redeemed_at, ticket.redeemed_by = Ticket.Status.REDEEMED, timezone.now(), actor
    save_audited(ticket, actor=actor, reason="paiement")
    register = current_register(est, CHANGE_POINTS.code)
    role = _writer(register, role)
    line = _ticket_line(est, ticket, actor=actor, role=role, event=_("Ticket payé"), at=ticket.redeemed_at)
    entry_append(register=register, actor=actor, role=role, payload=line)
    return ticket


@transaction.atomic
def tickets_expire(
    *, establishment: Establishment, actor: AbstractBaseUser, comite: AbstractBaseUser | None
) -> list[Ticket]:
    """The daily expiry run (SLOT-44): every ticket past its validity is written in the orphans carnet
    modèle 11 bis, and the machines' expired tickets in their modèle 29 (one line per machine)."""
    est = establishment
    _fr(est)
    _require_pair(est, actor, comite, "SLOT-44")
    expired = expired_unposted(est).select_for_update(of=("self",)).select_related("machine")
    tickets = list(expired.order_by("issued_at"))
    by_machine: dict[Machine, list[Ticket]] = {}
    for ticket in tickets:
        place = f"{_('machine')} {ticket.machine.number}" if ticket.machine else str(_("caisse"))
        note_written(Ticket, [ticket.pk])  # saved after its orphan's entry, which it refers to
        ticket.orphan = _orphan(
            est, Orphan.Category.EXPIRED_TICKET, ticket.amount, f"{place} — {_('ticket')} {ticket.number}", actor
        )
        ticket.status = Ticket.Status.EXPIRED
        save_audited(ticket, actor=actor, reason="péremption")
        if ticket.machine:
            by_machine.setdefault(ticket.machine, []).append(ticket)
    now = timezone.now()
    for machine, expired in by_machine.items():
        carnet_append(
            machine,
            kind=Kind.EXPIRED,
            at=now,
            amount=sum((t.amount for t in expired), Decimal("0")),
            detail=", ".join(f"{t.number} ({t.amount} €)" for t in expired),
            actor=actor,
            comite=comite,
        )
    return tickets


# --- état de rapprochement modèle 31 (SLOT-43) ---------------------------------------------------------


def _previous_at() -> Subquery:
    """When the meter of the reading (``OuterRef``) was read before it, None the first time."""
    earlier = MeterReading.objects.filter(meter_id=OuterRef("meter_id"), read_at__lt=OuterRef("read_at"))
    return Subquery(earlier.order_by("-read_at", "-id").values("read_at")[:1])


@transaction.atomic
def reconciliation_draw_up(
    *, releve: Releve, actor: AbstractBaseUser, comite: AbstractBaseUser | None
) -> Reconciliation:
    """Modèle 31 of a meter reading (SLOT-43): one line for every machine read, its electronic
    jackpots and cumulative-prizes meter since the previous reading × its credit value against the
    cash-desk payments of its modèle 29 over the same period. A shortfall of payments is unclaimed
    wins: to orphans and to modèle 29 in the same transaction; an excess is flagged (BP)."""
    est = releve.establishment
    _fr(est)
    _require_pair(est, actor, comite, "SLOT-43")
    if Reconciliation.objects.filter(releve=releve).exists():
        raise ValidationError(_("L'état de rapprochement de ce relevé est déjà établi."))
    readings = list(
        releve.readings.select_related("meter__machine")
        .annotate(previous_at=_previous_at())
        .order_by("meter__machine_id", "read_at")
    )
    if not readings:
        raise ValidationError(_("Aucun compteur relevé."))
    machines: dict[Machine, list[MeterReading]] = {}
    for reading in readings:
        machines.setdefault(reading.meter.machine, [])
        if reading.meter.code == MeterCode.JACKPOTS and reading.meter.nature == Meter.Nature.ELECTRONIC:
            machines[reading.meter.machine].append(reading)
    now = timezone.now()
    rows = []
    for machine, jackpot_readings in machines.items():
        end = max(
            (r.read_at for r in jackpot_readings),
            default=max(r.read_at for r in readings if r.meter.machine_id == machine.pk),
        )
        starts = [r.previous_at for r in jackpot_readings if r.previous_at is not None]
        start = min(starts) if starts else None
        units = sum(r.delta or 0 for r in jackpot_readings)
        meter_amount = (units * machine.credit_value).quantize(CENT)
        paid = AccountingLine.objects.filter(machine=machine, kind=Kind.PAYMENT, recorded_at__lte=end)
        if start is not None:
            paid = paid.filter(recorded_at__gt=start)
        payments = paid.aggregate(total=Sum("amount"))["total"] or Decimal("0")
        rows.append(
            ReconciliationLine(
                machine=machine,
                period_start=start,
                period_end=end,
                meter_units=units,
                meter_amount=meter_amount,
                payments=payments,
                difference=meter_amount - payments,
                flagged=payments > meter_amount,
            )
        )
    shortfall = sum((row.difference for row in rows if row.difference > 0), Decimal("0"))
    detail = " ; ".join(
        f"{row.machine.number} : {_('compteur')} {row.meter_amount} € ({row.meter_units}) − {_('paiements')} "
        f"{row.payments} € = {row.difference} €" + (f" ({_('signalé')})" if row.flagged else "")
        for row in rows
    )
    entry = _visaed_entry(
        est,
        current_register(est, RECONCILIATION_31.code),
        None,
        event=_("État de rapprochement"),
        at=now,
        detail=f"{releve} — {detail}",
        actor=actor,
        role=Role.CAISSIER,
        comite=comite,
        amount=str(shortfall),
    )
    reconciliation = Reconciliation.objects.create(
        releve=releve, drawn_up_at=now, cashier=actor, comite=comite, entry=entry
    )
    for row in rows:
        row.reconciliation = reconciliation
        if row.difference > 0:
            row.orphan = _orphan(
                est, Orphan.Category.UNCLAIMED_WIN, row.difference, f"{_('machine')} {row.machine.number}", actor
            )
            row.accounting_line = carnet_append(
                row.machine,
                kind=Kind.UNCLAIMED,
                at=now,
                amount=row.difference,
                actor=actor,
                comite=comite,
                detail=f"{_('état de rapprochement')} — {_('compteur')} {row.meter_amount} € − {_('paiements')} "
                f"{row.payments} €",
            )
        row.save()
    return reconciliation


def awaiting_reconciliation(est: Establishment | Bound) -> QuerySet[Releve]:
    """SLOT-43: FR relèves with meter readings still waiting for their état de rapprochement (they
    do not close without it)."""
    return Releve.objects.filter(establishment=est, readings__isnull=False, reconciliation__isnull=True).distinct()
