"""FR slot accounting (FR-2007 art. 68-21, 68-25, 73, 74): the carnet de comptabilité modèle 29 of
each machine, the bons d'avance machine, the état mensuel du relevé des compteurs modèle 32 and
the état récapitulatif mensuel modèle 35.

Every line of modèle 29 is written by the cashier and visaed by a comité member, another person
(SLOT-55); an avance is a bon signed by both (SLOT-42, REG-42) and its line in modèle 29 is written
in the same transaction, so the annotation the text requires cannot be missing. The avances,
cash-desk payments and tickets recorded since the machine's last count are its open bons, cash
values until the next count (SLOT-49), which takes them into the real gaming product.
"""

import calendar
import datetime
from decimal import Decimal
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max, OuterRef, QuerySet, Subquery, Sum
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ledgers.core.amounts import CENT
from ledgers.core.authz import roles_of
from ledgers.core.errors import RuleViolation
from ledgers.core.models import Establishment
from ledgers.core.prepared import Bound
from ledgers.core.readable import euros
from ledgers.core.roles import Role
from ledgers.registers.models import Entry, Register
from ledgers.registers.selectors import current_register
from ledgers.registers.services import display_name, entry_append, register_language

from ..models import (
    AccountingLine,
    IncrementBon,
    JackpotPayment,
    Machine,
    MachineAvance,
    MeterReading,
    MeterStatement,
    MonthlyStatement,
    Place,
    ProgressiveStop,
)
from ..registers import ACCOUNTING_29, METER_STATEMENT_32, STATEMENT_35
from .common import _line, _signature

Kind = AccountingLine.Kind

# The largest amount an accounting column holds (max_digits=14, decimal_places=2).
LIMIT = Decimal("1e12")


def _check_visas(
    machine: Machine,
    actor: AbstractBaseUser,
    comite: AbstractBaseUser | None,
    code: str,
    signed_by: AbstractBaseUser | None,
) -> None:
    """The cashier writes, a comité member (another person) visas: both or nothing. The line is
    validated by its writer's electronic signature (REG-28): ``signed_by`` is the person the caller
    re-authenticated for this line, who must be its writer."""
    est = machine.establishment
    if est.jurisdiction != "FR":
        raise ValidationError(_("Le carnet de comptabilité modèle 29 est tenu dans les casinos français."))
    if Role.CAISSIER not in roles_of(actor, est):
        raise RuleViolation(code, _("La ligne est inscrite par le caissier."))
    if not _paired(est, actor, Role.CAISSIER, comite):
        raise RuleViolation(code, _("La ligne est visée par le caissier et par un membre du comité de direction."))
    if signed_by is None or signed_by.pk != actor.pk:
        raise RuleViolation(
            "REG-28",
            _(
                "La ligne est une inscription du carnet modèle 29, validée par la signature électronique de son "
                "auteur : confirmez votre identité (mot de passe)."
            ),
        )


def _paired(est: Establishment, actor: AbstractBaseUser, role: str, comite: AbstractBaseUser | None) -> bool:
    """``actor`` holds ``role`` and ``comite``, another person, is a comité member."""
    return (
        role in roles_of(actor, est)
        and comite is not None
        and comite.pk != actor.pk
        and Role.COMITE in roles_of(comite, est)
    )


def _visaed_entry(
    est: Establishment,
    register: Register,
    machine: Machine | None,
    *,
    event: Any,
    at: datetime.datetime,
    detail: str,
    actor: AbstractBaseUser,
    role: str,
    comite: AbstractBaseUser,
    **extra: Any,
) -> Entry:
    """The register line written by ``actor`` in ``role`` and signed by the comité member too."""
    with register_language():
        payload = _line(machine, event=event, at=at, detail=detail, actor=actor, role=role, est=est, **extra)
        payload["signature"] = f"{payload['signature']} ; {_signature(comite, Role.COMITE)}"
    return entry_append(register=register, actor=actor, role=role, payload=payload)


def _positive(**amounts: Decimal) -> None:
    for name, amount in amounts.items():
        if amount < 0:
            raise ValidationError({name: _("Montant positif ou nul attendu.")})


