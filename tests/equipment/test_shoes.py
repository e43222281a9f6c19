"""Sabots: intake, depots, use at the tables and return, allocation rules, carnets, withdrawal and
destruction (SHOE-01 to SHOE-13)."""

import pytest
from django.core.exceptions import PermissionDenied

from ledgers.core.errors import RuleViolation
from ledgers.core.roles import Role
from ledgers.core.services import seance_close, table_session_close, table_session_open
from ledgers.custody import services as custody
from ledgers.custody.models import DestructionSession, ItemStatus
from ledgers.custody.selectors import book_stock
from ledgers.equipment import selectors, services
from ledgers.equipment.domains import SHOES
from ledgers.equipment.models import Shoe, ShoeAllocation
from ledgers.equipment.volumes import open_volume
from ledgers.registers.models import Register
from ledgers.registers.selectors import current_register
from tests.factories import notice_aged

from .conftest import receive_shoes, seance, session, shoe_model


def entries(est, kind, qualifier=""):
    return [e.payload for e in current_register(est, kind, qualifier).entries.filter(kind="record").order_by("seq")]


# --- MC -------------------------------------------------------------------------------------


def test_shoe_01_number_required_and_unique(mco):
    with pytest.raises(RuleViolation) as exc:
        receive_shoes(mco, [" "])
    assert exc.value.code == "SHOE-01"
    receive_shoes(mco, ["S1"])
    with pytest.raises(RuleViolation) as exc:
        receive_shoes(mco, ["S1"])
    assert exc.value.code == "SHOE-01"
    assert Shoe.objects.filter(establishment=mco.est).count() == 1
    (intake,) = entries(mco.est, "prise_en_charge", "sabots")
    assert intake["movement"] == "IN" and intake["serials"] == ["S1"] and "Cartamundi" in intake["details"][0]


def test_shoe_02_kept_only_in_depots(mco):
    with pytest.raises(RuleViolation) as exc:
        receive_shoes(mco, ["S1"], location_code="caisse")
    assert exc.value.code == "SHOE-02"
    assert not Shoe.objects.exists()


def test_shoe_02_issued_by_cartier_to_live_partie_and_returned_under_inspecteur(mco):
    (shoe,) = receive_shoes(mco, ["S1"], location_code="depot-annexe")
    pb = session(mco, "PB1")
    with pytest.raises(RuleViolation) as exc:
        services.shoe_allocate(session=pb, shoe=shoe, actor=mco.users[Role.CROUPIER])
    assert exc.value.code == "SHOE-02"
    services.shoe_allocate(session=pb, shoe=shoe, actor=mco.users[Role.CARTIER], received_by="Chef de table")
    shoe.refresh_from_db()
    assert shoe.status == ItemStatus.ISSUED and shoe.table_session == pb and shoe.location is None
    table_session_open(session=pb, actor=mco.director)
    with pytest.raises(RuleViolation) as exc:
        table_session_close(session=pb, actor=mco.director)
    assert exc.value.code == "SHOE-02"
    with pytest.raises(RuleViolation) as exc:
        services.shoe_return(shoes=[shoe], to_location=mco.locations["depot-principal"], actor=mco.users[Role.CARTIER])
    assert exc.value.code == "SHOE-02"
    services.shoe_return(
        shoes=[shoe],
        to_location=mco.locations["depot-principal"],
        actor=mco.users[Role.INSPECTEUR],
        returned_by="Croupier, chef de table",
    )
    table_session_close(session=pb, actor=mco.director)
    issue, back = entries(mco.est, "sorties_tables", "shoes")
    assert issue["movement"] == "ISSUE" and issue["table"] == "PB1" and issue["from"] == "Dépôt annexe"
    assert back["movement"] == "RETURN" and back["to"] == "Dépôt principal"
    assert back["signed_by"] == mco.users[Role.INSPECTEUR].get_full_name()


def test_shoe_02_issue_to_closed_partie_refused(mco):
    (shoe,) = receive_shoes(mco, ["S1"])
    pb = session(mco, "PB1")
    table_session_open(session=pb, actor=mco.director)
    table_session_close(session=pb, actor=mco.director)
    with pytest.raises(RuleViolation) as exc:
        services.shoe_allocate(session=pb, shoe=shoe, actor=mco.users[Role.CARTIER])
    assert exc.value.code == "SHOE-02"
    shoe.refresh_from_db()
    assert shoe.status == ItemStatus.IN_STOCK


