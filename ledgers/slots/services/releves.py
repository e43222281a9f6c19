"""Writes on relèves: opening, readings and their import, box exchanges, drop counts, reconciliation and closing."""

import datetime
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ledgers.core.authz import require_role, role_named_by_text, save_audited
from ledgers.core.errors import RuleViolation
from ledgers.core.exports import neutralise
from ledgers.core.models import Establishment, Room
from ledgers.core.roles import Role
from ledgers.incidents.models import Incident
from ledgers.registers.models import Entry
from ledgers.registers.selectors import current_register
from ledgers.registers.services import (
    display_name,
    entries_bulk_append,
    register_language,
)

from .. import selectors
from ..models import (
    BoxExchange,
    DropCount,
    Machine,
    MeterReading,
    ReconciliationLine,
    Releve,
)
from ..registers import METER_READINGS
from ..rules import NO_GRADING, VARIANCE_PRESETS
from .common import COUNT_ROLES, READING_ROLES, _line, _register_write, _signature, _writer
from .meters import _assess, _meter_incident


@dataclass(frozen=True)
class ReadingRow:
    """One meter value as read: the machine's number, the station and the meter key (code[:em][:label])."""

    machine: str
    station: int
    meter: str
    value: int
    line: int = 0  # where it came from in an import, for the error messages


class ReadingErrors(ValidationError):
    """Every bad row of an import, each with its line; nothing is written."""


def _parse_rows(
    est: Establishment, rows: list[ReadingRow]
) -> tuple[list[tuple[ReadingRow, selectors.MeterRef]], dict, list[str]]:
    """The rows with their meters, every meter of the machines named, and every bad row."""
    meters = selectors.meters_by_key(est, {row.machine for row in rows})
    parsed, errors, seen = [], [], set()
    for row in rows:
        meter = meters.get((row.machine, row.station, row.meter))
        if meter is None:
            errors.append(
                _row_error(
                    row,
                    _("compteur inconnu (%(m)s, poste %(s)s, %(k)s).")
                    # The file's own text, echoed back as a spreadsheet will not run it.
                    % {"m": neutralise(row.machine), "s": row.station, "k": neutralise(row.meter)},
                )
            )
        elif meter.id in seen:
            errors.append(_row_error(row, _("compteur relevé deux fois.")))
        elif not 0 <= row.value < meter.capacity:
            errors.append(
                _row_error(
                    row,
                    _("valeur %(v)s hors de la capacité du compteur (%(d)s chiffres).")
                    % {"v": row.value, "d": meter.digits},
                )
            )
        else:
            seen.add(meter.id)
            parsed.append((row, meter))
    return parsed, meters, errors


def _row_error(row: ReadingRow, problem: Any) -> str:
    # Built only for bad rows: a translated label per good row would cost a room's import dearly.
    where = _("ligne %(n)s") % {"n": row.line} if row.line else f"{row.machine}/{row.station}/{row.meter}"
    return f"{where} : {problem}"


def _require_complete(est: Establishment, meters: dict, read: set[int]) -> None:
    """Every active meter of a machine read is read (SLOT-06, SLOT-30: every meter at each reading)."""
    missing = next((m for m in meters.values() if m.id not in read), None)
    if missing is not None:
        raise RuleViolation(
            "SLOT-06" if est.jurisdiction == "MC" else "SLOT-30",
            _("Le compteur %(m)s n'est pas relevé : tous les compteurs de la machine le sont à chaque relève.")
            % {"m": f"{missing.number}/{missing.station} {missing.key}"},
        )


READING_COLUMNS = (
    "meter_id",
    "releve_id",
    "ram_clear_id",
    "source",
    "read_at",
    "value",
    "delta",
    "rollover",
    "incident_id",
    "read_by_id",
)


def _insert_readings(rows: list[tuple]) -> None:
    """Append-only reading rows (READING_COLUMNS), by COPY on PostgreSQL as the ledger engine does."""
    table, columns = MeterReading._meta.db_table, ", ".join(READING_COLUMNS)
    with connection.cursor() as cursor:
        if connection.vendor != "postgresql":
            cursor.executemany(
                f"INSERT INTO {table} ({columns}) VALUES ({', '.join(['%s'] * len(READING_COLUMNS))})", rows
            )
            return
        with cursor.copy(f"COPY {table} ({columns}) FROM STDIN") as copy:
            for values in rows:
                copy.write_row(values)


