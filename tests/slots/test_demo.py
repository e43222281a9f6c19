"""The slot demo: a month in a slot room per casino, a second run adds nothing, every register it
writes verifies."""

import io

import pytest

from ledgers.core import demo as core_demo
from ledgers.core.demo import DEMO_MC
from ledgers.incidents.models import Incident
from ledgers.registers.models import Register
from ledgers.registers.verification import verify_register
from ledgers.slots import demo
from ledgers.slots.models import (
    DropCount,
    Intervention,
    JackpotPayment,
    Machine,
    MonitoringEvent,
    Orphan,
    SfmVisit,
)


@pytest.mark.django_db
def test_demo_month_in_both_slot_rooms_idempotent_and_verified():
    core_demo.seed(io.StringIO())  # the demo organisation: its users, and the homes of the slot keys
    demo.seed(io.StringIO())
    counts = (Machine.objects.count(), DropCount.objects.count(), Intervention.objects.count())
    demo.seed(io.StringIO())
    assert (Machine.objects.count(), DropCount.objects.count(), Intervention.objects.count()) == counts
    assert counts[0] == 2 * demo.MACHINES
    assert DropCount.objects.filter(flagged=True).count() == 2  # one variance flag per casino
    assert JackpotPayment.objects.filter(machine__establishment__code=DEMO_MC, id_number__gt="").exists()
    assert Orphan.objects.count() == 2 and SfmVisit.objects.count() == 1
    flagged = MonitoringEvent.objects.exclude(flag="")  # one unexplained door opening per casino
    assert sorted(flagged.values_list("flag", flat=True)) == ["SLOT-14", "SLOT-53"]
    assert MonitoringEvent.objects.filter(flag="", intervention__isnull=False).count() == 2
    assert not Incident.objects.filter(category="slot_meter").exists()
    for register in Register.objects.filter(kind__startswith="slot_"):
        assert verify_register(register) is None, register.number
