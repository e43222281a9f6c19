"""Table floats: MC somme mise en banque (COUNT-01), FR avance and carnet d'avances modèle 10
(COUNT-12, 14, 33, 34, 37; REG-09, REG-26)."""

import datetime
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone, translation
from rest_framework.test import APIClient

from ledgers.authority.models import Declaration
from ledgers.authority.services import declaration_record
from ledgers.cash import rules, selectors, services
from ledgers.cash.models import TableBox, TableFloat
from ledgers.cash.registers import CARNET_AVANCES
from ledgers.cash.rules import season_start
from ledgers.core.errors import RuleViolation
from ledgers.core.roles import Role
from ledgers.registers.selectors import current_register
from tests.cash.conftest import certified, fr_avance, mc_bank, plaques
from tests.cash.test_e2e import printed
from tests.factories import GamingTableFactory, open_register

# Art. 49 (003 art. 23), the text's own multiples, for the FR games that have tables here.
ART_49 = [
    ("roulette", 15_000),
    ("trente_quarante", 20_000),
    ("roulette_americaine", 15_000),
    ("blackjack", 3_000),
    ("craps", 15_000),
    ("punto_banco", 3_000),
    ("stud_poker", 3_000),
    ("texas_holdem", 3_000),
    ("boule", 4_000),
    ("bataille", 3_000),
    ("roue_chance", 5_000),
    ("ultimate_holdem", 5_000),
    ("three_card_poker", 3_000),
    ("rampo", 15_000),
]


@pytest.mark.parametrize(("game", "multiple"), ART_49)
def test_count_12_minimum_avance_is_the_art_49_multiple_times_the_minimum_stake(fro, game, multiple):
    number = f"X{ART_49.index((game, multiple))}"
    table = GamingTableFactory(establishment=fro.est, room=fro.room, number=number, game=game)
    fro.tables[table.number] = table
    session = fro.session(table.number, stake="10", open_=False)
    assert selectors.minimum_avance(session) == Decimal(multiple * 10)


@pytest.mark.parametrize(("game", "multiple"), [("vingt_trois", 10_000), ("roulette_anglaise", 15_000)])
def test_count_12_multiples_of_the_text_for_games_without_a_table_yet(game, multiple):
    # The two art. 49 games the game catalogue has no table for: the figure is ready for them.
    assert rules.ART_49_MULTIPLES[game] == multiple
    assert set(rules.ART_49_MULTIPLES) == {g for g, _m in ART_49} | {"vingt_trois", "roulette_anglaise"}


def test_count_12_catalogue_example_blackjack_at_10_euros_needs_30000(fro):
    table = GamingTableFactory(establishment=fro.est, room=fro.room, number="BJ9", game="blackjack")
    fro.tables["BJ9"] = table
    assert selectors.minimum_avance(fro.session("BJ9", open_=False)) == Decimal("30000.00")


def test_count_12_avance_below_the_minimum_refused_and_at_the_minimum_accepted(fro):
    session = fro.session("RA1", stake="10")
    with pytest.raises(RuleViolation) as refused:
        fr_avance(fro, session, 149_000)
    assert refused.value.code == "COUNT-12" and "15000 × 10,00 €" in str(refused.value)
    assert not TableFloat.objects.exists()
    avance = fr_avance(fro, session, 150_000)
    assert avance.amount == avance.required == Decimal("150000.00")


def test_count_12_minimum_stake_not_set_is_a_clear_requirement(fro):
    session = fro.session("RA1", stake=None)
    with pytest.raises(RuleViolation) as refused:
        fr_avance(fro, session)
    assert refused.value.code == "COUNT-12" and "mise minimale" in str(refused.value)


def test_count_33_box_must_bear_the_table_number(fro):
    session = fro.session("RA1")
    with pytest.raises(RuleViolation) as refused:
        fr_avance(fro, session, box_number="RA2")
    assert refused.value.code == "COUNT-33"