@dataclass(frozen=True)
class ImportResult:
    readings: int
    lines: int  # register lines: one per machine and station
    incidents: list[Incident]


@transaction.atomic
def releve_readings_import(
    *, releve: Releve, rows: Iterable[ReadingRow], actor: AbstractBaseUser, read_at: datetime.datetime | None = None
) -> ImportResult:
    """The meters of a relève, one machine or a whole room: every row checked before anything is
    written (one bad row refuses the lot, with every bad row named); then the readings, one
    register line per machine and station under one register lock, and an INC-12 incident per
    machine where a meter fell without a rollover at capacity or a RAM clear (SLOT-05, SLOT-32).
    Readings are append-only: no history rows; rows go as tuples (a room is thousands of them)."""
    est = releve.establishment
    role = require_role(actor, est, READING_ROLES)
    releve = Releve.objects.select_for_update().get(pk=releve.pk)
    if releve.status != Releve.Status.OPEN:
        raise RuleViolation("SLOT-24", _("Cette relève est close."))
    if ReconciliationLine.objects.filter(reconciliation__releve=releve).exists():
        # SLOT-43: a machine read after the modèle 31 would have no line in it.
        raise RuleViolation(
            "SLOT-43",
            _(
                "L'état de rapprochement modèle 31 de cette relève est établi : "
                "relevez les autres compteurs dans une nouvelle relève."
            ),
        )
    rows = list(rows)
    if not rows:
        raise ValidationError(_("Aucun relevé."))
    parsed, meters, errors = _parse_rows(est, rows)
    if errors:
        raise ReadingErrors(errors)
    _require_complete(est, meters, {meter.id for _row, meter in parsed})
    read_at = read_at or timezone.now()
    previous = selectors.last_values([meter.id for _row, meter in parsed])
    assessed, lines, falls = [], {}, {}
    for row, meter in parsed:
        delta, rollover, anomaly = _assess(meter.capacity, previous.get(meter.id), row.value)
        assessed.append((meter, row.value, delta, rollover))
        lines.setdefault((meter.number, meter.station), {})[meter.key] = row.value
        if anomaly:
            falls.setdefault(meter.machine_id, []).append((meter, previous[meter.id], row.value))
    incidents = {
        machine_id: _meter_incident(Machine.objects.get(pk=machine_id), found, actor=actor)
        for machine_id, found in falls.items()
    }
    fallen = {meter.id for found in falls.values() for meter, _before, _after in found}
    source = MeterReading.Source.RELEVE.value  # once: an enum member lookup per row costs as much as its copy
    _insert_readings(
        [
            (
                meter.id,
                releve.pk,
                None,
                source,
                read_at,
                value,
                delta,
                rollover,
                incidents[meter.machine_id].pk if meter.id in fallen else None,
                actor.pk,
            )
            for meter, value, delta, rollover in assessed
        ]
    )
    flagged = {meter.number for found in falls.values() for meter, _before, _after in found}
    with register_language():
        at = est.localtime(read_at).strftime("%Y-%m-%d %H:%M")
        signature, event = _signature(actor, role), str(_("Relève"))
        fall = str(_("Chute de compteur : incident ouvert"))
        payloads = [
            {
                "event": event,
                "at": at,
                "machine": number,
                "station": station,
                "meters": values,
                "detail": fall if number in flagged else "",
                "signature": signature,
                "releve": releve.pk,
            }
            for (number, station), values in lines.items()
        ]
    entries_bulk_append(
        register=current_register(est, METER_READINGS.code),
        actor=actor,
        role=_writer(METER_READINGS, role),
        payloads=payloads,
    )
    return ImportResult(readings=len(assessed), lines=len(payloads), incidents=list(incidents.values()))


