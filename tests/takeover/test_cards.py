"""Taking over the card stock from paper, in both jurisdictions: checked by the card rules, signed,
visaed where the police holds the carnet modèle 19, posted with entries citing the paper pages."""

import io

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.management import call_command

from ledgers.cards import services as cards
from ledgers.cards.models import CardUnit
from ledgers.core.errors import RuleViolation
from ledgers.registers.models import Entry, Register
from ledgers.registers.services import checkpoints_seal
from ledgers.takeover import services
from ledgers.takeover.models import Inventory
from ledgers.takeover.selectors import inventory_problems

pytestmark = pytest.mark.django_db

PAPER = "Registre de prise en charge papier n° 4"


def verify_ledgers_ok() -> None:
    checkpoints_seal()
    out = io.StringIO()
    call_command("verify_ledgers", stdout=out)
    lines = out.getvalue().splitlines()
    assert lines and all(line.startswith("OK\t") for line in lines), [x for x in lines if not x.startswith("OK")]


def intake_entries(est):
    kinds = ("prise_en_charge", "carnet_19")
    return list(Entry.objects.filter(register__establishment=est, register__kind__in=kinds, kind="record"))


def prepared(house, rows):
    return services.takeover_prepare(
        establishment=house.est, domain="cards", paper_register=PAPER, rows=rows, actor=house.cartier
    )


def test_mc_cards_taken_over_in_their_real_state_citing_the_paper_page(house_mc):
    h = house_mc
    rows = [
        h.sixain("S100", page=12),
        h.sixain("S101", page=13, new="non", condition="imparfait", status="out_of_use"),
        {
            "page": "14",
            "unit_type": "jeu",
            "serial": "J7",
            "supplier": "cartes grimaud",
            "back_colour": "vert",
            "location": "annexe",
            "new": "non",
        },
    ]
    inventory = prepared(h, rows)
    services.takeover_sign(inventory=inventory, actor=h.director)
    services.takeover_post(inventory=inventory, actor=h.director)  # MC: the SCJ's visa is not awaited
    inventory.refresh_from_db()
    assert inventory.status == Inventory.Status.POSTED
    s100 = CardUnit.objects.get(establishment=h.est, serial="S100")
    assert (s100.status, s100.location, s100.is_new, s100.purchase_order) == ("in_stock", h.depot, True, None)
    assert [d.serial for d in s100.decks()] == [f"S100-{n}" for n in range(1, 7)]
    s101 = CardUnit.objects.get(establishment=h.est, serial="S101")
    assert (s101.status, s101.condition, s101.is_new) == ("out_of_use", "imparfait", False)
    assert CardUnit.objects.get(serial="J7").location == h.annex
    entries = intake_entries(h.est)
    assert len(entries) == 2  # one per category
    for entry in entries:
        assert entry.payload["source"].startswith(f"Reprise de l'existant : {PAPER}, p. ")
        assert entry.payload["flags"] == []  # not "réception sans bon de commande" (CARD-03)
    sixains = next(e for e in entries if e.payload["category"] == "sixain")
    assert sixains.payload["source"].endswith("p. 12-13")
    assert any("p. 13" in line for line in sixains.payload["details"])
    ops = list(
        Entry.objects.filter(register__kind="reprise_existant", kind="record").values_list(
            "payload__operation", flat=True
        )
    )
    assert ops == [
        "Inventaire de reprise établi",
        "Inventaire signé par la direction",
        "Inventaire reporté aux registres",
    ]
    verify_ledgers_ok()


def test_card_27_fr_inventory_posted_only_once_visaed_by_the_police(house_fr):
    h = house_fr
    inventory = prepared(h, [h.sixain("F200"), h.sixain("F201", page=13)])
    services.takeover_sign(inventory=inventory, actor=h.director)
    with pytest.raises(RuleViolation) as refused:
        services.takeover_post(inventory=inventory, actor=h.director)
    assert refused.value.code == "CARD-27"
    assert not CardUnit.objects.filter(establishment=h.est).exists()
    with pytest.raises(PermissionDenied):  # the directorate does not visa for the police
        services.takeover_visa(inventory=inventory, actor=h.director, statement="Vu")
    services.takeover_visa(inventory=inventory, actor=h.authority, statement="Vu, stock compté")
    services.takeover_post(inventory=inventory, actor=h.director)  # no police-visaed order asked (CARD-33)
    assert CardUnit.objects.filter(establishment=h.est, parent__isnull=True).count() == 2
    (entry,) = intake_entries(h.est)
    assert entry.register.kind == "carnet_19"
    assert entry.payload["order"] == f"Reprise de l'existant : {PAPER}, p. 12-13"
    verify_ledgers_ok()