def test_count_33_top_up_equals_the_initial_avance(fro):
    session = fro.session("RA1")
    fr_avance(fro, session, 150_000)
    with pytest.raises(RuleViolation) as refused:
        fr_avance(fro, session, 100_000, kind=TableFloat.Kind.TOP_UP)
    assert refused.value.code == "COUNT-33"
    top_up = fr_avance(fro, session, 150_000, kind=TableFloat.Kind.TOP_UP)
    assert top_up.kind == "top_up" and session.floats.count() == 2


def test_count_33_avance_cannot_vary_within_the_same_day(fro):
    afternoon = fro.session("RA1", seance=fro.seance(period="apres_midi"))
    fr_avance(fro, afternoon, 150_000)
    fro.close(afternoon)
    certified(fro, afternoon, 150_000)
    evening = fro.session("RA1", seance=fro.seance(period="soiree"))
    with pytest.raises(RuleViolation) as refused:
        fr_avance(fro, evening, 160_000, carry_note="plus de plaques")
    assert refused.value.code == "COUNT-33"
    assert fr_avance(fro, evening, 150_000).amount == Decimal("150000.00")


def test_count_34_avance_signed_by_the_directeur_responsable_or_a_comite_member(fro):
    session = fro.session("RA1")
    with pytest.raises(RuleViolation) as refused:
        services.float_record(
            session=session,
            breakdown=plaques(150_000),
            actor=fro[Role.CAISSIER],
            box_number="RA1",
            counted_by="C",
            called_aloud=True,
        )
    assert refused.value.code == "COUNT-34"
    avance = services.float_record(
        session=session,
        breakdown=plaques(150_000),
        actor=fro[Role.COMITE],
        box_number="RA1",
        counted_by="C",
        called_aloud=True,
    )
    assert avance.signed_role == Role.COMITE


def test_count_34_avance_counted_by_the_croupier_and_called_aloud(fro):
    session = fro.session("RA1")
    with pytest.raises(RuleViolation) as refused:
        fr_avance(fro, session, called_aloud=False)
    assert refused.value.code == "COUNT-34"


def test_count_34_no_banknotes_in_an_avance(fro):
    session = fro.session("RA1")
    lines = [*plaques(149_000), {"value": "500", "quantity": 2, "kind": "billet"}]
    with pytest.raises(RuleViolation) as refused:
        services.float_record(
            session=session, breakdown=lines, actor=fro.director, box_number="RA1", counted_by="C", called_aloud=True
        )
    assert refused.value.code == "COUNT-34"


def test_count_14_boule_avances_are_one_uniform_figure(fro):
    seance = fro.seance()
    fr_avance(fro, fro.session("B1", seance=seance), 40_000)
    with pytest.raises(RuleViolation) as refused:
        fr_avance(fro, fro.session("B2", seance=seance), 50_000)
    assert refused.value.code == "COUNT-14"
    assert fr_avance(fro, fro.session("B2", seance=fro.seance(period="apres_midi")), 40_000).amount == 40_000


def test_count_37_minimum_avance_changed_during_the_season_is_flagged(fro):
    first = fro.session("RA1", stake="10")
    fr_avance(fro, first, 150_000)
    fro.close(first)
    certified(fro, first, 150_000)
    open_register(fro.est, "declarations_prealables")
    declaration_record(  # the new minimum stake is a declared change (AUTH-01)
        establishment=fro.est,
        actor=fro.director,
        operation=Declaration.Operation.DISTRIBUTION,
        details="RA1 : mise minimale portée à 20 €",
        sent_on=fro.day - datetime.timedelta(days=20),
        recipients=Declaration.Recipient.values,
        proof="LRAR 1",
        implementation_date=fro.day + datetime.timedelta(days=1),
    )
    later = fro.session("RA1", seance=fro.seance(day=7), stake="20")
    avance = fr_avance(fro, later, 300_000, carry_note="nouvelle mise minimale")
    assert any("COUNT-37" in flag for flag in avance.flags)
    assert list(selectors.float_flags(fro.est)) == [avance]