def _append(
    machine: Machine,
    *,
    kind: str,
    at: datetime.datetime,
    amount: Decimal,
    detail: str,
    actor: AbstractBaseUser,
    comite: AbstractBaseUser,
    **fields: Any,
) -> AccountingLine:
    est = machine.establishment
    register = current_register(est, ACCOUNTING_29.code, machine.casino_number)
    entry = _visaed_entry(
        est,
        register,
        machine,
        event=Kind(kind).label,
        at=at,
        detail=detail,
        actor=actor,
        role=Role.CAISSIER,
        comite=comite,
        amount=str(amount),
    )
    return AccountingLine.objects.create(
        machine=machine,
        kind=kind,
        day=est.localtime(at).date(),
        recorded_at=at,
        amount=amount,
        cashier=actor,
        comite=comite,
        entry=entry,
        **fields,
    )


def last_count(machine: Machine) -> AccountingLine | None:
    return machine.accounting_lines.filter(kind=Kind.COUNT).order_by("-recorded_at", "-pk").first()


def open_lines(machine: Machine) -> QuerySet[AccountingLine]:
    """The avances, payments and tickets since the machine's last count: its cash values (SLOT-49)."""
    lines = machine.accounting_lines.exclude(kind=Kind.COUNT)
    previous = last_count(machine)
    return lines.filter(pk__gt=previous.pk) if previous else lines


def open_totals(machine: Machine) -> dict[str, Decimal]:
    sums = {row["kind"]: row["total"] for row in open_lines(machine).values("kind").annotate(total=Sum("amount"))}
    return {kind: sums.get(kind) or Decimal("0") for kind in (Kind.AVANCE, Kind.PAYMENT, Kind.TICKETS)}


@transaction.atomic
def avance_issue(
    *,
    machine: Machine,
    amount: Decimal,
    denomination: str,
    reason: str,
    refilled_by: AbstractBaseUser,
    comite: AbstractBaseUser | None,
    actor: AbstractBaseUser,
    signed_by: AbstractBaseUser | None = None,
    issued_at: datetime.datetime | None = None,
) -> MachineAvance:
    """A bon d'avance machine (SLOT-42): the cashier fills it in (location and maker numbers, date,
    time, denomination, amount, reason), signs it with the comité member, and the employee refills
    the machine under that member's control; the avance goes in modèle 29 (SLOT-55)."""
    _check_visas(machine, actor, comite, "SLOT-42", signed_by)
    if reason not in MachineAvance.Reason.values:
        raise RuleViolation(
            "SLOT-42",
            _(
                "Le motif de l'avance est obligatoire : trémie vide pendant un paiement, "
                "mise en service ou avance préventive."
            ),
        )
    if amount <= 0:
        raise ValidationError({"amount": _("Montant positif attendu.")})
    if not denomination.strip():
        raise ValidationError({"denomination": _("La valeur des pièces ou jetons est obligatoire.")})
    est = machine.establishment
    if refilled_by is None or not roles_of(refilled_by, est):
        raise RuleViolation(
            "SLOT-42", _("La machine est rechargée par un employé, sous le contrôle du membre du comité.")
        )
    issued_at = issued_at or timezone.now()
    # Bons are numbered without gaps (REG-42): the next number under the establishment's row lock.
    Establishment.objects.select_for_update().get(pk=est.pk)
    bon = (MachineAvance.objects.filter(establishment=est).aggregate(n=Max("bon_number"))["n"] or 0) + 1
    label = _("Bon d'avance")
    detail = (
        f"{label} n° {bon} — {MachineAvance.Reason(reason).label} — "
        f"{_('emplacement')} {machine.location_number} — {_('fabricant')} {machine.maker_number} — "
        f"{denomination.strip()} — {_('rechargée par')} {display_name(refilled_by)}"
    )
    line = _append(machine, kind=Kind.AVANCE, at=issued_at, amount=amount, detail=detail, actor=actor, comite=comite)
    return MachineAvance.objects.create(
        establishment=est,
        bon_number=bon,
        machine=machine,
        reason=reason,
        issued_at=issued_at,
        denomination=denomination.strip(),
        amount=amount,
        cashier=actor,
        comite=comite,
        refilled_by=refilled_by,
        line=line,
    )