@transaction.atomic
def releve_open(
    *,
    establishment: Establishment,
    room: Room,
    actor: AbstractBaseUser,
    during_operation: bool,
    sworn_agent: AbstractBaseUser | None = None,
    staff: str = "",
    started_at: datetime.datetime | None = None,
) -> Releve:
    """Only a superviseur directs a relève (SLOT-22, SLOT-24)."""
    role = role_named_by_text(
        actor, establishment, (Role.SUPERVISEUR,), "SLOT-22", _("Seul un superviseur dirige une relève.")
    )
    if room.establishment_id != establishment.pk:
        raise ValidationError(_("Cette salle n'est pas dans l'établissement."))
    if sworn_agent is not None:
        role_named_by_text(
            sworn_agent,
            establishment,
            (Role.AGENT_SURVEILLANCE,),
            "SLOT-23",
            _("L'agent désigné n'est pas un agent de surveillance assermenté."),
        )
    started_at = started_at or timezone.now()
    releve = save_audited(
        Releve(
            establishment=establishment,
            room=room,
            started_at=started_at,
            directed_by=actor,
            during_operation=during_operation,
            sworn_agent=sworn_agent,
            staff=staff.strip(),
        ),
        actor=actor,
        reason="ouverture",
    )
    agent = f" — {_('agent assermenté')} {display_name(sworn_agent)}" if sworn_agent else ""
    _releve_line(
        releve,
        actor=actor,
        role=role,
        event=_("Ouverture de la relève"),
        at=started_at,
        detail=f"{room}{agent}" + (f" — {_('salle en exploitation')}" if during_operation else ""),
    )
    return releve


def _releve_line(
    releve: Releve,
    *,
    actor: AbstractBaseUser,
    role: str,
    event: Any,
    at: datetime.datetime,
    detail: str,
    machine: Machine | None = None,
    **extra: Any,
) -> Entry:
    est = releve.establishment
    with register_language():
        payload = _line(
            machine, event=event, at=at, detail=detail, actor=actor, role=role, est=est, releve=releve.pk, **extra
        )
    return _register_write(est, METER_READINGS, payload, actor=actor, role=role)


def _require_reconciled(releve: Releve) -> None:
    """SLOT-43 (FR): a meter reading closes only once its état de rapprochement modèle 31 has a line
    for every machine read (its shortfalls already in orphans, written with it)."""
    read = set(releve.readings.values_list("meter__machine_id", flat=True))
    lines = set(ReconciliationLine.objects.filter(reconciliation__releve=releve).values_list("machine_id", flat=True))
    if missing := read - lines:
        numbers = sorted(m.number for m in Machine.objects.filter(pk__in=missing))
        raise RuleViolation(
            "SLOT-43",
            _(
                "Machines relevées sans ligne à l'état de rapprochement modèle 31 : "
                "%(m)s. Établissez-le avant de clore la relève."
            )
            % {"m": ", ".join(numbers)},
        )


@transaction.atomic
def releve_close(*, releve: Releve, actor: AbstractBaseUser, sworn_agent: AbstractBaseUser | None = None) -> Releve:
    """A relève carried out while the room operates is closed only with a sworn agent recorded (SLOT-23)."""
    est = releve.establishment
    role = role_named_by_text(actor, est, (Role.SUPERVISEUR,), "SLOT-22", _("Seul un superviseur dirige une relève."))
    releve = Releve.objects.select_for_update().get(pk=releve.pk)
    if releve.status != Releve.Status.OPEN:
        raise ValidationError(_("Cette relève est déjà close."))
    if sworn_agent is not None:
        role_named_by_text(
            sworn_agent,
            est,
            (Role.AGENT_SURVEILLANCE,),
            "SLOT-23",
            _("L'agent désigné n'est pas un agent de surveillance assermenté."),
        )
        releve.sworn_agent = sworn_agent
    if releve.during_operation and releve.sworn_agent_id is None:
        raise RuleViolation(
            "SLOT-23",
            _(
                "Une relève effectuée pendant l'exploitation est sécurisée par un agent "
                "assermenté : indiquez-le avant de la clore."
            ),
        )
    if est.jurisdiction == "FR":
        _require_reconciled(releve)
    releve.status, releve.closed_at = Releve.Status.CLOSED, timezone.now()
    save_audited(releve, actor=actor, reason="clôture")
    _releve_line(
        releve,
        actor=actor,
        role=role,
        event=_("Clôture de la relève"),
        at=releve.closed_at,
        detail=f"{releve.readings.count()} {_('relevés')}, {releve.boxes.count()} {_('boîtes')}",
    )
    return releve


