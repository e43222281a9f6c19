"""Reads on slot machines."""

import datetime
import functools
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal

from django.db import connection
from django.db.models import Max, Min, Q, QuerySet, Sum
from django.utils import timezone

from ledgers.core.dashboard import read_once
from ledgers.core.models import Establishment
from ledgers.core.prepared import Bound, Prepared
from ledgers.incidents.models import Incident
from ledgers.incidents.selectors import open_incidents

from .models import (
    DropCount,
    FileCopy,
    Intervention,
    JackpotThreshold,
    Machine,
    Meter,
    MeterCode,
    MonitoringEvent,
    Releve,
    Socle,
    StaffApproval,
    meter_key,
)


def machines_of(est: Establishment) -> QuerySet[Machine]:
    return Machine.objects.filter(establishment=est).select_related("socle")


def socles_of(est: Establishment) -> QuerySet[Socle]:
    return Socle.objects.filter(establishment=est).select_related("room", "machine")


def installed(est: Establishment | Bound) -> QuerySet[Machine]:
    """Machines in operation (the 75-machine threshold, SET-43)."""
    return Machine.objects.filter(establishment=est, status=Machine.Status.IN_SERVICE)


def has_machines(est: Establishment) -> bool:
    """Whether the house has slot machines: read once for the home, whose charts and registers to
    open both ask."""
    return read_once(("slots.has_machines", est.pk), lambda: Machine.objects.filter(establishment=est).exists())


def installed_count(est: Establishment) -> int:
    return installed(est).count()


def last_values(meter_ids: list[int]) -> dict[int, int]:
    """The last value read of each meter. PostgreSQL: one index probe per meter on the (meter,
    read_at, id) index, whatever the history; elsewhere a grouped scan."""
    if not meter_ids:
        return {}
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(
                "SELECT m.id, r.value FROM unnest(string_to_array(%s, ',')::bigint[]) AS m(id) CROSS JOIN LATERAL "
                "(SELECT value FROM slots_meterreading WHERE meter_id = m.id ORDER BY read_at DESC, id DESC LIMIT 1) r",
                [",".join(str(pk) for pk in meter_ids)],
            )
            return dict(cursor.fetchall())
        among = ", ".join(["%s"] * len(meter_ids))
        cursor.execute(
            "SELECT r.meter_id, r.value FROM slots_meterreading r JOIN ("
            f"SELECT meter_id, MAX(read_at) AS at FROM slots_meterreading WHERE meter_id IN ({among}) GROUP BY meter_id"
            ") last ON last.meter_id = r.meter_id AND last.at = r.read_at ORDER BY r.id",
            list(meter_ids),
        )
        return dict(cursor.fetchall())  # the later id wins among readings of the same instant


def last_values_of(machine: Machine) -> dict[Meter, int]:
    meters = list(machine.meters.filter(active=True))
    values = last_values([m.pk for m in meters])
    return {m: values[m.pk] for m in meters if m.pk in values}


@dataclass(frozen=True)
class MeterRef:
    """A meter as an import reads it: what the checks need, without model instances."""

    id: int
    machine_id: int
    number: str
    station: int
    key: str
    digits: int

    @property
    def capacity(self) -> int:
        return 10**self.digits


def meters_by_key(est: Establishment, numbers: Iterable[str]) -> dict[tuple[str, int, str], MeterRef]:
    """The active meters of the machines named by their number (SBM or casino), keyed as a reading
    row names them: (machine number, station, meter key). One query on the establishment's meters,
    tuples only, the numbers matched here: linear in the room, whatever the size of the import."""
    wanted = set(numbers)
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT m.id, m.machine_id, x.sbm_number, x.casino_number, m.station, m.code, m.nature, m.label, m.digits "
            "FROM slots_meter m JOIN slots_machine x ON x.id = m.machine_id WHERE x.establishment_id = %s AND m.active",
            [est.pk],
        )
        found = cursor.fetchall()
    refs = {}
    for pk, machine_id, sbm, casino, station, code, nature, label, digits in found:
        number = sbm or casino
        if number in wanted:
            key = meter_key(code, nature, label)
            refs[(number, station, key)] = MeterRef(pk, machine_id, number, station, key, digits)
    return refs


def valid_approval(est: Establishment, user, kind: str, on: datetime.date) -> StaffApproval | None:
    return (
        StaffApproval.objects.filter(establishment=est, user=user, kind=kind, valid_from__lte=on)
        .filter(Q(valid_until__isnull=True) | Q(valid_until__gte=on))
        .order_by("-valid_from")
        .first()
    )


def sheets_of_day(est: Establishment, date: datetime.date) -> QuerySet[Intervention]:
    """The intervention sheets whose machine was stopped that day (establishment's clock)."""
    tz = est.localtime().tzinfo
    start = datetime.datetime.combine(date, datetime.time.min, tzinfo=tz)
    return Intervention.objects.filter(
        machine__establishment=est, stopped_at__gte=start, stopped_at__lt=start + datetime.timedelta(days=1)
    ).order_by("pk")


