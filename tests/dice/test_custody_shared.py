"""The shared custody layer as dice use it: what was fixed there while building dice."""

from django.utils import timezone

from ledgers.custody.selectors import book_stock, intake_registers
from ledgers.custody.services import depot_day_close, stock_verification_record
from ledgers.dice.domains import DICE
from ledgers.dice.selectors import stock_statement
from ledgers.registers.services import entry_append
from tests.dice.conftest import receive_fr, receive_mc
from tests.factories import open_register


def test_book_stock_reads_only_the_dice_section_of_the_shared_intake_registers(fr_org, mc_org):
    cards = open_register(fr_org.est, "carnet_19", "cartes")
    entry_append(
        register=cards,
        actor=fr_org["employe_responsable"],
        role="employe_responsable",
        payload={"movement": "IN", "category": "bleu", "quantity": 6, "serials": ["J1"]},
    )
    mc_cards = open_register(mc_org.est, "prise_en_charge", "cartes-jeu52")
    entry_append(
        register=mc_cards,
        actor=mc_org["cartier"],
        role="cartier",
        payload={"movement": "IN", "category": "jeu52", "quantity": 12, "serials": ["S1"]},
    )
    receive_fr(fr_org, 1)
    receive_mc(mc_org, 3)
    assert book_stock(DICE, fr_org.est) == {"des": 2}
    assert book_stock(DICE, mc_org.est) == {"des": 3}
    assert list(intake_registers(DICE, fr_org.est)) == [fr_org.registers["carnet_19"]]
    # The police verification of the dice visas the dice section, not the cards section.
    stock_verification_record(
        domain=DICE, establishment=fr_org.est, actor=fr_org["police"], counted=stock_statement(fr_org.est).by_location
    )
    assert fr_org.registers["carnet_19"].entries.filter(kind="visa").exists()
    assert not cards.entries.filter(kind="visa").exists()


def test_annex_ledger_is_found_by_its_qualifier(mc_org):
    receive_mc(mc_org, 1)
    days = depot_day_close(domain=DICE, establishment=mc_org.est, date=timezone.localdate(), actor=mc_org["cartier"])
    assert {day.location.code for day in days} == {"depot-principal", "depot-annexe"}
    assert mc_org.registers["comptabilite_annexe"].qualifier == "dice"


def test_opening_act_names_a_casino_officer_by_his_role(fr_org):
    statement = fr_org.registers["rampo_special"].entries.get(seq=1).payload["statement"]
    assert "Directeur responsable" in statement and "directeur_responsable," not in statement