@transaction.atomic
def box_exchange(
    *, releve: Releve, machine: Machine, box: str, removed: str, replaced_by: str, actor: AbstractBaseUser
) -> BoxExchange:
    """A cash, bill or ticket box taken out and replaced: only during an open relève (SLOT-24)."""
    est = releve.establishment
    role = require_role(actor, est, (Role.SUPERVISEUR, Role.EMPLOYE_JEUX, Role.COMITE))
    releve = Releve.objects.select_for_update().get(pk=releve.pk)
    releve.establishment = est  # the lock re-reads the relève's status; its establishment is the caller's
    if releve.status != Releve.Status.OPEN:
        raise RuleViolation("SLOT-24", _("Socles et boîtes ne s'ouvrent que pendant une relève en cours."))
    if machine.establishment_id != est.pk or box not in BoxExchange.Box.values:
        raise ValidationError(_("Machine ou boîte inconnue."))
    if not removed.strip() or not replaced_by.strip():
        raise ValidationError(_("Les numéros de la boîte retirée et de la boîte mise en place sont obligatoires."))
    if BoxExchange.objects.filter(releve=releve, machine=machine, box=box).exists():
        raise ValidationError(_("Cette boîte a déjà été échangée pendant la relève."))
    now = timezone.now()
    if box == BoxExchange.Box.BILL:
        machine = Machine.objects.select_for_update().get(pk=machine.pk)  # never save the caller's stale copy
        machine.bill_box = replaced_by.strip()
        save_audited(machine, actor=actor, reason="boîte à billets")
    entry = _releve_line(
        releve,
        actor=actor,
        role=role,
        event=_("Échange de boîte"),
        at=now,
        machine=machine,
        detail=f"{BoxExchange.Box(box).label} {removed.strip()} → {replaced_by.strip()}",
    )
    return BoxExchange.objects.create(
        releve=releve,
        machine=machine,
        box=box,
        removed=removed.strip(),
        replaced_by=replaced_by.strip(),
        exchanged_at=now,
        recorded_by=actor,
        entry=entry,
    )


def variance_threshold(est: Establishment) -> dict[str, Decimal | None]:
    """The threshold grading the differences: a preset name or explicit {"amount", "percent"}
    (option SLOT-11) chosen by the Direction; none until it chooses."""
    chosen = est.setting("SLOT-11") or {}
    if "preset" in chosen:
        return VARIANCE_PRESETS.get(chosen["preset"], NO_GRADING)
    if not chosen:
        return NO_GRADING
    return {key: (Decimal(str(chosen[key])) if chosen.get(key) is not None else None) for key in ("amount", "percent")}


# Who chooses the reconciliation threshold: the Direction that directs the relèves and counts.
THRESHOLD_ROLES = {"MC": (Role.DIRECTEUR_EXPLOITATION,), "FR": (Role.DIRECTEUR_RESPONSABLE, Role.COMITE)}


