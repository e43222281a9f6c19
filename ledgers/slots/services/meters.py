"""Writes on meters: their declaration and RAM clears."""

import datetime
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ledgers.core.authz import require_role, role_named_by_text, save_audited
from ledgers.core.errors import RuleViolation
from ledgers.incidents.models import Incident
from ledgers.incidents.services import incident_open

from .. import selectors
from ..locks import check_reset_key
from ..models import (
    Machine,
    Meter,
    MeterCode,
    MeterReading,
    RamClear,
)
from ..registers import INVENTORY_KIND, TECHNICAL_KIND
from ..rules import METER_ANOMALY, ROLLOVER_MAX_SHARE
from .common import INVENTORY_ROLES, RAM_CLEAR_ROLES, _append


@dataclass(frozen=True)
class MeterSpec:
    """A meter as the maker declares it; ``station`` None: on every station."""

    code: str
    digits: int
    nature: str = Meter.Nature.ELECTRONIC
    label: str = ""
    station: int | None = None


def _declare_meters(machine: Machine, specs: Iterable[MeterSpec], *, actor: AbstractBaseUser) -> list[Meter]:
    meters = []
    for spec in specs:
        stations = [spec.station] if spec.station else range(1, machine.stations + 1)
        for station in stations:
            if spec.code not in MeterCode.values or spec.digits < 1:
                raise ValidationError(_("Compteur inconnu ou nombre de chiffres invalide : %(c)s.") % {"c": spec.code})
            meters.append(
                save_audited(
                    Meter(
                        machine=machine,
                        station=station,
                        code=spec.code,
                        nature=spec.nature,
                        label=spec.label,
                        digits=spec.digits,
                    ),
                    actor=actor,
                    reason="déclaration",
                )
            )
    return meters


@transaction.atomic
def meters_declare(*, machine: Machine, specs: Sequence[MeterSpec], actor: AbstractBaseUser) -> list[Meter]:
    """Add meters to a machine's set: all the meters needed to reconstruct how it works (SLOT-06)."""
    est = machine.establishment
    role = require_role(actor, est, INVENTORY_ROLES[est.jurisdiction])
    meters = _declare_meters(machine, specs, actor=actor)
    _append(
        INVENTORY_KIND,
        machine,
        est,
        actor=actor,
        role=role,
        event=_("Déclaration de compteurs"),
        at=timezone.now(),
        detail=", ".join(f"{m.station}:{m.key} ({m.digits})" for m in meters),
    )
    return meters


def _assess(capacity: int, previous: int | None, value: int) -> tuple[int | None, bool, bool]:
    """(delta, rollover, anomaly) of a reading against the previous value of its meter. A fall is a
    rollover at capacity when the increase it implies is under half the capacity (rules)."""
    if previous is None:
        return None, False, False
    if value >= previous:
        return value - previous, False, False
    implied = capacity - previous + value
    if implied < capacity * ROLLOVER_MAX_SHARE:
        return implied, True, False
    return None, False, True


def _meter_incident(machine: Machine, falls: list[tuple[Any, int, int]], *, actor: AbstractBaseUser) -> Incident:
    falls_text = "; ".join(f"{m.station}:{m.key} {before} → {after}" for m, before, after in falls)
    return incident_open(
        establishment=machine.establishment,
        category=METER_ANOMALY.code,
        actor=actor,
        subjects=[machine],
        description=str(
            _("Compteur en baisse sans passage par zéro à capacité ni remise à zéro enregistrée : %(f)s.")
            % {"f": falls_text}
        ),
    )


