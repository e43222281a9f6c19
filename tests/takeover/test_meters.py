"""Taking over the meter values of the slot machines already in the room: each value checked as a
relève's import checks it, entered as the meter's first reading with a line of the machine's
inventory file citing the paper page; refused for a meter already read (REG-20)."""

import pytest

from ledgers.registers.models import Entry
from ledgers.slots.models import MeterReading
from ledgers.takeover import services
from ledgers.takeover.selectors import inventory_problems
from tests.factories import open_register
from tests.slots.conftest import _media, mc_room  # noqa: F401 (fixtures)

from .test_cards import verify_ledgers_ok

pytestmark = pytest.mark.django_db

PAPER = "Cahier des relevés de compteurs papier n° 7"


def test_reg_20_mc_meter_values_taken_over_as_first_readings(mc_room):  # noqa: F811
    room = mc_room
    open_register(room.est, "reprise_existant")
    machine = room.register_machine()
    meters = list(machine.meters.all())
    rows = [
        {"page": "88", "machine": machine.number, "station": str(m.station), "meter": m.key, "value": "1234"}
        for m in meters
    ]
    bad = [
        {**rows[0], "value": str(10**9)},
        {**rows[0], "meter": "inconnu"},
        {**rows[0], "value": "douze"},
    ]
    problems = inventory_problems(establishment=room.est, domain="meters", rows=bad)
    assert [(p.row, p.field) for p in problems] == [(1, "value"), (2, "meter"), (3, "value")]
    director = room["directeur_jeux"]
    inventory = services.takeover_prepare(
        establishment=room.est, domain="meters", paper_register=PAPER, rows=rows, actor=director
    )
    services.takeover_sign(inventory=inventory, actor=director)
    services.takeover_post(inventory=inventory, actor=director)
    readings = MeterReading.objects.filter(meter__machine=machine)
    assert {(r.source, r.value) for r in readings} == {("initial", 1234)}
    assert readings.count() == len(meters)
    line = Entry.objects.filter(register__kind="slot_fichiers", kind="record").order_by("-seq").first()
    assert f"Reprise de l'existant : {PAPER}, p. 88" in str(line.payload)
    problems = inventory_problems(establishment=room.est, domain="meters", rows=rows[:1])
    assert [(p.row, p.field, p.code) for p in problems] == [(1, "meter", "REG-20")]
    verify_ledgers_ok()