def test_shoe_03_out_of_use_goes_to_main_depot_and_is_not_issued(mco):
    shoe, other = receive_shoes(mco, ["S1", "S2"], location_code="depot-annexe")
    keeper = mco.users[Role.CARTIER]
    with pytest.raises(RuleViolation) as exc:
        services.shoe_withdraw(shoe=shoe, actor=keeper, reason="Orifice ébréché")
    assert exc.value.code == "SHOE-03"
    shoe.refresh_from_db()
    assert shoe.status == ItemStatus.IN_STOCK  # the refusal changed nothing
    services.shoe_withdraw(
        shoe=shoe, actor=keeper, reason="Orifice ébréché", to_location=mco.locations["depot-principal"]
    )
    shoe.refresh_from_db()
    assert shoe.status == ItemStatus.OUT_OF_USE and shoe.location == mco.locations["depot-principal"]
    (transfer,) = entries(mco.est, "comptabilite_annexe", "shoes")
    assert transfer["serials"] == ["S1"] and transfer["to"] == "Dépôt principal"
    with pytest.raises(RuleViolation) as exc:
        services.shoe_allocate(session=session(mco, "PB1"), shoe=shoe, actor=keeper)
    assert exc.value.code == "SHOE-03"
    with pytest.raises(RuleViolation) as exc:
        custody.items_transfer(domain=SHOES, items=[shoe], to_location=mco.locations["depot-annexe"], actor=keeper)
    assert exc.value.code == "SHOE-03"
    # Destruction: only withdrawn sabots, the SCJ informed beforehand, OUT entries in the intake register.
    plan = custody.destruction_plan(
        domain=SHOES,
        establishment=mco.est,
        method="neutralisation",
        planned_at=shoe.received_at,
        items=[shoe, other],
        actor=mco.director,
    )
    with pytest.raises(RuleViolation) as exc:
        custody.destruction_complete(session=plan, domain=SHOES, actor=mco.director)
    assert exc.value.code == "SHOE-03"  # SCJ not informed
    custody.destruction_notify(session=plan, channel="email", reference="SCJ-12", actor=mco.director)
    notice_aged(plan)
    with pytest.raises(RuleViolation) as exc:
        custody.destruction_complete(session=plan, domain=SHOES, actor=mco.director)
    assert exc.value.code == "SHOE-03"  # S2 was never declared out of use
    plan = custody.destruction_plan(
        domain=SHOES,
        establishment=mco.est,
        method="neutralisation",
        planned_at=shoe.received_at,
        items=[shoe],
        actor=mco.director,
    )
    custody.destruction_notify(session=plan, channel="email", reference="SCJ-13", actor=mco.director)
    notice_aged(plan)
    custody.destruction_complete(session=plan, domain=SHOES, actor=mco.director, witness=mco.users[Role.SCJ])
    shoe.refresh_from_db()
    assert shoe.status == ItemStatus.NEUTRALISED
    assert book_stock(SHOES, mco.est) == {"sabot": 1}
    assert entries(mco.est, "prise_en_charge", "sabots")[-1]["movement"] == "OUT"


def test_shoe_stock_verification_by_scj(mco):
    """Shared verification: counted = located = book → no incident, registers visaed."""
    (shoe,) = receive_shoes(mco, ["S1"])
    counted = {(mco.locations["depot-principal"].pk, "sabot"): 1}
    verification = custody.stock_verification_record(
        domain=SHOES, establishment=mco.est, counted=counted, actor=mco.users[Role.SCJ]
    )
    assert not verification.discrepancy
    intake = current_register(mco.est, "prise_en_charge", "sabots")
    assert intake.entries.filter(kind="visa").count() == 1
    # A missing sabot: the discrepancy opens an incident in the same transaction.
    verification = custody.stock_verification_record(
        domain=SHOES, establishment=mco.est, counted={(shoe.location_id, "sabot"): 0}, actor=mco.users[Role.SCJ]
    )
    assert verification.discrepancy and verification.incident is not None


# --- FR -------------------------------------------------------------------------------------


