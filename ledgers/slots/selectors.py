"""Reads on slot machines."""

import datetime
from collections.abc import Iterable

from django.db import connection
from django.db.models import Q, QuerySet
from django.utils import timezone

from ledgers.core.models import Establishment
from ledgers.incidents.selectors import open_incidents

from .models import DropCount, Intervention, Machine, Meter, Releve, Socle, StaffApproval


def machines_of(est: Establishment) -> QuerySet[Machine]:
    return Machine.objects.filter(establishment=est).select_related("socle")


def socles_of(est: Establishment) -> QuerySet[Socle]:
    return Socle.objects.filter(establishment=est).select_related("room", "machine")


def installed_count(est: Establishment) -> int:
    """Machines in operation (the 75-machine threshold, SET-43)."""
    return Machine.objects.filter(establishment=est, status=Machine.Status.IN_SERVICE).count()


def last_values(meter_ids: list[int]) -> dict[int, int]:
    """The last value read of each meter (one query: DISTINCT ON the reading index)."""
    if not meter_ids:
        return {}
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT DISTINCT ON (meter_id) meter_id, value FROM slots_meterreading WHERE meter_id = ANY(%s) "
            "ORDER BY meter_id, read_at DESC, id DESC",
            [list(meter_ids)],
        )
        return dict(cursor.fetchall())


def last_values_of(machine: Machine) -> dict[Meter, int]:
    meters = list(machine.meters.filter(active=True))
    values = last_values([m.pk for m in meters])
    return {m: values[m.pk] for m in meters if m.pk in values}


def meters_by_key(est: Establishment, numbers: Iterable[str]) -> dict[tuple[str, int, str], Meter]:
    """The active meters of the machines named by their number (SBM or casino), keyed as a reading
    row names them: (machine number, station, meter key)."""
    numbers = list(numbers)
    meters = Meter.objects.filter(Q(machine__sbm_number__in=numbers) | Q(machine__casino_number__in=numbers),
                                  machine__establishment=est, active=True).select_related("machine")
    return {(m.machine.number, m.station, m.key): m for m in meters}


def valid_approval(est: Establishment, user, kind: str, on: datetime.date) -> StaffApproval | None:
    return (StaffApproval.objects.filter(establishment=est, user=user, kind=kind, valid_from__lte=on)
            .filter(Q(valid_until__isnull=True) | Q(valid_until__gte=on)).order_by("-valid_from").first())


def sheets_of_day(est: Establishment, date: datetime.date) -> QuerySet[Intervention]:
    """The intervention sheets whose machine was stopped that day (establishment's clock)."""
    tz = est.localtime().tzinfo
    start = datetime.datetime.combine(date, datetime.time.min, tzinfo=tz)
    return Intervention.objects.filter(machine__establishment=est, stopped_at__gte=start,
                                       stopped_at__lt=start + datetime.timedelta(days=1)).order_by("pk")


def open_interventions(est: Establishment) -> QuerySet[Intervention]:
    return Intervention.objects.filter(machine__establishment=est, status=Intervention.Status.OPEN).select_related(
        "machine", "technician")


def open_releves(est: Establishment) -> QuerySet[Releve]:
    return Releve.objects.filter(establishment=est, status=Releve.Status.OPEN).select_related("room")


def flagged_counts(est: Establishment) -> QuerySet[DropCount]:
    return DropCount.objects.filter(releve__establishment=est, flagged=True).select_related("machine", "releve")


def meter_incidents(est: Establishment):
    return open_incidents(est).filter(category="slot_meter")


def untransmitted_days(est: Establishment) -> list[datetime.date]:
    """MC: past days with sheets not yet handed over in an envelope (SLOT-15 flag)."""
    today = timezone.localdate()
    stops = (Intervention.objects.filter(machine__establishment=est, transmittal__isnull=True)
             .values_list("stopped_at", flat=True))
    return sorted({est.localtime(s).date() for s in stops if est.localtime(s).date() < today})