def payments_to_post(establishment: Establishment | Bound) -> QuerySet[JackpotPayment]:
    """The wins paid at the cash desk whose bon is not yet in the machine's modèle 29 with the
    comité member's visa (SLOT-35, SLOT-55): the jackpots the cashier and comité still control."""
    return JackpotPayment.objects.filter(
        machine__establishment=establishment, accounting_line__isnull=True
    ).select_related("machine")


@transaction.atomic
def payment_post(
    *,
    payment: JackpotPayment,
    comite: AbstractBaseUser | None,
    actor: AbstractBaseUser,
    signed_by: AbstractBaseUser | None = None,
) -> AccountingLine:
    """A win paid at the cash desk (its bon de paiement, SLOT-35) entered in the machine's
    modèle 29, once (SLOT-55)."""
    machine = payment.machine
    _check_visas(machine, actor, comite, "SLOT-55", signed_by)
    if AccountingLine.objects.filter(jackpot=payment).exists():
        raise ValidationError(_("Ce paiement est déjà inscrit au carnet de comptabilité."))
    detail = f"{_('bon de paiement')} n° {payment.bon_number or '—'} — {payment.combination}".rstrip(" —")
    return _append(
        machine,
        kind=Kind.PAYMENT,
        at=payment.paid_at,
        amount=payment.amount,
        detail=detail,
        actor=actor,
        comite=comite,
        jackpot=payment,
    )


@transaction.atomic
def tickets_record(
    *,
    machine: Machine,
    amount: Decimal,
    comite: AbstractBaseUser | None,
    actor: AbstractBaseUser,
    signed_by: AbstractBaseUser | None = None,
    day: datetime.date | None = None,
) -> AccountingLine:
    """The tickets out the machine issued during a day, in modèle 29 (SLOT-55)."""
    _check_visas(machine, actor, comite, "SLOT-55", signed_by)
    _positive(amount=amount)
    now = timezone.now()
    day = day or machine.establishment.localtime(now).date()
    return _append(
        machine,
        kind=Kind.TICKETS,
        at=now,
        amount=amount,
        detail=f"{_('journée du')} {day:%d/%m/%Y}",
        actor=actor,
        comite=comite,
    )


def gaming_product(
    *, physical: Decimal, electronic: Decimal, avances: Decimal, payments: Decimal, unclaimed: Decimal, tickets: Decimal
) -> Decimal:
    """Art. 73: physical + electronic counts − avances − cash-desk payments − unclaimed wins −
    tickets issued."""
    return physical + electronic - avances - payments - unclaimed - tickets