@transaction.atomic
def variance_threshold_choose(
    *,
    establishment: Establishment,
    actor: AbstractBaseUser,
    preset: str = "",
    amount: Decimal | None = None,
    percent: Decimal | None = None,
) -> dict[str, Decimal | None]:
    """The establishment chooses its reconciliation threshold (SLOT-11): a preset (its
    jurisdiction's or a stricter one such as 2 % or 100 €) or its own amount and/or percentage;
    the differences of the counts that follow are graded against it, each count keeping the
    threshold it was graded against. The choice is a line of the relèves register."""
    est = Establishment.objects.select_for_update().get(pk=establishment.pk)
    role = require_role(actor, est, THRESHOLD_ROLES[est.jurisdiction])
    if preset:
        if preset not in VARIANCE_PRESETS:
            raise ValidationError({"preset": _("Réglage inconnu.")})
        chosen: dict[str, Any] = {"preset": preset}
    else:
        if amount is None and percent is None:
            raise ValidationError(_("Choisissez un réglage, ou un montant et/ou un pourcentage."))
        if (amount is not None and amount <= 0) or (percent is not None and percent <= 0):
            raise ValidationError(_("Le seuil est positif."))
        chosen = {
            "amount": str(amount) if amount is not None else None,
            "percent": str(percent) if percent is not None else None,
        }
    est.options = {**est.options, "SLOT-11": chosen}
    save_audited(est, actor=actor, reason="seuil d'écart des comptages (SLOT-11)")
    threshold = variance_threshold(est)
    shown = " / ".join(
        f"{threshold[k]} {unit}" for k, unit in (("percent", "%"), ("amount", "€")) if threshold[k] is not None
    )
    with register_language():
        payload = _line(
            None,
            event=_("Seuil d'écart des comptages"),
            at=timezone.now(),
            actor=actor,
            role=role,
            est=est,
            detail=f"{_('au-delà de')} {shown}",
            threshold={k: (str(v) if v is not None else None) for k, v in threshold.items()},
        )
    _register_write(est, METER_READINGS, payload, actor=actor, role=role)
    establishment.options = est.options
    return threshold


def reconcile(
    expected: Decimal, counted: Decimal, threshold: dict[str, Decimal | None]
) -> tuple[Decimal, Decimal | None, bool]:
    """(variance, variance %, beyond): beyond the Direction's grading threshold when the amount or
    the percentage exceeds its limit."""
    variance = counted - expected
    percent = ((variance / expected) * 100).quantize(Decimal("0.01"), ROUND_HALF_UP) if expected else None
    over_amount = threshold.get("amount") is not None and abs(variance) > threshold["amount"]
    over_percent = threshold.get("percent") is not None and (
        abs(percent) > threshold["percent"] if percent is not None else variance != 0
    )
    return variance, percent, bool(over_amount or over_percent)


@transaction.atomic
def drop_count_record(*, releve: Releve, machine: Machine, counted: Decimal, actor: AbstractBaseUser) -> DropCount:
    """The counted drop of a machine for a relève against its meters' deltas (electronic meters of
    the boxes: receipts, bills, tickets in), with the variance in amount and percent: every
    difference flagged, graded against the Direction's threshold (SLOT-11)."""
    est = releve.establishment
    role = require_role(actor, est, COUNT_ROLES)
    if counted < 0:
        raise ValidationError({"counted": _("Montant négatif.")})
    if DropCount.objects.filter(releve=releve, machine=machine).exists():
        raise ValidationError(_("Cette machine est déjà comptée pour la relève."))
    expected = selectors.expected_drop(releve, machine)
    threshold = variance_threshold(est)
    variance, percent, beyond = reconcile(expected, counted, threshold)
    now = timezone.now()
    shown = {k: (str(v) if v is not None else None) for k, v in threshold.items()}
    pct = f" ({percent} %)" if percent is not None else ""
    entry = _releve_line(
        releve,
        actor=actor,
        role=role,
        event=_("Comptage"),
        at=now,
        machine=machine,
        detail=f"{_('compté')} {counted} € — {_('compteurs')} {expected} € — {_('écart')} "
        f"{variance} €{pct}" + (f" — {_('AU-DELÀ DU SEUIL')}" if beyond else ""),
        threshold=shown,
    )
    return DropCount.objects.create(
        releve=releve,
        machine=machine,
        counted=counted,
        expected=expected,
        variance=variance,
        variance_percent=percent,
        flagged=variance != 0,
        threshold=shown,
        counted_at=now,
        counted_by=actor,
        entry=entry,
    )


def readings_check(*, establishment: Establishment, rows: list[ReadingRow]) -> list[str]:
    """Each bad row of ``rows`` (an unknown meter, one read twice, a value beyond its capacity), as
    a relève's import refuses it, whatever brings the values in. Writes nothing."""
    return _parse_rows(establishment, rows)[2]
