"""The count sessions of the slot boxes (FR-2007 art. 68-24, SLOT-46): opened, one line per machine,
closed.

France: the coin or chip, bill and ticket boxes are counted as needed and always on the month's
last day; on cashless machines the electronic units in and out are read. A count covers every
machine that has run since its last count; a count of one denomination during a séance needs a
general count of that denomination at the séance's end (a séance closing check, ``hooks``); the
season's last count takes the cash floats and the hoppers too. Each machine's count is its line in
the carnet de comptabilité modèle 29 (``accounting.count_record``, cashier and comité member).
Monaco: the count of a relève's boxes, each machine's line being its reconciled drop (SLOT-11).

An open session is the purpose the bill-box content keys go out for (KEY-03, KEY-14; ``purposes``).
"""

import calendar
import datetime
from decimal import Decimal

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Exists, OuterRef, QuerySet
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ledgers.core.authz import role_named_by_text, save_audited
from ledgers.core.errors import RuleViolation
from ledgers.core.expressions import ArraySubquery
from ledgers.core.models import Establishment, Seance
from ledgers.core.prepared import Bound
from ledgers.core.roles import Role
from ledgers.registers.models import Entry
from ledgers.registers.services import entry_write, register_language

from ..models import DropCount, Machine, Releve, SlotCount, SlotCountLine
from ..registers import SLOT_COUNTS
from . import accounting
from .common import COUNT_ROLES, _line
from .releves import drop_count_record

Kind = SlotCount.Kind
# Who opens and closes a count: FR the comité member responsible, the directeur responsable or the
# cashier (68-25, SLOT-55); MC the superviseur, the accounts or the cashier of the count room.
COUNT_SESSION_ROLES = {
    "FR": (Role.COMITE, Role.DIRECTEUR_RESPONSABLE, Role.CAISSIER),
    "MC": (Role.SUPERVISEUR, Role.COMPTABILITE, Role.CAISSIER, Role.DIRECTEUR_EXPLOITATION),
}
# Who writes a machine's line: MC the counters of the relève's drop (SLOT-11), FR the cashier in
# the machine's modèle 29, visaed by a comité member (SLOT-55).
COUNT_LINE_ROLES = {"FR": (Role.CAISSIER,), "MC": COUNT_ROLES}
# The kinds that must take in every machine that ran since its last count (of the denomination
# for the séance-end general count); a count during a séance takes some machines of one.
GENERAL = (Kind.AS_NEEDED, Kind.MONTH_END, Kind.SEASON_END, Kind.DENOMINATION_END)
BY_DENOMINATION = (Kind.INTRA_SEANCE, Kind.DENOMINATION_END)
LIMIT = Decimal("1e12")
WHO_COUNTS = _("Seuls le caissier ou les responsables de la comptée ouvrent et closent une comptée.")


def _entry(
    count: SlotCount, *, actor: AbstractBaseUser, role: str, event: object, at: datetime.datetime, detail: str
) -> Entry:
    est = count.establishment
    with register_language():
        payload = _line(None, event=event, at=at, detail=detail, actor=actor, role=role, est=est, count=count.pk)
    payload.pop("machine")
    return entry_write(establishment=est, kind=SLOT_COUNTS.code, actor=actor, role=role, payload=payload)


def is_last_day(day: datetime.date) -> bool:
    return day.day == calendar.monthrange(day.year, day.month)[1]


def _last_counted_at(machine: Machine, before: datetime.datetime) -> datetime.datetime | None:
    """When the machine was last counted in a closed session before ``before``."""
    line = (
        SlotCountLine.objects.filter(
            machine=machine, count__status=SlotCount.Status.CLOSED, count__closed_at__lt=before
        )
        .order_by("-recorded_at")
        .first()
    )
    return line.recorded_at if line else None


def ran_since_last_count(machine: Machine, at: datetime.datetime) -> bool:
    """The machine was in service at some time between its last count and ``at``: in service at
    its last count (or ever, never counted), or put in service since."""
    since = _last_counted_at(machine, at)
    history = Machine.history.filter(id=machine.pk, history_date__lte=at)
    if since is None:
        return history.filter(status=Machine.Status.IN_SERVICE).exists()
    at_count = history.filter(history_date__lte=since).order_by("-history_date", "-history_id").first()
    return (at_count is not None and at_count.status == Machine.Status.IN_SERVICE) or history.filter(
        history_date__gt=since, status=Machine.Status.IN_SERVICE
    ).exists()


def machines_due(count: SlotCount) -> list[Machine]:
    """The machines the session must cover (SLOT-46): those that ran since their last count, of
    its denomination for a séance-end general count."""
    machines = Machine.objects.filter(establishment=count.establishment).order_by("casino_number", "sbm_number")
    if count.kind in BY_DENOMINATION:
        machines = machines.filter(credit_value=count.denomination)
    return [m for m in machines if ran_since_last_count(m, count.opened_at)]