@transaction.atomic
def count_record(
    *,
    machine: Machine,
    physical: Decimal,
    comite: AbstractBaseUser | None,
    actor: AbstractBaseUser,
    signed_by: AbstractBaseUser | None = None,
    units_in: int = 0,
    units_out: int = 0,
    unclaimed: Decimal = Decimal("0"),
    product: Decimal | None = None,
) -> AccountingLine:
    """A count in modèle 29 (SLOT-55): the physical count (chips, coins, banknotes, tickets in) and
    the electronic count ((units in − units out) × unit stake) apart, the unclaimed wins, and the
    real gaming product computed by art. 73 from the open avances, payments and tickets. A product
    declared by the cashier must be that one. Every cash-desk payment of the machine since its last
    count must be in modèle 29 first."""
    _check_visas(machine, actor, comite, "SLOT-55", signed_by)
    _positive(physical=physical, unclaimed=unclaimed)
    if units_in < 0 or units_out < 0:
        raise ValidationError(_("Nombre d'unités positif ou nul attendu."))
    if (units_in or units_out) and machine.credit_value is None:
        raise ValidationError(_("La valeur unitaire de la mise de la machine n'est pas renseignée."))
    previous = last_count(machine)
    unposted = JackpotPayment.objects.filter(machine=machine, accounting_line__isnull=True)
    if previous is not None:
        unposted = unposted.filter(paid_at__gt=previous.recorded_at)
    if unposted.exists():
        raise RuleViolation(
            "SLOT-55", _("Des gains payés à la caisse ne sont pas inscrits au carnet de comptabilité de la machine.")
        )
    electronic = ((units_in - units_out) * (machine.credit_value or Decimal("0"))).quantize(CENT)
    totals = open_totals(machine)
    computed = gaming_product(
        physical=physical,
        electronic=electronic,
        avances=totals[Kind.AVANCE],
        payments=totals[Kind.PAYMENT],
        unclaimed=unclaimed,
        tickets=totals[Kind.TICKETS],
    )
    if max(abs(electronic), abs(computed)) >= LIMIT:
        raise ValidationError(_("Montant hors limites."))
    if product is not None and product != computed:
        raise RuleViolation(
            "SLOT-55",
            _(
                "Le produit réel des jeux est égal aux comptages physique et électronique, "
                "moins les avances, les paiements à la caisse, les gains non réclamés et les "
                "tickets émis : %(p)s €."
            )
            % {"p": euros(computed)},
        )
    detail = (
        f"{_('physique')} {physical} € + {_('électronique')} {electronic} € ({units_in} − {units_out} "
        f"{_('unités')}) − {_('avances')} {totals[Kind.AVANCE]} € − {_('paiements')} "
        f"{totals[Kind.PAYMENT]} € − {_('non réclamés')} {unclaimed} € − {_('tickets')} "
        f"{totals[Kind.TICKETS]} €"
    )
    return _append(
        machine,
        kind=Kind.COUNT,
        at=timezone.now(),
        amount=computed,
        detail=detail,
        actor=actor,
        comite=comite,
        physical=physical,
        units_in=units_in,
        units_out=units_out,
        electronic=electronic,
        avances=totals[Kind.AVANCE],
        payments=totals[Kind.PAYMENT],
        unclaimed=unclaimed,
        tickets=totals[Kind.TICKETS],
    )


def withdrawal_bons(establishment: Establishment, year: int, month: int) -> QuerySet[IncrementBon]:
    """The bons d'incrémentation drawn up on the day this casino left a JPM during the month: art.
    68-20-2 deducts them from the month's gross gaming product (SLOT-41)."""
    return IncrementBon.objects.filter(
        establishment=establishment,
        stop__kind=ProgressiveStop.Kind.WITHDRAWAL,
        stop__stop_date__year=year,
        stop__stop_date__month=month,
    )


def statement_lines(establishment: Establishment, year: int, month: int) -> list[dict[str, str]]:
    """Modèle 35's lines: per machine, the month's modèle 29 counts summed (counts, avances,
    payment bons, tickets issued, unclaimed wins, product), with its unit stake and payout rate,
    and the JPM withdrawal bons to deduct (SLOT-41)."""
    lines = []
    counts = AccountingLine.objects.filter(
        machine__establishment=establishment, kind=Kind.COUNT, day__year=year, day__month=month
    ).select_related("machine")
    by_machine: dict[Machine, list[AccountingLine]] = {}
    for line in counts.order_by("machine__casino_number", "recorded_at"):
        by_machine.setdefault(line.machine, []).append(line)
    deductions: dict[Machine, Decimal] = {}
    for bon in withdrawal_bons(establishment, year, month).select_related("machine"):
        deductions[bon.machine] = deductions.get(bon.machine, Decimal("0")) + bon.share
        by_machine.setdefault(bon.machine, [])
    for machine, rows in sorted(by_machine.items(), key=lambda item: item[0].casino_number):

        def total(name: str, rows: list[AccountingLine] = rows) -> str:
            return str(sum((getattr(row, name) or Decimal("0") for row in rows), Decimal("0")).quantize(CENT))

        lines.append(
            {
                "machine": machine.pk,
                "location": machine.location_number,
                "casino": machine.casino_number,
                "maker": machine.maker_number,
                "counts": str(sum((row.physical + row.electronic for row in rows), Decimal("0")).quantize(CENT)),
                "avances": total("avances"),
                "payments": total("payments"),
                "tickets": total("tickets"),
                "unclaimed": total("unclaimed"),
                "unit_stake": str(machine.credit_value or ""),
                "rate": str(machine.rtp_percent if machine.rtp_percent is not None else ""),
                "product": total("amount"),
                "jpm_deduction": str(deductions.get(machine, Decimal("0")).quantize(CENT)),
            }
        )
    return lines


