"""The paper volume and last page each register continues from, as lines of the take-over register;
refused for a register that has its first inscriptions (REG-20)."""

import pytest

from ledgers.keys.services import key_register
from ledgers.registers.models import Entry
from ledgers.takeover import services
from ledgers.takeover.selectors import inventory_problems
from tests.factories import open_register

from .test_cards import verify_ledgers_ok

pytestmark = pytest.mark.django_db


def test_reg_20_paper_volumes_continued_until_the_first_inscription(house_fr):
    h = house_fr
    open_register(h.est, "registre_cles")
    key_register(establishment=h.est, actor=h.director, code="C1", lock_type="other", opens="Bureau", home=h.depot)
    rows = [
        {"kind": "carnet_19", "qualifier": "cartes", "volume": "3", "page": "57"},
        {"kind": "Registre des clés", "volume": "1", "page": "12"},
        {"kind": "registre_inconnu", "volume": "1", "page": "1"},
        {"kind": "carnet_19", "qualifier": "cartes", "volume": "3", "page": "58"},
    ]
    problems = inventory_problems(establishment=h.est, domain="registers", rows=rows)
    assert [(p.row, p.field, p.code) for p in problems] == [(2, "kind", "REG-20"), (3, "kind", ""), (4, "kind", "")]
    inventory = services.takeover_prepare(
        establishment=h.est,
        domain="registers",
        paper_register="Registres papier en cours",
        rows=rows[:1],
        actor=h.cartier,
    )
    services.takeover_sign(inventory=inventory, actor=h.director)
    services.takeover_post(inventory=inventory, actor=h.director)
    continued = Entry.objects.get(register__kind="reprise_existant", payload__operation="Registre poursuivi")
    assert continued.payload["summary"] == (
        "Carnet de prise en charge (modèle 19) — Cartes : suite du volume papier 3, dernière page écrite 57"
    )
    problems = inventory_problems(establishment=h.est, domain="registers", rows=rows[:1])
    assert [(p.row, p.field) for p in problems] == [(1, "kind")]
    verify_ledgers_ok()