def open_interventions(est: Establishment | Bound) -> QuerySet[Intervention]:
    return Intervention.objects.filter(machine__establishment=est, status=Intervention.Status.OPEN).select_related(
        "machine", "technician"
    )


def open_releves(est: Establishment | Bound) -> QuerySet[Releve]:
    return Releve.objects.filter(establishment=est, status=Releve.Status.OPEN).select_related("room")


def flagged_counts(est: Establishment | Bound) -> QuerySet[DropCount]:
    return DropCount.objects.filter(releve__establishment=est, flagged=True).select_related("machine", "releve")


def meter_incidents(est: Establishment | Bound) -> QuerySet[Incident]:
    return open_incidents(est).filter(category="slot_meter")


def untransmitted_days(est: Establishment) -> list[datetime.date]:
    """MC: past days with sheets not yet handed over in an envelope (SLOT-15 flag)."""
    today = timezone.localdate()
    stops = Intervention.objects.filter(machine__establishment=est, transmittal__isnull=True).values_list(
        "stopped_at", flat=True
    )
    return sorted({est.localtime(s).date() for s in stops if est.localtime(s).date() < today})


def overdue_revisions(est: Establishment, today: datetime.date | None = None) -> list[tuple[Machine, int]]:
    """FR machines in operation whose last SFM visit (or, never visited, their installation) is more
    than SET-38 days old (SLOT-54 flag). AMB-52 reads "days of operation" as the establishment's
    opening days; with no opening calendar for the slot room, calendar days are counted, which
    flags a machine no later than the text would."""
    if est.jurisdiction != "FR":
        return []
    today = today or timezone.localdate()
    limit = int(est.setting("SET-38") or 120)
    overdue = []
    for machine in _visited().read(house=est.pk):
        since = machine.last_visit or machine.first_in
        days = (today - est.localtime(since).date()).days if since else 0
        if days > limit:
            overdue.append((machine, days))
    return overdue


@functools.cache
def _visited() -> Prepared[Machine]:
    """A house's machines in operation (``Bound`` "house") with their last SFM visit and their first
    move, compiled once: the homes read it at each request."""
    return Prepared(
        installed(Bound("house")).annotate(last_visit=Max("sfm_visits__visited_at"), first_in=Min("moves__moved_at"))
    )  # max/min: joins harmless


# Meters whose delta is money dropped in the machine's boxes (counted at the relève).
DROP_METERS = (MeterCode.CASH_BOX, MeterCode.BILLS, MeterCode.TICKET_IN)


def expected_drop(releve: Releve, machine: Machine) -> Decimal:
    """What the machine's boxes should hold for a relève: the increase of its electronic receipts,
    bills and ticket-in meters, in credits × credit value (SLOT-11)."""
    credits = (
        releve.readings.filter(
            meter__machine=machine, meter__code__in=DROP_METERS, meter__nature=Meter.Nature.ELECTRONIC
        ).aggregate(n=Sum("delta"))["n"]
        or 0
    )
    return (Decimal(credits) * machine.credit_value).quantize(Decimal("0.01"))


def files_copy_overdue(est: Establishment, today: datetime.date | None = None) -> int | None:
    """MC: days since the Secrétariat Général's copy of the slot files when older than the setting
    SLOT-08 (max_age_days; no copy at all counts from the first machine's entry), else None."""
    if est.jurisdiction != "MC":
        return None
    today = today or timezone.localdate()
    limit = (est.setting("SLOT-08") or {}).get("max_age_days", 30)
    last = FileCopy.objects.filter(establishment=est).values_list("delivered_at", flat=True).first()
    since = last or Machine.objects.filter(establishment=est).aggregate(at=Min("registered_at"))["at"]
    if since is None:
        return None
    days = (today - est.localtime(since).date()).days
    return days if days > limit else None


def jackpot_thresholds(est: Establishment) -> QuerySet[JackpotThreshold]:
    """The identity thresholds fixed by the Direction, latest effective date first (SLOT-16)."""
    return JackpotThreshold.objects.filter(establishment=est).select_related("set_by")


def recent_events(est: Establishment, limit: int | None = 100) -> QuerySet[MonitoringEvent]:
    """The monitoring events last imported, latest first, with what explains them and the key out."""
    return MonitoringEvent.objects.filter(machine__establishment=est).select_related(
        "machine", "intervention", "releve", "ram_clear", "key_issue__key", "key_issue__holder"
    )[:limit]


def flagged_events(est: Establishment | Bound) -> QuerySet[MonitoringEvent]:
    """Monitoring events no intervention, relève or RAM clear explains."""
    return MonitoringEvent.objects.filter(machine__establishment=est).exclude(flag="").select_related("machine")