@transaction.atomic
def statement_certify(
    *,
    establishment: Establishment,
    year: int,
    month: int,
    comite: AbstractBaseUser | None,
    actor: AbstractBaseUser,
    total: Decimal | None = None,
) -> MonthlyStatement:
    """The état récapitulatif mensuel modèle 35 (SLOT-56), drawn up on the month's last day from
    modèle 29 and certified by the casino director and a comité member, two different persons.
    A total declared by the director must be the sum of the month's modèle 29 products less the
    bons d'incrémentation of a withdrawal from a JPM during the month (SLOT-41, art. 68-20-2)."""
    est = establishment
    if est.jurisdiction != "FR":
        raise ValidationError(_("L'état récapitulatif modèle 35 est tenu dans les casinos français."))
    if not _paired(est, actor, Role.DIRECTEUR_RESPONSABLE, comite):
        raise RuleViolation(
            "SLOT-56",
            _(
                "L'état est certifié et signé par le directeur du casino et par un membre du "
                "comité de direction, deux personnes différentes."
            ),
        )
    last_day = datetime.date(year, month, calendar.monthrange(year, month)[1])
    now = timezone.now()
    if est.localtime(now).date() < last_day:
        raise ValidationError(_("L'état récapitulatif est établi le dernier jour du mois."))
    if MonthlyStatement.objects.filter(establishment=est, year=year, month=month).exists():
        raise ValidationError(_("L'état récapitulatif de ce mois est déjà certifié."))
    lines = statement_lines(est, year, month)
    deduction = sum((Decimal(line["jpm_deduction"]) for line in lines), Decimal("0"))
    computed = (sum((Decimal(line["product"]) for line in lines), Decimal("0")) - deduction).quantize(CENT)
    if total is not None and total != computed:
        raise RuleViolation(
            "SLOT-56",
            _(
                "Le total de l'état est la somme des produits du mois inscrits aux carnets de "
                "comptabilité, moins les bons d'incrémentation du retrait d'un JPM : "
                "%(t)s €."
            )
            % {"t": euros(computed)},
        )
    detail = f"{month:02d}/{year} — {len(lines)} {_('machine(s)')} — " + " ; ".join(
        f"{line['casino']} : {line['product']} €"
        + (f" − {line['jpm_deduction']} €" if Decimal(line["jpm_deduction"]) else "")
        for line in lines
    )
    if deduction:
        label = _("déduction bons d'incrémentation JPM (art. 68-20-2)")
        detail += f" — {label} : {deduction.quantize(CENT)} €"
    entry = _visaed_entry(
        est,
        current_register(est, STATEMENT_35.code),
        None,
        event=_("État récapitulatif mensuel"),
        at=now,
        actor=actor,
        role=Role.DIRECTEUR_RESPONSABLE,
        comite=comite,
        amount=str(computed),
        detail=detail,
    )
    return MonthlyStatement.objects.create(
        establishment=est,
        year=year,
        month=month,
        lines=lines,
        total=computed,
        director=actor,
        comite=comite,
        certified_at=now,
        entry=entry,
    )


def month_slot_total(establishment: Establishment, year: int, month: int) -> Decimal | None:
    """The certified modèle 35 total that the carnet des prélèvements modèle 13 takes (COUNT-57),
    None while the month's statement is not certified."""
    statement = MonthlyStatement.objects.filter(establishment=establishment, year=year, month=month).first()
    return statement.total if statement else None


def _month(est: Establishment, year: int, month: int) -> tuple[datetime.datetime, datetime.datetime]:
    """The month's first instant and the first instant of the next month, in the casino's time."""
    first = datetime.date(year, month, 1)
    following = (first + datetime.timedelta(days=32)).replace(day=1)
    tz = timezone.get_current_timezone()
    return (
        timezone.make_aware(datetime.datetime.combine(first, datetime.time()), tz),
        timezone.make_aware(datetime.datetime.combine(following, datetime.time()), tz),
    )