def test_shoe_09_fr_kept_in_card_or_sabot_cabinet(fro):
    with pytest.raises(RuleViolation) as exc:
        receive_shoes(fro, ["1"], location_code="magasin")
    assert exc.value.code == "SHOE-09"
    receive_shoes(fro, ["1"], location_code="armoire-sabots")
    receive_shoes(fro, ["2"], location_code="armoire")
    assert Shoe.objects.filter(establishment=fro.est).count() == 2


def test_shoe_10_numbered_by_the_casino_unique_never_renumbered(fro):
    with pytest.raises(RuleViolation) as exc:
        receive_shoes(fro, [""])
    assert exc.value.code == "SHOE-10"
    (shoe,) = receive_shoes(fro, ["7"])
    with pytest.raises(RuleViolation) as exc:
        receive_shoes(fro, ["7"], model=shoe.model)
    assert exc.value.code == "SHOE-10"
    keeper = fro.users[Role.EMPLOYE_RESPONSABLE]
    with pytest.raises(RuleViolation) as exc:
        services.shoe_update(shoe=shoe, actor=keeper, number="8", model=shoe.model, maker_serial="X")
    assert exc.value.code == "SHOE-10"
    services.shoe_update(shoe=shoe, actor=keeper, number="7", model=shoe.model, maker_serial="SN-NEW")
    shoe.refresh_from_db()
    assert shoe.serial == "7" and shoe.maker_serial == "SN-NEW"


def test_shoe_11_inventory_on_reserved_pages_and_shoe_not_inventoried_refused(fro):
    (shoe,) = receive_shoes(fro, ["1"])
    section = current_register(fro.est, "carnet_19", "sabots")
    assert section.entries.filter(kind="record").count() == 1
    assert selectors.shoe_inventory(fro.est) == {"1"}
    # A sabot found in the cabinet that nobody took into the inventory is not used.
    stray = Shoe.objects.create(
        establishment=fro.est,
        serial="99",
        model=shoe.model,
        category="sabot",
        location=fro.locations["armoire"],
        received_at=shoe.received_at,
    )
    with pytest.raises(RuleViolation) as exc:
        services.shoe_allocate(session=session(fro, "PB1"), shoe=stray, actor=fro.users[Role.DIRECTEUR_RESPONSABLE])
    assert exc.value.code == "SHOE-11"
    assert not ShoeAllocation.objects.exists()


@pytest.mark.parametrize(("table", "code"), [("PB1", "SHOE-04"), ("BJ1", "SHOE-07"), ("CF1", "SHOE-08")])
def test_shoe_04_shoe_07_shoe_08_non_approved_model_refused(fro, table, code):
    (shoe,) = receive_shoes(fro, ["1"], model=shoe_model(fro, approved=False))
    with pytest.raises(RuleViolation) as exc:
        services.shoe_allocate(session=session(fro, table), shoe=shoe, actor=fro.users[Role.DIRECTEUR_RESPONSABLE])
    assert exc.value.code == code
    shoe.refresh_from_db()
    assert shoe.status == ItemStatus.IN_STOCK


def test_shoe_05_punto_banco_allocators(fro):
    shoes = receive_shoes(fro, ["1", "2", "3", "4"])
    s1 = seance(fro)
    with pytest.raises(RuleViolation) as exc:
        services.shoe_allocate(session=session(fro, "PB1", s1), shoe=shoes[0], actor=fro.users[Role.CROUPIER])
    assert exc.value.code == "SHOE-05"
    allocation = services.shoe_allocate(session=session(fro, "PB1", s1), shoe=shoes[0], actor=fro.users[Role.COMITE])
    assert allocation.role == Role.COMITE and allocation.flags == []


def test_shoe_12_baccara_and_blackjack_allocators_comite_flagged(fro):
    shoes = receive_shoes(fro, ["1", "2", "3"])
    s1 = seance(fro)
    with pytest.raises(RuleViolation) as exc:
        services.shoe_allocate(session=session(fro, "CF1", s1), shoe=shoes[0], actor=fro.users[Role.CHEF_TABLE])
    assert exc.value.code == "SHOE-12"
    allocation = services.shoe_allocate(session=session(fro, "BJ1", s1), shoe=shoes[1], actor=fro.users[Role.COMITE])
    assert [f["code"] for f in allocation.flags] == ["AMB-49"]
    fro.est.options = {"AMB-49": {"comite_allocates": False}}
    fro.est.save()
    with pytest.raises(RuleViolation) as exc:
        services.shoe_allocate(session=session(fro, "CF1", s1), shoe=shoes[2], actor=fro.users[Role.COMITE])
    assert exc.value.code == "SHOE-12"
    services.shoe_allocate(session=session(fro, "CF1", s1), shoe=shoes[2], actor=fro.users[Role.EMPLOYE_RESPONSABLE])


