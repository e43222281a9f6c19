"""The keys demo after the slots demo: the slot keys registered before the machines went in service,
keys out for today's séance, for a real relève and a real intervention, and one overdue; a second
run adds nothing; the register of keys verifies."""

import io
import time

from ledgers.authority import demo as authority_demo
from ledgers.core import demo as core_demo
from ledgers.core.demo import DEMO_FR, DEMO_MC
from ledgers.core.models import Establishment
from ledgers.keys import demo, selectors
from ledgers.keys.models import Key, KeyIssue
from ledgers.registers.models import Register
from ledgers.registers.verification import verify_register
from ledgers.slots import demo as slots_demo
from tests.factories import open_seance_registers


def test_demo_keys_out_and_one_overdue_idempotent(db):
    core_demo.seed(io.StringIO())
    open_seance_registers()  # the registers seeder's, which runs before (séances write in them)
    authority_demo.prepare_tables(stdout=io.StringIO())  # the authorities' seeder's: the tables, under Nice's arrêté
    slots_demo.seed(io.StringIO())
    demo.seed(io.StringIO())
    counts = (Key.objects.count(), KeyIssue.objects.count())
    demo.seed(io.StringIO())
    assert (Key.objects.count(), KeyIssue.objects.count()) == counts == (12, 6)
    assert set(KeyIssue.objects.values_list("key__code", "purpose_type")) >= {
        ("MC-SO-01", "slots.releve"),
        ("MC-PM-01", "slots.intervention"),
        ("FR-HA-01", "slots.intervention"),
    }
    assert Key.objects.get(code="MC-BB-01").assets[0] == "SBM-001"
    time.sleep(1.1)
    mc, fr = Establishment.objects.get(code=DEMO_MC), Establishment.objects.get(code=DEMO_FR)
    assert [e.issue.key.code for e in selectors.exceptions(mc)] == ["MC-CY-RO1"]
    assert [e.issue.key.code for e in selectors.exceptions(fr)] == ["FR-ARM-01"]
    for register in Register.objects.filter(kind="registre_cles"):
        assert verify_register(register) is None