def test_every_line_problem_named_and_nothing_written(house_fr):
    h = house_fr
    rows = [
        h.sixain("F300"),
        h.sixain("F301", page="douze"),
        h.sixain("F300", page=14),  # the number of line 1 again
        {**h.sixain("F302"), "unit_type": "huitain"},
        {**h.sixain("F303"), "supplier": "Inconnu SA"},
        {**h.sixain("F304"), "location": "salle"},
        {**h.sixain("F305"), "decks": "F305-1:rouge;F305-2:rouge"},
    ]
    heads = dict(Register.objects.filter(establishment=h.est).values_list("pk", "head_seq"))
    problems = inventory_problems(establishment=h.est, domain="cards", rows=rows)
    assert [(p.row, p.field) for p in problems] == [
        (2, "page"),
        (3, "serial"),
        (4, "unit_type"),
        (5, "supplier"),
        (6, "location"),
        (7, "decks"),
    ]
    assert {p.code for p in problems if p.row in (4, 7)} == {"CARD-25"}
    with pytest.raises(ValidationError) as refused:
        prepared(h, rows)
    messages = refused.value.message_dict["rows"]
    assert len(messages) == 6 and messages[0].startswith("Ligne 2, colonne « page »")
    assert not Inventory.objects.exists()
    assert dict(Register.objects.filter(establishment=h.est).values_list("pk", "head_seq")) == heads


def test_card_17_mc_withdrawn_cards_only_in_the_main_depot(house_mc):
    h = house_mc
    problems = inventory_problems(
        establishment=h.est, domain="cards", rows=[h.sixain("S1", location="annexe", status="marked")]
    )
    assert [(p.row, p.field, p.code) for p in problems] == [(1, "location", "CARD-17")]


def test_card_02_mc_number_already_in_stock_refused(house_mc):
    h = house_mc
    inventory = prepared(h, [h.sixain("S500")])
    services.takeover_sign(inventory=inventory, actor=h.director)
    services.takeover_post(inventory=inventory, actor=h.director)
    problems = inventory_problems(establishment=h.est, domain="cards", rows=[h.sixain("S500")])
    assert [(p.row, p.field, p.code) for p in problems] == [(1, "serial", "CARD-02")]


def test_reg_20_no_take_over_after_the_first_ordinary_card_act(house_mc):
    h = house_mc
    inventory = prepared(h, [h.sixain("S600")])
    services.takeover_sign(inventory=inventory, actor=h.director)
    cards.cards_receive(
        establishment=h.est,
        location=h.depot,
        supplier=h.maker,
        units=[cards.ReceivedUnit(unit_type="jeu", serial="R1", back_colour="rouge")],
        actor=h.cartier,
    )
    for attempt in (
        lambda: services.takeover_post(inventory=inventory, actor=h.director),
        lambda: prepared(h, [h.sixain("S601")]),
    ):
        with pytest.raises(RuleViolation) as refused:
            attempt()
        assert refused.value.code == "REG-20"
    assert not CardUnit.objects.filter(serial__in=["S600", "S601"]).exists()


def test_a_second_inventory_before_any_ordinary_act(house_mc):
    h = house_mc
    for serial in ("S700", "S701"):
        inventory = prepared(h, [h.sixain(serial)])
        services.takeover_sign(inventory=inventory, actor=h.director)
        services.takeover_post(inventory=inventory, actor=h.director)
    assert CardUnit.objects.filter(establishment=h.est, parent__isnull=True).count() == 2


def test_signing_is_the_directorates(house_mc):
    h = house_mc
    inventory = prepared(h, [h.sixain("S800")])
    with pytest.raises(PermissionDenied):
        services.takeover_sign(inventory=inventory, actor=h.cartier)
    with pytest.raises(ValidationError):
        services.takeover_post(inventory=inventory, actor=h.director)