def fleet_of_month(establishment: Establishment, year: int, month: int) -> list[Machine]:
    """Every machine in the fleet at any time during the month: registered before its end and not
    retired before its start (those retired during the month stay: reserve, export, destruction)."""
    start, end = _month(establishment, year, month)
    retired_before = Machine.history.filter(
        establishment=establishment, status=Machine.Status.RETIRED, history_date__lt=start
    ).values("id")
    return list(
        Machine.objects.filter(establishment=establishment, registered_at__lt=end)
        .exclude(pk__in=retired_before)
        .order_by("casino_number")
        .prefetch_related("meters")
    )


@transaction.atomic
def meter_statement_certify(
    *, establishment: Establishment, year: int, month: int, comite: AbstractBaseUser | None, actor: AbstractBaseUser
) -> MeterStatement:
    """The état mensuel du relevé des compteurs modèle 32 (SLOT-47): the meters read at the month-end
    count by a gaming employee under a comité member's responsibility, one line per machine of the
    month's fleet, certified by both, once the month-end count is closed (SLOT-46). A machine on the
    floor whose meters were not all read during the month holds the certification."""
    est = establishment
    if est.jurisdiction != "FR":
        raise ValidationError(_("L'état mensuel modèle 32 est tenu dans les casinos français."))
    if not _paired(est, actor, Role.EMPLOYE_JEUX, comite):
        raise RuleViolation(
            "SLOT-47",
            _(
                "L'état est certifié par l'employé de jeux qui a relevé les compteurs et par "
                "le membre du comité de direction."
            ),
        )
    if MeterStatement.objects.filter(establishment=est, year=year, month=month).exists():
        raise ValidationError(_("L'état mensuel de ce mois est déjà certifié."))
    from .counts import check_month_end_count  # counts writes modèle 29 through this module

    check_month_end_count(est, year, month)
    start, end = _month(est, year, month)
    fleet = fleet_of_month(est, year, month)
    # Each meter's last reading before the month's end (a subquery: SQLite has no DISTINCT ON).
    latest = MeterReading.objects.filter(meter=OuterRef("meter"), read_at__lt=end).order_by("-read_at", "-id")
    readings = MeterReading.objects.filter(
        meter__machine__in=fleet, read_at__lt=end, pk=Subquery(latest.values("pk")[:1])
    ).values_list("meter_id", "value", "read_at")
    last = {meter: (value, at) for meter, value, at in readings}
    lines, unread = [], []
    for machine in fleet:
        meters = [m for m in machine.meters.all() if m.active]
        if machine.place == Place.FLOOR and any(m.pk not in last or last[m.pk][1] < start for m in meters):
            unread.append(machine.number)
        lines.append(
            {
                "machine": machine.pk,
                "location": machine.location_number,
                "casino": machine.casino_number,
                "maker": machine.maker_number,
                "status": machine.status,
                "meters": {f"{m.key}@{m.station}": last[m.pk][0] for m in meters if m.pk in last},
            }
        )
    if unread:
        raise RuleViolation("SLOT-47", _("Compteurs non relevés ce mois-ci : %(m)s.") % {"m": ", ".join(unread)})
    now = timezone.now()
    detail = f"{month:02d}/{year} — " + " ; ".join(
        f"{line['casino']} : " + ", ".join(f"{k} {v}" for k, v in line["meters"].items()) for line in lines
    )
    entry = _visaed_entry(
        est,
        current_register(est, METER_STATEMENT_32.code),
        None,
        event=_("État mensuel du relevé des compteurs"),
        at=now,
        actor=actor,
        role=Role.EMPLOYE_JEUX,
        comite=comite,
        detail=detail,
    )
    return MeterStatement.objects.create(
        establishment=est,
        year=year,
        month=month,
        lines=lines,
        employee=actor,
        comite=comite,
        certified_at=now,
        entry=entry,
    )