def uncovered(count: SlotCount) -> list[Machine]:
    covered = set(count.lines.values_list("machine_id", flat=True))
    return [m for m in machines_due(count) if m.pk not in covered]


def open_counts(establishment: Establishment) -> QuerySet[SlotCount]:
    return SlotCount.objects.filter(establishment=establishment, status=SlotCount.Status.OPEN)


@transaction.atomic
def slot_count_open(
    *,
    establishment: Establishment,
    kind: str,
    actor: AbstractBaseUser,
    seance: Seance | None = None,
    denomination: Decimal | None = None,
    releve: Releve | None = None,
) -> SlotCount:
    """Open a count session. FR: a month-end count is dated on the month's last day; a count of a
    denomination (during the séance, or its general count at the end) names the open séance and
    the denomination. MC: the count of the boxes of a relève."""
    est = establishment
    role = role_named_by_text(actor, est, COUNT_SESSION_ROLES[est.jurisdiction], "SLOT-46", WHO_COUNTS)
    if kind not in Kind.values:
        raise ValidationError({"kind": _("Type de comptée inconnu.")})
    now = timezone.now()
    day = est.localtime(now).date()
    if est.jurisdiction == "MC":
        if kind != Kind.AS_NEEDED or releve is None or releve.establishment_id != est.pk:
            raise ValidationError(_("À Monaco, la comptée porte sur les boîtes d'une relève de l'établissement."))
        seance = denomination = None
    else:
        releve = None
        if kind == Kind.MONTH_END and not is_last_day(day):
            raise RuleViolation("SLOT-46", _("La comptée de fin de mois a lieu le dernier jour du mois."))
        if kind in BY_DENOMINATION:
            if seance is None or seance.establishment_id != est.pk or seance.status != Seance.Status.OPEN:
                raise RuleViolation("SLOT-46", _("Une comptée d'une dénomination se fait pendant une séance ouverte."))
            if denomination is None or not Decimal("0") < denomination < LIMIT:
                raise ValidationError({"denomination": _("La dénomination des machines comptées est obligatoire.")})
        else:
            denomination = None
    count = save_audited(
        SlotCount(
            establishment=est,
            kind=kind,
            day=day,
            seance=seance,
            denomination=denomination,
            releve=releve,
            opened_at=now,
            opened_by=actor,
        ),
        actor=actor,
        reason="ouverture",
    )
    detail = (
        str(Kind(kind).label)
        + (f" — {denomination} €" if denomination else "")
        + (f" — {seance}" if seance else "")
        + (f" — {releve}" if releve else "")
    )
    _entry(count, actor=actor, role=role, event=_("Ouverture de la comptée"), at=now, detail=detail)
    return count


def _open(count: SlotCount) -> SlotCount:
    count = SlotCount.objects.select_for_update().get(pk=count.pk)
    if count.status != SlotCount.Status.OPEN:
        raise ValidationError(_("Cette comptée est close."))
    return count


@transaction.atomic
def slot_count_line(
    *,
    count: SlotCount,
    machine: Machine,
    actor: AbstractBaseUser,
    coins: Decimal = Decimal("0"),
    bills: Decimal = Decimal("0"),
    tickets: Decimal = Decimal("0"),
    units_in: int | None = None,
    units_out: int | None = None,
    hopper: Decimal | None = None,
    unclaimed: Decimal = Decimal("0"),
    comite: AbstractBaseUser | None = None,
    signed_by: AbstractBaseUser | None = None,
) -> SlotCountLine:
    """One machine counted: its coin or chip, bill and ticket boxes; on a cashless machine the
    electronic units in and out read (SLOT-46); at the season end its hopper. FR: written in its
    modèle 29 by the cashier with the comité member's visa; MC: its drop reconciled (SLOT-11)."""
    count = _open(count)
    est = count.establishment
    if machine.establishment_id != est.pk:
        raise ValidationError(_("Machine inconnue."))
    for name, amount in {"coins": coins, "bills": bills, "tickets": tickets, "hopper": hopper or 0}.items():
        if not Decimal("0") <= amount < LIMIT:
            raise ValidationError({name: _("Montant positif ou nul attendu.")})
    if SlotCountLine.objects.filter(count=count, machine=machine).exists():
        raise ValidationError(_("Cette machine est déjà comptée dans cette comptée."))
    physical = coins + bills + tickets
    if physical >= LIMIT:
        raise ValidationError(_("Montant hors limites."))
    now = timezone.now()
    line = SlotCountLine(
        count=count, machine=machine, coins=coins, bills=bills, tickets=tickets, recorded_at=now, recorded_by=actor
    )
    if est.jurisdiction == "MC":
        if DropCount.objects.filter(releve=count.releve, machine=machine).exists():
            raise ValidationError(_("Cette machine est déjà comptée pour la relève."))
        drop = drop_count_record(releve=count.releve, machine=machine, counted=physical, actor=actor)
        line.drop_count, line.entry = drop, drop.entry
    else:
        if count.kind in BY_DENOMINATION and machine.credit_value != count.denomination:
            raise RuleViolation(
                "SLOT-46", _("La machine %(m)s n'est pas de la dénomination comptée.") % {"m": machine.number}
            )
        if machine.cashless and (units_in is None or units_out is None):
            raise RuleViolation(
                "SLOT-46",
                _("Machine sans numéraire : les compteurs des unités électroniques entrées et sorties sont relevés."),
            )
        if count.kind == Kind.SEASON_END and machine.hopper and hopper is None:
            raise RuleViolation("SLOT-46", _("Le dernier jour de la saison, la trémie de la machine est comptée."))
        accounted = accounting.count_record(
            machine=machine,
            physical=physical,
            comite=comite,
            actor=actor,
            signed_by=signed_by,
            units_in=units_in or 0,
            units_out=units_out or 0,
            unclaimed=unclaimed,
        )
        line.units_in, line.units_out, line.hopper = units_in, units_out, hopper
        line.accounting_line, line.entry = accounted, accounted.entry
    line.save()
    return line


