"""Meter readings, rollover at capacity, RAM clears and the meter incident (SLOT-05, 06, 30 to 32;
INC-12; KEY-15)."""

import pytest

from ledgers.core.errors import RuleViolation
from ledgers.incidents.models import Incident
from ledgers.keys.services import key_register
from ledgers.slots import services
from ledgers.slots.models import MeterReading

pytestmark = pytest.mark.django_db


def test_slot_05_readings_with_deltas_and_one_line_per_station(mc_room):
    machine = mc_room.on_floor(stations=2)
    mc_room.read(machine, 100)
    readings = mc_room.read(machine, 250)
    assert {r.delta for r in readings} == {150}
    lines = mc_room.registers["slot_releves"].entries.filter(kind="record", payload__event="Relève")
    assert lines.count() == 4  # two relèves × two stations
    assert lines.last().payload["meters"]["in"] == 250


def test_slot_06_every_meter_read_at_each_releve(mc_room):
    machine = mc_room.on_floor()
    rows = mc_room.rows(machine)[1:]
    with pytest.raises(RuleViolation) as exc:
        services.releve_readings_import(releve=mc_room.releve(), rows=rows, actor=mc_room["superviseur"])
    assert exc.value.code == "SLOT-06"
    assert not MeterReading.objects.exists()


def test_slot_32_rollover_at_capacity_accepted(fr_room):
    machine = fr_room.on_floor(digits=7)
    fr_room.read(machine, 9_999_900)
    readings = fr_room.read(machine, 50)
    assert all(r.rollover and r.delta == 150 for r in readings)
    assert not Incident.objects.filter(category="slot_meter").exists()


def test_slot_32_fall_without_rollover_opens_inc_12(fr_room):
    machine = fr_room.on_floor(digits=7)
    fr_room.read(machine, 5000)
    key = machine.meters.first().key
    readings = fr_room.read(machine, 6000, **{key: 4000})
    incident = Incident.objects.get(category="slot_meter")
    assert incident.requirement == "INC-12"
    fallen = [r for r in readings if r.incident_id]
    assert len(fallen) == 1 and fallen[0].value == 4000 and fallen[0].delta is None
    # FR: an anomaly is reported to the police (INC-16 / the category's notices)
    assert incident.subjects.get().label.startswith("Machine")


def test_slot_05_mc_fall_flagged_as_inc_12(mc_room):
    machine = mc_room.on_floor()
    mc_room.read(machine, 1000)
    mc_room.read(machine, 10)
    assert Incident.objects.filter(category="slot_meter", establishment=mc_room.est).count() == 1


def test_inc_12_fall_after_ram_clear_accepted(mc_room):
    machine = mc_room.on_floor()
    mc_room.read(machine, 1000)
    keys = [m.key_at for m in machine.meters.all()]
    clear = services.ram_clear_record(
        machine=machine,
        actor=mc_room["mecanicien"],
        reset_key="RK-7",
        reason="Carte mère remplacée",
        before={k: 1200 for k in keys},
        after={k: 0 for k in keys},
    )
    readings = mc_room.read(machine, 30)
    assert {r.delta for r in readings} == {30}
    assert not Incident.objects.exists()
    assert clear.entry.register.kind == "slot_interventions"
    assert clear.readings.count() == 2 * len(keys)


def test_ram_clear_requires_every_meter(mc_room):
    machine = mc_room.on_floor()
    with pytest.raises(Exception, match="chaque compteur"):
        services.ram_clear_record(
            machine=machine, actor=mc_room["mecanicien"], reset_key="RK", reason="x", before={}, after={}
        )


def test_key_15_fr_ram_clear_only_by_comite(fr_room):
    machine = fr_room.on_floor()
    keys = [m.key_at for m in machine.meters.all()]
    kwargs = {
        "machine": machine,
        "reset_key": "RK-1",
        "reason": "Panne mémoire",
        "before": {k: 0 for k in keys},
        "after": {k: 0 for k in keys},
    }
    with pytest.raises(RuleViolation) as exc:
        services.ram_clear_record(actor=fr_room["mecanicien"], **kwargs)
    assert exc.value.code == "KEY-15"
    with pytest.raises(RuleViolation) as exc:  # the reset key must be in the register of keys
        services.ram_clear_record(actor=fr_room["comite"], witness=fr_room["mecanicien"], **kwargs)
    assert exc.value.code == "KEY-15"
    key_register(
        establishment=fr_room.est,
        actor=fr_room.keeper,
        code="RK-1",
        lock_type="reset",
        opens="Réinitialisation",
        asset_ref=machine.number,
        custodian=fr_room["comite"],
    )
    clear = services.ram_clear_record(actor=fr_room["comite"], witness=fr_room["mecanicien"], **kwargs)
    assert clear.entry.register.kind == "slot_controle_technique"


def test_import_names_every_bad_row_and_writes_nothing(mc_room):
    machine = mc_room.on_floor()
    rows = mc_room.rows(machine)
    bad = [
        services.ReadingRow(machine.number, 1, "nope", 5, line=7),
        services.ReadingRow(machine.number, 1, rows[0].meter, 10**9, line=8),
    ]
    with pytest.raises(services.ReadingErrors) as exc:
        services.releve_readings_import(releve=mc_room.releve(), rows=rows[1:] + bad, actor=mc_room["superviseur"])
    assert len(exc.value.messages) == 2 and "ligne 7" in exc.value.messages[0]
    assert not MeterReading.objects.exists()


def test_room_import_one_lock_one_line_per_station_chain_intact(mc_room):
    from ledgers.registers.verification import verify_register
    from ledgers.slots.imports import parse_csv

    machines = [mc_room.on_floor() for _ in range(3)]
    text = "machine,station,meter,value\n" + "\n".join(
        f"{m.number},{meter.station},{meter.key},{10 + n}" for n, m in enumerate(machines) for meter in m.meters.all()
    )
    register = mc_room.registers["slot_releves"]
    head = register.entries.count()
    result = services.releve_readings_import(
        releve=mc_room.releve(), rows=parse_csv(text), actor=mc_room["superviseur"]
    )
    assert result.readings == sum(m.meters.count() for m in machines) and result.lines == 3
    assert register.entries.count() == head + 1 + 3  # the relève opening, then one line per machine
    assert verify_register(register) is None


def test_csv_header_and_unreadable_rows(mc_room):
    from django.core.exceptions import ValidationError

    from ledgers.slots.imports import parse_csv

    with pytest.raises(ValidationError):
        parse_csv("a;b;c;d\n1;2;3;4")
    with pytest.raises(services.ReadingErrors) as exc:
        parse_csv("machine;station;meter;value\nSBM1;x;in;4\nSBM1;1;out;")
    assert len(exc.value.messages) == 2 and "ligne 2" in exc.value.messages[0]
    assert parse_csv("machine;station;meter;value\nSBM1;1;in:em;0073455")[0].value == 73455


def test_import_echoes_the_file_text_as_a_spreadsheet_will_not_run_it(mc_room):
    from ledgers.slots.imports import parse_csv

    rows = parse_csv('machine,station,meter,value\n"=HYPERLINK(""http://x"")",1,@in,4\n')
    with pytest.raises(services.ReadingErrors) as exc:
        services.releve_readings_import(releve=mc_room.releve(), rows=rows, actor=mc_room["superviseur"])
    assert '\'=HYPERLINK("http://x")' in exc.value.messages[0] and "'@in" in exc.value.messages[0]