def test_shoe_12_table_opening_without_allocation_refused(fro):
    (shoe,) = receive_shoes(fro, ["1"])
    pb = session(fro, "PB1")
    with pytest.raises(RuleViolation) as exc:
        table_session_open(session=pb, actor=fro.director)
    assert exc.value.code == "SHOE-12"
    services.shoe_allocate(session=pb, shoe=shoe, actor=fro.users[Role.EMPLOYE_RESPONSABLE])
    assert table_session_open(session=pb, actor=fro.director).status == "open"


def test_shoe_05_12_set_20_same_shoe_same_table_within_window_flagged_and_reported(fro):
    shoe, other = receive_shoes(fro, ["1", "2"])
    allocator, keeper = fro.users[Role.DIRECTEUR_RESPONSABLE], fro.users[Role.EMPLOYE_RESPONSABLE]
    cabinet = fro.locations["armoire"]

    def one_seance(day, which):
        s = seance(fro, day)
        pb = session(fro, "PB1", s)
        allocation = services.shoe_allocate(session=pb, shoe=which, actor=allocator)
        table_session_open(session=pb, actor=fro.director)
        services.shoe_return(shoes=[which], to_location=cabinet, actor=keeper)
        seance_close(seance=s, actor=fro.director)
        return allocation

    assert one_seance(0, shoe).flags == []
    repeat = one_seance(1, shoe)
    assert [f["code"] for f in repeat.flags] == ["SHOE-05"]
    assert one_seance(2, other).flags == []
    assert one_seance(3, shoe).flags == []  # window 1: day 2 had sabot 2
    fro.est.options = {"SET-20": 2}
    fro.est.save()
    assert one_seance(4, other).flags  # day 2 is within the last two séances
    report = selectors.repeated_pairs(fro.est, fro.seance_day, fro.seance_day.replace(day=28))
    assert report[0]["shoe"] == "1" and report[0]["count"] == 3 and report[0]["flagged"] == 1
    assert report[1]["shoe"] == "2" and report[1]["count"] == 2
    carnet = entries(fro.est, "carnet_avances", "PB1")
    assert carnet[1]["flags"] and carnet[1]["sabot"]["number"] == "1"


def test_shoe_06_count_16_allocation_recorded_in_carnet_avances(fro):
    (shoe,) = receive_shoes(fro, ["3"])
    bj = session(fro, "BJ1")
    services.shoe_allocate(session=bj, shoe=shoe, actor=fro.users[Role.EMPLOYE_RESPONSABLE])
    (page,) = entries(fro.est, "carnet_avances", "BJ1")
    assert page["sabot"]["number"] == "3" and page["sabot"]["role"] == "Employé responsable"
    assert page["table_session"] == bj.pk and page["table"] == "BJ1"
    register = current_register(fro.est, "carnet_avances", "BJ1")
    assert register.kind_info.form == "modèle 10"


def test_shoe_13_baccara_allocation_in_modele_11_column_3(fro):
    (shoe,) = receive_shoes(fro, ["4"])
    services.shoe_allocate(session=session(fro, "CF1"), shoe=shoe, actor=fro.users[Role.DIRECTEUR_RESPONSABLE])
    (page,) = entries(fro.est, "carnet_cagnottes", "CF1")
    assert page["col3"]["sabot"] == "4" and "Directeur responsable" in page["col3"]["allocated_by"]
    assert not Register.objects.filter(kind="carnet_avances", qualifier="CF1").exists()