@transaction.atomic
def slot_count_close(*, count: SlotCount, actor: AbstractBaseUser, floats: Decimal | None = None) -> SlotCount:
    """Close the session. FR: refused while a machine that ran since its last count is not counted
    (SLOT-46); the season-end count takes the cash floats (fonds de caisse) too."""
    count = _open(count)
    est = count.establishment
    role = role_named_by_text(actor, est, COUNT_SESSION_ROLES[est.jurisdiction], "SLOT-46", WHO_COUNTS)
    if not count.lines.exists() and (est.jurisdiction == "MC" or count.kind not in GENERAL):
        raise ValidationError(_("Aucune machine n'a été comptée."))
    if est.jurisdiction == "FR":
        if count.kind in GENERAL and (missing := uncovered(count)):
            raise RuleViolation(
                "SLOT-46",
                _(
                    "La comptée concerne toutes les machines ayant fonctionné depuis la "
                    "dernière comptée ; non comptées : %(m)s."
                )
                % {"m": ", ".join(m.number for m in missing)},
            )
        if count.kind == Kind.SEASON_END:
            if floats is None:
                raise RuleViolation("SLOT-46", _("Le dernier jour de la saison, les fonds de caisse sont comptés."))
            if not Decimal("0") <= floats < LIMIT:
                raise ValidationError({"floats": _("Montant positif ou nul attendu.")})
            count.floats = floats
    count.status, count.closed_at, count.closed_by = SlotCount.Status.CLOSED, timezone.now(), actor
    save_audited(count, actor=actor, reason="clôture")
    lines = count.lines.select_related("machine").order_by("machine__casino_number", "machine__sbm_number")
    detail = " ; ".join(f"{line.machine.number} : {line.total} €" for line in lines) + (
        f" — {_('fonds de caisse')} {count.floats} €" if count.floats is not None else ""
    )
    _entry(count, actor=actor, role=role, event=_("Clôture de la comptée"), at=count.closed_at, detail=detail)
    return count


def month_end_counts(establishment: Establishment, year: int, month: int) -> QuerySet[SlotCount]:
    """The closed counts dated on the month's last day (month-end or season-end counts)."""
    return month_end_counts_on(establishment, datetime.date(year, month, calendar.monthrange(year, month)[1]))


def month_end_counts_on(establishment: Establishment | Bound, last: datetime.date | Bound) -> QuerySet[SlotCount]:
    """The closed month-end or season-end counts dated ``last``, the month's last day."""
    return SlotCount.objects.filter(
        establishment=establishment,
        status=SlotCount.Status.CLOSED,
        day=last,
        kind__in=(Kind.MONTH_END, Kind.SEASON_END),
    )


def check_month_end_count(establishment: Establishment, year: int, month: int) -> None:
    """The month closes (modèle 32, read at the month-end count: art. 68-25) only once its
    month-end count is closed (SLOT-46)."""
    if not month_end_counts(establishment, year, month).exists():
        raise RuleViolation(
            "SLOT-46", _("Aucune comptée de fin de mois close le dernier jour du mois : le mois ne peut être arrêté.")
        )


def denominations_uncounted(seance: OuterRef) -> ArraySubquery:
    """The denominations of ``seance`` (a séance's pk, as an outer reference) counted during it with
    no general count of them closed after, by denomination: an annotation of a query on séances."""
    closed = SlotCount.objects.filter(status=SlotCount.Status.CLOSED)
    general_after = closed.filter(
        seance_id=OuterRef("seance_id"),
        kind=Kind.DENOMINATION_END,
        denomination=OuterRef("denomination"),
        pk__gt=OuterRef("pk"),
    )
    intra = closed.filter(seance_id=seance, kind=Kind.INTRA_SEANCE).exclude(Exists(general_after))
    return ArraySubquery(intra.order_by("denomination").values("denomination").distinct())