def test_count_37_new_season_starts_on_1_november():
    assert season_start(datetime.date(2026, 10, 31)) == datetime.date(2025, 11, 1)
    assert season_start(datetime.date(2026, 11, 1)) == datetime.date(2026, 11, 1)


def test_reg_09_avance_written_in_the_tables_carnet_modele_10(fro):
    session = fro.session("RA1")
    fr_avance(fro, session)
    carnet = current_register(fro.est, CARNET_AVANCES.code, "RA1")
    entry = carnet.entries.filter(kind="record").last()
    assert entry.payload["amount"] == "150000.00" and entry.payload["table"] == "RA1"
    assert entry.payload["called_aloud"] is True and "Directeur responsable" in entry.payload["signed_by"]
    assert carnet.entries.get(seq=1).role == Role.CONTROLE_INTERIEUR  # coté et paraphé (REG-26)


def test_reg_09_carnet_modele_10_avance_and_certified_encaisse_with_the_tips_printed(fro):
    session = fro.session("RA1")
    fr_avance(fro, session)
    fro.close(session)
    services.count_record(
        session=session,
        breakdown=plaques(171_250),
        actor=fro[Role.CROUPIER],
        present=["Croupier Test"],
        called_aloud=True,
        tips=Decimal(320),
    )
    count = services.count_record(session=session, breakdown=plaques(171_250), actor=fro[Role.CAISSIER])
    services.count_certify(count=count, actor=fro[Role.COMITE], words="certifié exact")
    carnet = current_register(fro.est, CARNET_AVANCES.code, "RA1")
    lines = [e.payload for e in carnet.entries.filter(kind="record", payload__table_session=session.pk)]
    avance, encaisse = lines[0], lines[-1]
    for line in (avance, encaisse):  # the séance's lines of the table's carnet, numbered like its box
        assert (line["date"], line["seance"], line["table"]) == (fro.day.isoformat(), str(session.seance), "RA1")
    assert avance["amount"] == "150000.00" and avance["breakdown"]
    assert avance["signed_by"] == f"{fro.director.get_full_name()} (Directeur responsable)"
    assert encaisse["event"] == "Encaisse de fin de séance" and encaisse["amount"] == "171250.00"
    assert encaisse["tips"] == "320.00" and encaisse["certification"] == "certifié exact"
    assert encaisse["signed_by"] == f"{fro[Role.COMITE].get_full_name()} (Membre du comité de direction)"
    text = "".join(printed(carnet).split()).replace("\u202f", "")
    for value in ("modèle 10", "Pourboires", "Certification", "320", "certifié exact", "171250"):
        assert "".join(value.split()) in text


def test_reg_26_no_avance_without_a_carnet_cote_et_paraphe(fro):
    table = GamingTableFactory(establishment=fro.est, room=fro.room, number="RA9", game="roulette")
    fro.tables["RA9"] = table
    # The box is in place (COUNT-37), only the carnet is missing.
    TableBox.objects.create(
        table=table, box_id="CI-9", key_reference="K-9", recorded_by=fro.director, recorded_at=timezone.now()
    )
    session = fro.session("RA9")
    with pytest.raises(RuleViolation) as refused:
        fr_avance(fro, session)
    assert refused.value.code == "REG-09"
    assert not TableFloat.objects.exists()


def test_closing_count_carries_to_the_next_opening_and_a_difference_needs_a_note(fro):
    first = fro.session("RA1")
    fr_avance(fro, first, 150_000)
    fro.close(first)
    certified(fro, first, 162_000)
    nxt = fro.session("RA1", seance=fro.seance(day=1))
    with pytest.raises(ValidationError) as refused:
        fr_avance(fro, nxt, 150_000)
    assert "carry_note" in refused.value.message_dict
    avance = fr_avance(fro, nxt, 150_000, carry_note="Encaisse remise à la caisse centrale")
    assert "Encaisse remise" in avance.flags[0]