def test_shoe_09_fr_table_close_refused_until_shoe_back_in_cabinet(fro):
    (shoe,) = receive_shoes(fro, ["1"])
    pb = session(fro, "PB1")
    services.shoe_allocate(session=pb, shoe=shoe, actor=fro.users[Role.DIRECTEUR_RESPONSABLE])
    table_session_open(session=pb, actor=fro.director)
    with pytest.raises(RuleViolation) as exc:
        table_session_close(session=pb, actor=fro.director)
    assert exc.value.code == "SHOE-09"
    with pytest.raises(PermissionDenied):
        services.shoe_return(shoes=[shoe], to_location=fro.locations["armoire"], actor=fro.users[Role.CROUPIER])
    with pytest.raises(RuleViolation) as exc:
        services.shoe_return(
            shoes=[shoe], to_location=fro.locations["magasin"], actor=fro.users[Role.DIRECTEUR_RESPONSABLE]
        )
    assert exc.value.code == "SHOE-09"
    services.shoe_return(
        shoes=[shoe], to_location=fro.locations["armoire-sabots"], actor=fro.users[Role.DIRECTEUR_RESPONSABLE]
    )
    assert table_session_close(session=pb, actor=fro.director).status == "closed"


def test_fr_shoe_destruction_writes_out_in_sabot_section(fro):
    (shoe,) = receive_shoes(fro, ["1"])
    services.shoe_withdraw(shoe=shoe, actor=fro.users[Role.EMPLOYE_RESPONSABLE], reason="Fendu")
    plan = custody.destruction_plan(
        domain=SHOES,
        establishment=fro.est,
        method=DestructionSession.Method.DESTRUCTION,
        planned_at=shoe.received_at,
        items=[shoe],
        actor=fro.director,
    )
    custody.destruction_complete(session=plan, domain=SHOES, actor=fro.director)
    assert selectors.shoe_inventory(fro.est) == set()
    assert book_stock(SHOES, fro.est) == {"sabot": 0}


def test_reg_06_sabot_section_of_modele_19_kept_apart_from_the_cards(fro):
    """The carnet modèle 19 holds cards, sabots and dice in separate sections: the sabot book
    stock and inventory read only the sabot pages (SHOE-11, REG-06)."""
    from ledgers.registers.services import entry_append

    cards = open_volume(
        fro.est, "carnet_19", "cartes", director=fro.director, authority=fro.users[Role.POLICE], paraphe="P."
    )
    entry_append(
        register=cards,
        actor=fro.director,
        role=Role.DIRECTEUR_RESPONSABLE,
        payload={"movement": "IN", "category": "sixain", "quantity": 4, "serials": ["A1", "A2", "A3", "A4"]},
    )
    receive_shoes(fro, ["1", "2"])
    assert book_stock(SHOES, fro.est) == {"sabot": 2}
    assert selectors.shoe_inventory(fro.est) == {"1", "2"}
    counted = {(fro.locations["armoire"].pk, "sabot"): 2}
    verification = custody.stock_verification_record(
        domain=SHOES, establishment=fro.est, counted=counted, actor=fro.users[Role.POLICE]
    )
    assert not verification.discrepancy
    assert cards.entries.filter(kind="visa").count() == 0  # the police visaed the sabot pages only
    assert current_register(fro.est, "carnet_19", "sabots").entries.filter(kind="visa").count() == 1


def test_mc_annex_ledger_day_close_for_sabots(mco):
    receive_shoes(mco, ["S1", "S2"], location_code="depot-principal")
    shoe = Shoe.objects.get(serial="S1")
    custody.items_transfer(
        domain=SHOES,
        items=[shoe],
        to_location=mco.locations["depot-annexe"],
        actor=mco.users[Role.CARTIER],
        received_by="Cartier de la salle",
    )
    days = custody.depot_day_close(
        domain=SHOES, establishment=mco.est, date=shoe.received_at.date(), actor=mco.users[Role.CARTIER]
    )
    closing = {day.location.code: day.closing for day in days}
    assert closing == {"depot-annexe": {"sabot": 1}, "depot-principal": {"sabot": 1}}
    assert [p["movement"] for p in entries(mco.est, "comptabilite_annexe", "shoes")] == [
        "TRANSFER",
        "DAY_CLOSE",
        "DAY_CLOSE",
    ]


@pytest.mark.postgresql
def test_allocations_checks_and_lid_locks_are_append_only(fro):
    from django.db import DatabaseError, transaction

    (shoe,) = receive_shoes(fro, ["1"])
    services.shoe_allocate(session=session(fro, "PB1"), shoe=shoe, actor=fro.director)
    with pytest.raises(DatabaseError), transaction.atomic():
        ShoeAllocation.objects.update(role="croupier")
    with pytest.raises(DatabaseError), transaction.atomic():
        Shoe.history.all().delete()
