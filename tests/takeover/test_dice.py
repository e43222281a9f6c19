"""Taking over the dice from paper: each die checked by the dice rules (FR pairs of two colours,
20 to 25 mm, within the Minister's maximum), posted into the dice intake register citing its page."""

import pytest

from ledgers.core.errors import RuleViolation
from ledgers.dice.models import Die
from ledgers.dice.services import dice_pairs_cap_set
from ledgers.registers.models import Entry
from ledgers.takeover import services
from ledgers.takeover.selectors import inventory_problems
from tests.factories import open_register

from .test_cards import verify_ledgers_ok

pytestmark = pytest.mark.django_db

PAPER = "Carnet modèle 19 papier n° 2, section dés"


def die(serial: str, page: int = 3, **fields) -> dict:
    row = {"page": str(page), "serial": serial, "sigle": "CN", "location": "", "status": "in_stock", "new": "oui"}
    row.update(fields)
    return row


def test_mc_dice_taken_over_citing_the_paper_page(house_mc):
    h = house_mc
    open_register(h.est, "prise_en_charge", "des")
    rows = [die("D1", location="principal"), die("D2", page=4, location="principal", status="out_of_use", new="non")]
    inventory = services.takeover_prepare(
        establishment=h.est, domain="dice", paper_register=PAPER, rows=rows, actor=h.cartier
    )
    services.takeover_sign(inventory=inventory, actor=h.director)
    services.takeover_post(inventory=inventory, actor=h.director)
    assert Die.objects.get(serial="D1").is_new and Die.objects.get(serial="D2").status == "out_of_use"
    (entry,) = Entry.objects.filter(register__kind="prise_en_charge", register__qualifier="des", kind="record")
    assert entry.payload["source"] == f"Reprise de l'existant : {PAPER}, p. 3-4"
    assert entry.payload["flags"] == []
    verify_ledgers_ok()


def test_dice_13_fr_pairs_two_colours_and_sizes_named_per_line(house_fr):
    h = house_fr
    rows = [
        die("R1", location="armoire", colour="rouge", side_mm="19", pair="A"),
        die("R2", location="armoire", colour="", side_mm="20", pair="A"),
        die("R3", location="armoire", colour="vert", side_mm="22", pair="B"),
        die("R4", location="armoire", colour="vert", side_mm="22", pair="B"),
    ]
    problems = inventory_problems(establishment=h.est, domain="dice", rows=rows)
    assert [(p.row, p.field, p.code) for p in problems] == [(1, "side_mm", "DICE-13"), (2, "colour", "DICE-17")]
    rows[0]["side_mm"], rows[1]["colour"] = "20", "blanc"
    problems = inventory_problems(establishment=h.est, domain="dice", rows=rows)
    assert [(p.row, p.field, p.code) for p in problems] == [(3, "pair", "DICE-13"), (4, "pair", "DICE-13")]


def test_dice_14_fr_pairs_held_within_the_ministers_maximum(house_fr):
    h = house_fr
    open_register(h.est, "carnet_19", "des")
    open_register(h.est, "main_courante")
    rows = [
        die("R1", location="armoire", colour="rouge", side_mm="22", pair="A"),
        die("R2", location="armoire", colour="blanc", side_mm="22", pair="A"),
    ]
    problems = inventory_problems(establishment=h.est, domain="dice", rows=rows)
    assert [(p.row, p.field, p.code) for p in problems] == [(2, "pair", "DICE-14")]
    dice_pairs_cap_set(establishment=h.est, max_pairs=4, reference="Arrêté 2019-12", actor=h.director)
    h.est.refresh_from_db()
    inventory = services.takeover_prepare(
        establishment=h.est, domain="dice", paper_register=PAPER, rows=rows, actor=h.cartier
    )
    services.takeover_sign(inventory=inventory, actor=h.director)
    with pytest.raises(RuleViolation) as refused:
        services.takeover_post(inventory=inventory, actor=h.director)
    assert refused.value.code == "REG-06"
    services.takeover_visa(inventory=inventory, actor=h.authority, statement="Vu")
    services.takeover_post(inventory=inventory, actor=h.director)
    r1, r2 = Die.objects.filter(establishment=h.est).order_by("serial")
    assert r1.pair_id == r2.pair_id is not None
    verify_ledgers_ok()