def test_count_01_mc_bank_must_total_the_amount_fixed_by_the_direction(mco):
    session = mco.session("BJ1")
    with pytest.raises(RuleViolation) as refused:
        mc_bank(mco, session, 40_000)
    # The amounts as the reader writes them, in the refusal as on the page.
    assert refused.value.code == "COUNT-01" and "40\N{NO-BREAK SPACE}000,00 € ; la somme fixée" in str(refused.value)
    with translation.override("en"), pytest.raises(RuleViolation) as refused:
        mc_bank(mco, session, 40_000)
    assert "50,000.00" in str(refused.value)
    bank = mc_bank(mco, session, 50_000)
    assert bank.required == Decimal("50000.00") and bank.received_by == mco[Role.CHEF_TABLE]


def test_count_01_mc_no_bank_without_an_amount_fixed(mco):
    session = mco.session("CF1")
    with pytest.raises(RuleViolation) as refused:
        mc_bank(mco, session, 50_000)
    assert refused.value.code == "COUNT-01" and "n'a pas fixé" in str(refused.value)


def test_count_01_mc_bank_holds_no_cash(mco):
    session = mco.session("BJ1")
    lines = [*plaques(49_000), {"value": "500", "quantity": 2, "kind": "billet"}]
    with pytest.raises(RuleViolation) as refused:
        services.float_record(session=session, breakdown=lines, actor=mco[Role.CAISSIER], receiver=mco[Role.CHEF_TABLE])
    assert refused.value.code == "COUNT-01"


def test_count_01_mc_bank_received_by_the_chef_de_table(mco):
    session = mco.session("BJ1")
    with pytest.raises(RuleViolation) as refused:
        mc_bank(mco, session, 50_000, receiver=mco[Role.CROUPIER])
    assert refused.value.code == "COUNT-01" and not TableFloat.objects.exists()


def test_count_37_no_avance_before_the_tables_locked_built_in_box(fro):
    table = fro.tables["RA9"] = GamingTableFactory(establishment=fro.est, room=fro.room, number="RA9", game="roulette")
    fro.open_register(CARNET_AVANCES.code, "RA9")
    session = fro.session("RA9")
    with pytest.raises(RuleViolation) as refused:
        fr_avance(fro, session)
    assert refused.value.code == "COUNT-37" and not TableFloat.objects.filter(table_session=session).exists()
    with pytest.raises(RuleViolation) as no_key:
        services.table_box_record(table=table, box_id="CI-9", key_reference=" ", actor=fro.director)
    assert no_key.value.code == "COUNT-37"
    with pytest.raises(RuleViolation) as no_coffret:
        services.table_box_record(
            table=table, box_id="CI-9", key_reference="K-9", banknotes_accepted=True, actor=fro.director
        )
    assert no_coffret.value.code == "COUNT-37"
    box = services.table_box_record(
        table=table,
        box_id="CI-9",
        key_reference="K-9",
        banknotes_accepted=True,
        coffret_id="CB-9",
        coffret_key_reference="KB-9",
        actor=fro.director,
    )
    assert box.coffret_id == "CB-9"
    entry = current_register(fro.est, CARNET_AVANCES.code, "RA9").entries.filter(kind="record").get()
    assert "CI-9" in entry.payload["breakdown"] and "CB-9" in entry.payload["breakdown"]
    assert fr_avance(fro, session).amount == Decimal("150000.00")


def test_count_37_table_box_through_the_api(fro):
    fro.tables["RA9"] = GamingTableFactory(establishment=fro.est, room=fro.room, number="RA9", game="roulette")
    fro.open_register(CARNET_AVANCES.code, "RA9")
    client = APIClient()
    client.force_authenticate(fro.director)
    body = {"table": fro.tables["RA9"].pk, "box_id": "CI-9", "key_reference": "K-9", "banknotes_accepted": True}
    refused = client.post("/api/v1/cash/table-boxes/", body, format="json")
    assert refused.status_code == 409 and refused.json()["code"] == "COUNT-37"
    done = client.post(
        "/api/v1/cash/table-boxes/", {**body, "coffret_id": "CB-9", "coffret_key_reference": "KB-9"}, format="json"
    )
    assert done.status_code == 201 and done.json()["coffret_id"] == "CB-9"
