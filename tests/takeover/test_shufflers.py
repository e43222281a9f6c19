"""Taking over the shufflers from paper: each one entered in its real state (registered, or in
service after the checks of a putting into service, fixed on its table's socle), checked by the
shufflers' own rules, its line of the register of the equipment citing the paper page."""

import pytest

from ledgers.core.errors import RuleViolation
from ledgers.equipment import services as equipment
from ledgers.equipment.models import ApprovedModel, AssetStatus, Shuffler
from ledgers.registers.models import Entry
from ledgers.takeover import services
from ledgers.takeover.selectors import domain_started, inventory_problems
from tests.factories import open_register, set_up_table

from .test_cards import verify_ledgers_ok

pytestmark = pytest.mark.django_db

PAPER = "Registre du matériel de jeu papier n° 3"


def model(h, name: str = "Deck Mate", approved: bool = True) -> ApprovedModel:
    return equipment.approved_model_register(
        establishment=h.est,
        kind=ApprovedModel.Kind.SHUFFLER,
        manufacturer="Shuffle Master",
        name=name,
        actor=h.director,
        approval_reference="AGR-77" if approved else "",
        approval_issuer="Ministre d'État" if h.mc else "Ministre de l'intérieur",
    )


def line(number: str, page: int = 7, **fields) -> dict:
    row = {
        "page": str(page),
        "number": number,
        "serial": f"SN-{number}",
        "model": "Deck Mate",
        "machine_type": "continuous",
        "status": "in_service",
        "card_access_protection": "oui",
        "malfunction_signal": "oui",
    }
    row.update(fields)
    return row


def post(h, rows):
    inventory = services.takeover_prepare(
        establishment=h.est, domain="shufflers", paper_register=PAPER, rows=rows, actor=h.cartier
    )
    services.takeover_sign(inventory=inventory, actor=h.director)
    return services.takeover_post(inventory=inventory, actor=h.director)


def test_shuf_02_shuf_08_mc_shufflers_checked_then_entered_in_service_on_their_socle(house_mc):
    h = house_mc
    open_register(h.est, "materiel_jeu")
    model(h)
    table = set_up_table(h.est, "BJ1", "blackjack")
    socle = equipment.socle_create(table=table, code="A", actor=h.director)
    equipment.socle_create(table=table, code="B", actor=h.director)
    rows = [
        line("M1", table="BJ1", socle="A"),
        line("M2", card_access_protection="non"),
        line("M3", malfunction_signal="non"),
        line("M4", machine_type="batch", table="BJ1", socle="B"),
        line("M1", page=8),
        line("M5", model="Inconnu"),
        line("M6", table="BJ1", socle="Z"),
        line("M7", table="BJ1", socle="A"),
        line("M8", status="registered", card_access_protection="", malfunction_signal=""),
    ]
    problems = inventory_problems(establishment=h.est, domain="shufflers", rows=rows)
    assert [(p.row, p.field, p.code) for p in problems] == [
        (2, "card_access_protection", "SHUF-02"),
        (3, "malfunction_signal", "SHUF-03"),
        (4, "socle", "SHUF-08"),
        (5, "number", ""),
        (6, "model", ""),
        (7, "socle", ""),
        (8, "socle", ""),
    ]
    post(h, [rows[0], rows[8]])
    mounted = Shuffler.objects.get(establishment=h.est, number="M1")
    assert mounted.status == AssetStatus.IN_SERVICE and mounted.socle == socle
    assert Shuffler.objects.get(establishment=h.est, number="M8").status == AssetStatus.REGISTERED
    entries = Entry.objects.filter(register__kind="materiel_jeu", kind="record", payload__event="Reprise de l'existant")
    first = entries.get(payload__table="BJ1")
    assert first.payload["details"][-1] == f"Reprise de l'existant : {PAPER}, p. 7"
    assert entries.count() == 2
    verify_ledgers_ok()


def test_shuf_11_fr_a_shuffler_in_service_needs_an_approved_model(house_fr):
    h = house_fr
    open_register(h.est, "materiel_jeu")
    model(h, name="Sans agrément", approved=False)
    rows = [line("M1", model="Sans agrément"), line("M2", model="Sans agrément", status="registered")]
    problems = inventory_problems(establishment=h.est, domain="shufflers", rows=rows)
    assert [(p.row, p.field, p.code) for p in problems] == [(1, "model", "SHUF-11")]
    # The French checklist of SHUF-02 and SHUF-03 is Monaco's: a French machine needs neither.
    model(h)
    assert (
        inventory_problems(establishment=h.est, domain="shufflers", rows=[line("M3", malfunction_signal="non")]) == []
    )


def test_reg_20_shufflers_no_take_over_once_one_was_registered(house_mc):
    h = house_mc
    open_register(h.est, "materiel_jeu")
    shuffler_model = model(h)
    assert not domain_started(h.est, "shufflers")
    post(h, [line("M1")])
    assert not domain_started(h.est, "shufflers")  # what the take-over brought is no ordinary act
    equipment.shuffler_register(
        establishment=h.est,
        number="M2",
        serial="SN-M2",
        model=shuffler_model,
        machine_type="continuous",
        actor=h.director,
    )
    with pytest.raises(RuleViolation) as refused:
        services.takeover_prepare(
            establishment=h.est, domain="shufflers", paper_register=PAPER, rows=[line("M3")], actor=h.cartier
        )
    assert refused.value.code == "REG-20"
