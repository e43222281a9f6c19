"""Taking over the sabots from paper: numbered by the establishment (SHOE-10), kept in a depot,
entered in the sabots' pages of the carnet modèle 19 (SHOE-11) citing the paper page."""

import pytest

from ledgers.core.errors import RuleViolation
from ledgers.equipment.models import Shoe
from ledgers.registers.models import Entry
from ledgers.takeover import services
from ledgers.takeover.selectors import inventory_problems
from tests.factories import open_register
from tests.sabots import shoe_model

from .test_cards import verify_ledgers_ok

pytestmark = pytest.mark.django_db

PAPER = "Carnet modèle 19 papier n° 2, pages des sabots"


def test_shoe_10_fr_sabots_numbered_and_visaed(house_fr):
    h = house_fr
    open_register(h.est, "materiel_jeu")
    open_register(h.est, "carnet_19", "sabots")
    model = shoe_model(h.est, actor=h.director)
    rows = [
        {"page": "40", "number": "S1", "maker_serial": "SN-1", "model": model.name, "location": "armoire"},
        {"page": "40", "number": "S1", "model": model.name, "location": "armoire"},
        {"page": "41", "number": "S2", "model": "Inconnu", "location": "armoire"},
        {"page": "41", "number": "S3", "model": model.name, "location": "salle"},
    ]
    problems = inventory_problems(establishment=h.est, domain="shoes", rows=rows)
    assert [(p.row, p.field, p.code) for p in problems] == [
        (2, "number", "SHOE-10"),
        (3, "model", ""),
        (4, "location", ""),
    ]
    inventory = services.takeover_prepare(
        establishment=h.est, domain="shoes", paper_register=PAPER, rows=rows[:1], actor=h.cartier
    )
    services.takeover_sign(inventory=inventory, actor=h.director)
    with pytest.raises(RuleViolation) as refused:
        services.takeover_post(inventory=inventory, actor=h.director)
    assert refused.value.code == "REG-06"
    services.takeover_visa(inventory=inventory, actor=h.authority, statement="Vu")
    services.takeover_post(inventory=inventory, actor=h.director)
    assert Shoe.objects.get(establishment=h.est, serial="S1").location == h.depot
    (entry,) = Entry.objects.filter(register__kind="carnet_19", register__qualifier="sabots", kind="record")
    assert entry.payload["source"] == f"Reprise de l'existant : {PAPER}, p. 40"
    verify_ledgers_ok()