@transaction.atomic
def ram_clear_record(
    *,
    machine: Machine,
    actor: AbstractBaseUser,
    reset_key: str,
    reason: str,
    before: dict[str, int],
    after: dict[str, int],
    performed_at: datetime.datetime | None = None,
    witness: AbstractBaseUser | None = None,
) -> RamClear:
    """A RAM clear as its own act: the reset key, every meter before and after (keyed
    "station:key"), the reason; the line in the intervention sheets (MC) or modèle 26 (FR,
    KEY-15: recorded by the comité member who holds the reset keys). Readings after it start
    from the values after."""
    est = machine.establishment
    jur = est.jurisdiction
    role = (
        require_role(actor, est, RAM_CLEAR_ROLES[jur])
        if jur == "MC"
        else role_named_by_text(
            actor,
            est,
            RAM_CLEAR_ROLES[jur],
            "KEY-15",
            _("Seul un membre du comité de direction détient et utilise les clés de réinitialisation."),
        )
    )
    if not reset_key.strip() or not reason.strip():
        raise ValidationError(_("La clé de remise à zéro et le motif sont obligatoires."))
    check_reset_key(machine, reset_key, actor)  # KEY-15: a registered reset key, held by the actor
    meters = {m.key_at: m for m in machine.meters.filter(active=True)}
    if set(before) != set(meters) or set(after) != set(meters):
        raise ValidationError(
            _("Indiquez chaque compteur de la machine avant et après la remise à zéro : %(k)s.")
            % {"k": ", ".join(sorted(meters))}
        )
    performed_at = performed_at or timezone.now()
    entry = _append(
        TECHNICAL_KIND,
        machine,
        est,
        actor=actor,
        role=role,
        event=_("Remise à zéro de la mémoire"),
        at=performed_at,
        detail=f"{_('Clé')} {reset_key.strip()} — {reason.strip()}",
        before=before,
        after=after,
    )
    clear = RamClear.objects.create(
        machine=machine,
        performed_at=performed_at,
        performed_by=actor,
        witness=witness,
        reset_key=reset_key.strip(),
        reason=reason.strip(),
        meters_before=before,
        meters_after=after,
        entry=entry,
    )
    previous = selectors.last_values(list(m.pk for m in meters.values()))
    readings, falls = [], []
    for key, meter in meters.items():
        delta, rollover, anomaly = _assess(meter.capacity, previous.get(meter.pk), int(before[key]))
        if anomaly:
            falls.append((meter, previous[meter.pk], int(before[key])))
        readings.append(
            MeterReading(
                meter=meter,
                ram_clear=clear,
                source=MeterReading.Source.RAM_BEFORE,
                read_at=performed_at,
                value=int(before[key]),
                delta=delta,
                rollover=rollover,
                read_by=actor,
            )
        )
        readings.append(
            MeterReading(
                meter=meter,
                ram_clear=clear,
                source=MeterReading.Source.RAM_AFTER,
                read_at=performed_at,
                value=int(after[key]),
                read_by=actor,
            )
        )
    if falls:
        incident = _meter_incident(machine, falls, actor=actor)
        for reading in readings:
            if reading.source == MeterReading.Source.RAM_BEFORE and reading.delta is None:
                reading.incident = incident
    MeterReading.objects.bulk_create(readings)
    return clear


@transaction.atomic
def meters_initial_record(
    *, machine: Machine, values: Sequence[tuple[int, int]], actor: AbstractBaseUser, source: str
) -> list[MeterReading]:
    """The values a machine's meters show when the house takes it over from paper: their first
    readings (``values``: meter id, value), a line of the machine's inventory file (FR: and of its
    fiche) citing the paper register and page ``source``. A meter already read is not read
    "initially" again (REG-20)."""
    est = machine.establishment
    role = require_role(actor, est, INVENTORY_ROLES[est.jurisdiction])
    meters = {m.pk: m for m in Meter.objects.select_for_update().filter(machine=machine, active=True)}
    if not values or any(pk not in meters for pk, _value in values):
        raise ValidationError(_("Compteur inconnu pour cette machine."))
    if MeterReading.objects.filter(meter__machine=machine).exists():
        raise RuleViolation("REG-20", _("Les compteurs de cette machine ont déjà leurs relevés."))
    for pk, value in values:
        if not 0 <= value < meters[pk].capacity:
            raise ValidationError(_("Valeur hors de la capacité du compteur : %(v)s.") % {"v": value})
    now = timezone.now()
    readings = MeterReading.objects.bulk_create(
        MeterReading(meter=meters[pk], source=MeterReading.Source.INITIAL, read_at=now, value=value, read_by=actor)
        for pk, value in values
    )
    detail = ", ".join(f"{meters[pk].key_at} = {value}" for pk, value in values)
    _append(
        INVENTORY_KIND,
        machine,
        est,
        actor=actor,
        role=role,
        event=_("Relevé initial des compteurs (reprise de l'existant)"),
        at=now,
        detail=f"{detail} — {source}",
    )
    return readings
