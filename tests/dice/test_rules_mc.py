"""Monaco craps dice, AM 88-384 art. 2 and 6: one test per requirement (DICE-01 to DICE-12)."""

import datetime

import pytest
from django.core.exceptions import PermissionDenied
from django.db import DatabaseError, connection, transaction
from django.urls import reverse
from django.utils import timezone

from ledgers.core.errors import RuleViolation
from ledgers.core.models import TableSession
from ledgers.core.services import table_session_close
from ledgers.custody.charts import consumption_against_destruction
from ledgers.custody.models import DestructionSession, ItemStatus, PurchaseOrder
from ledgers.custody.selectors import book_stock
from ledgers.custody.services import (
    depot_day_close,
    destruction_notify,
    items_transfer,
    purchase_order_issue,
    stock_verification_record,
    supplier_register,
)
from ledgers.dice.domains import CATEGORY as DICE_CATEGORY
from ledgers.dice.domains import DICE
from ledgers.dice.models import DiceAllocation, DiceCheck, Die, PlayRole
from ledgers.dice.selectors import destruction_queue, stock_statement, unclosed_annex_days
from ledgers.dice.services import (
    DieInput,
    DieResult,
    Result,
    dice_allocate,
    dice_destruction_complete,
    dice_destruction_plan,
    dice_end_check,
    dice_receive,
    dice_swap,
    dice_withdraw,
    service_register,
)
from ledgers.incidents.models import Incident
from ledgers.incidents.selectors import has_open_incident
from ledgers.registers.models import Entry
from ledgers.registers.services import entry_append, register_create, register_open
from ledgers.registers.verification import verify_register
from tests.cash.test_e2e import printed
from tests.dice.conftest import PASSED, allocate_mc, mc_inputs, open_table, receive_mc
from tests.factories import LocationFactory, make_user, notice_aged


def records(register):
    return [e.payload for e in register.entries.filter(kind="record").order_by("seq")]


def play_seance(org, days_ago=0, table=None):
    """A complete craps séance: allocation, opening, end check, closing. Returns the dice used."""
    session = org.session(org.seance(days_ago=days_ago), table=table)
    allocation = allocate_mc(org, session)
    open_table(org, session)
    dice = [line.die for line in allocation.lines.all()]
    dice_end_check(
        session=session, results=[DieResult(die=d) for d in dice], actor=org["sous_directeur"], return_to=org.depot
    )
    table_session_close(session=session, actor=org["sous_directeur"])
    return dice


# --- receipt -------------------------------------------------------------------------------------


def test_dice_01_die_failing_the_receipt_inspection_is_refused(mc_org):
    inputs = mc_inputs(mc_org, 3)
    inputs[1] = type(inputs[1])(
        serial=inputs[1].serial, sigle="SBM", inspection={**PASSED, "sharp_corners": False}
    )  # rounded corners
    with pytest.raises(RuleViolation) as refused:
        dice_receive(establishment=mc_org.est, location=mc_org.depot, dice=inputs, actor=mc_org["cartier"])
    assert refused.value.code == "DICE-01"
    assert "angles vifs" in str(refused.value)
    assert not Die.objects.exists()
    assert records(mc_org.registers["prise_en_charge"]) == []


def test_dice_02_numero_and_sigle_required_and_no_duplicate(mc_org):
    inputs = mc_inputs(mc_org, 1)
    no_sigle = [type(inputs[0])(serial=inputs[0].serial, sigle=" ", inspection=PASSED)]
    with pytest.raises(RuleViolation) as refused:
        dice_receive(establishment=mc_org.est, location=mc_org.depot, dice=no_sigle, actor=mc_org["cartier"])
    assert refused.value.code == "DICE-02"
    first = receive_mc(mc_org, 1)[0]
    again = [type(inputs[0])(serial=first.serial, sigle="SBM", inspection=PASSED)]
    with pytest.raises(RuleViolation) as refused:
        dice_receive(establishment=mc_org.est, location=mc_org.depot, dice=again, actor=mc_org["cartier"])
    assert refused.value.code == "DICE-02"
    assert first.sigle == "SBM" and first.received_at is not None
    assert Die.objects.count() == 1


def test_dice_03_intake_register_records_every_definitive_entry_and_exit(mc_org):
    dice = receive_mc(mc_org, 5)
    (entry,) = records(mc_org.registers["prise_en_charge"])
    assert entry["movement"] == "IN" and entry["quantity"] == 5
    assert entry["serials"] == [d.serial for d in dice]
    assert entry["details"] == [f"{d.serial} / SBM" for d in dice]
    assert entry["flags"][0]["code"] == "DICE-03"  # received without a purchase order: reported
    assert book_stock(DICE, mc_org.est) == {"des": 5}
    # The register must be the dice register coted and paraphed by the Commissaire (REG-02).
    assert mc_org.registers["prise_en_charge"].entries.get(seq=1).role == "commissaire"


def test_dice_03_receipt_refused_without_an_open_intake_register(mc):
    depot = LocationFactory(establishment=mc, kind="depot_principal")
    cartier = make_user(mc, "cartier")
    with pytest.raises(RuleViolation) as refused:
        dice_receive(
            establishment=mc,
            location=depot,
            dice=[DieInput(serial="X1", sigle="SBM", inspection=PASSED)],
            actor=cartier,
        )
    assert refused.value.code == "REG-01"
    assert not Die.objects.exists()


def test_dice_04_annex_ledger_records_daily_depot_movements(mc_org):
    dice = receive_mc(mc_org, 5)
    items_transfer(
        domain=DICE, items=dice[:3], to_location=mc_org.annex, actor=mc_org["cartier"], received_by="Chef de table"
    )
    assert Die.objects.filter(location=mc_org.annex).count() == 3
    days = depot_day_close(domain=DICE, establishment=mc_org.est, date=timezone.localdate(), actor=mc_org["cartier"])
    closing = {day.location.code: day.closing for day in days}
    assert closing == {"depot-annexe": {"des": 3}, "depot-principal": {"des": 2}}
    events = [p["movement"] for p in records(mc_org.registers["comptabilite_annexe"])]
    assert events == ["TRANSFER", "DAY_CLOSE", "DAY_CLOSE"]
    # Allocated dice are at a table, not in the origin depot: no negative stock.
    session = mc_org.session()
    allocate_mc(mc_org, session, dice)
    with pytest.raises(RuleViolation) as refused:
        items_transfer(domain=DICE, items=dice[:1], to_location=mc_org.depot, actor=mc_org["cartier"])
    assert refused.value.code == "DICE-04"


def test_dice_05_inc_11_scj_verifies_stock_at_any_time_and_visas_registers_and_orders(mc_org):
    supplier = supplier_register(
        establishment=mc_org.est, domain=DICE, name="Fournisseur", actor=mc_org["directeur_jeux"]
    )
    order = purchase_order_issue(
        establishment=mc_org.est,
        domain=DICE,
        supplier=supplier,
        lines=[{"category": "des", "quantity": 5}],
        actor=mc_org["directeur_jeux"],
    )
    dice_receive(
        establishment=mc_org.est, location=mc_org.depot, dice=mc_inputs(mc_org, 5), actor=mc_org["cartier"], order=order
    )
    statement = stock_statement(mc_org.est)
    assert statement.book == statement.located == 5 and statement.balanced
    verification = stock_verification_record(
        domain=DICE,
        establishment=mc_org.est,
        counted=statement.by_location,
        actor=mc_org["scj"],
        orders_seen=[order],
    )
    assert not verification.discrepancy
    order.refresh_from_db()
    assert order.visa_role == "scj" and order.status == PurchaseOrder.Status.RECEIVED
    intake = mc_org.registers["prise_en_charge"]
    assert intake.entries.filter(kind="visa", actor="scj-mcb").exists()
    # A discrepancy opens an incident in the same transaction (INC-11), recorded by the agent.
    short = {key: n - 1 for key, n in statement.by_location.items()}
    verification = stock_verification_record(
        domain=DICE, establishment=mc_org.est, counted=short, actor=mc_org["scj"], visa=False
    )
    assert verification.discrepancy and verification.incident.requirement == "INC-11"


def test_dice_06_dice_only_in_the_main_or_annex_depots(mc_org):
    caisse = LocationFactory(establishment=mc_org.est, kind="caisse_centrale", name="Caisse")
    with pytest.raises(RuleViolation) as refused:
        dice_receive(establishment=mc_org.est, location=caisse, dice=mc_inputs(mc_org, 1), actor=mc_org["cartier"])
    assert refused.value.code == "DICE-06"
    dice = receive_mc(mc_org, 1)
    with pytest.raises(RuleViolation) as refused:
        items_transfer(domain=DICE, items=dice, to_location=caisse, actor=mc_org["cartier"])
    assert refused.value.code == "DICE-06"


def test_dice_07_destruction_needs_prior_scj_information_and_an_inspecteur(mc_org):
    used = play_seance(mc_org, days_ago=1)
    assert set(destruction_queue(mc_org.est)) == set(used)
    session = dice_destruction_plan(
        establishment=mc_org.est,
        dice=used,
        actor=mc_org["directeur_jeux"],
        planned_at=timezone.now(),
        method=DestructionSession.Method.NEUTRALISATION,
    )
    with pytest.raises(RuleViolation) as refused:
        dice_destruction_complete(session=session, actor=mc_org["directeur_jeux"], inspector=mc_org["inspecteur"])
    assert refused.value.code == "DICE-07" and "informé" in str(refused.value)
    destruction_notify(session=session, channel="email", reference="Courriel au SCJ", actor=mc_org["directeur_jeux"])
    notice_aged(session)
    with pytest.raises(RuleViolation) as refused:
        dice_destruction_complete(session=session, actor=mc_org["directeur_jeux"])
    assert refused.value.code == "DICE-07" and "inspecteur" in str(refused.value)
    with pytest.raises(PermissionDenied):  # the one who signs must be an inspecteur
        dice_destruction_complete(session=session, actor=mc_org["directeur_jeux"], inspector=mc_org["cartier"])
    dice_destruction_complete(
        session=session, actor=mc_org["directeur_jeux"], inspector=mc_org["inspecteur"], witness=mc_org["scj"]
    )
    session.refresh_from_db()
    assert session.status == DestructionSession.Status.COMPLETED and session.inspector == mc_org["inspecteur"]
    assert set(Die.objects.values_list("status", flat=True)) == {ItemStatus.NEUTRALISED}
    out = records(mc_org.registers["prise_en_charge"])[-1]
    assert out["movement"] == "OUT" and out["quantity"] == 5 and out["inspector"] == "Inspecteur Test"
    assert out["witness"].startswith("Scj Test") and out["notified_at"]
    assert book_stock(DICE, mc_org.est) == {"des": 0}


def test_dice_07_the_dice_put_into_service_are_drawn_against_those_destroyed(mc_org):
    """Ten dice played over two séances, five of them destroyed: the chart of the last six months
    says so; the cards' columns are there, at zero."""
    used = play_seance(mc_org, days_ago=1)
    play_seance(mc_org)
    session = dice_destruction_plan(
        establishment=mc_org.est, dice=used, actor=mc_org["directeur_jeux"], planned_at=timezone.now()
    )
    destruction_notify(session=session, channel="email", reference="Courriel au SCJ", actor=mc_org["directeur_jeux"])
    notice_aged(session)
    dice_destruction_complete(session=session, actor=mc_org["directeur_jeux"], inspector=mc_org["inspecteur"])
    month = mc_org.est.localtime().date().replace(day=1)
    drawn = consumption_against_destruction(mc_org.est, month)
    assert drawn.requirement == "REG-24" and len(drawn.rows) == 6
    totals = {str(header): sum(row[i] for row in drawn.rows) for i, header in enumerate(drawn.headers) if i}
    assert totals == {
        "Mises en service : Cartes": 0,
        "Destructions : Cartes": 0,
        "Mises en service : Dés": 10,
        "Destructions : Dés": 5,
    }
    assert drawn.rows[-1][-1] == 5  # destroyed this month


def test_dice_07_only_used_or_damaged_dice_are_destroyed(mc_org):
    new = receive_mc(mc_org, 2)
    with pytest.raises(RuleViolation) as refused:
        dice_destruction_plan(
            establishment=mc_org.est, dice=new, actor=mc_org["directeur_jeux"], planned_at=timezone.now()
        )
    assert refused.value.code == "DICE-07"


# --- allocation and service ----------------------------------------------------------------------


def test_dice_08_five_dice_per_craps_table_per_seance(mc_org):
    session = mc_org.session()
    with pytest.raises(RuleViolation) as refused:
        allocate_mc(mc_org, session, receive_mc(mc_org, 4))
    assert refused.value.code == "DICE-08"
    assert not DiceAllocation.objects.exists()
    allocate_mc(mc_org, session)
    with pytest.raises(RuleViolation) as refused:  # a second allocation is a supplementary one
        allocate_mc(mc_org, session)
    assert refused.value.code == "DICE-08"


def test_dice_08_die_allocated_before_refused(mc_org):
    used = play_seance(mc_org, days_ago=1)
    assert {d.status for d in Die.objects.filter(pk__in=[d.pk for d in used])} == {ItemStatus.OUT_OF_USE}
    session = mc_org.session()
    fresh = receive_mc(mc_org, 4)
    with pytest.raises(RuleViolation) as refused:
        allocate_mc(mc_org, session, [*fresh, Die.objects.get(pk=used[0].pk)])
    assert refused.value.code == "DICE-08"


def test_dice_08_die_allocated_before_refused_even_back_in_stock(mc_org):
    """A die that was allocated once is never new again, whatever its status."""
    used = play_seance(mc_org, days_ago=1)
    die = Die.objects.get(pk=used[0].pk)
    die.status = ItemStatus.IN_STOCK  # as if someone put it back with the new dice
    die.save()
    with pytest.raises(RuleViolation) as refused:
        allocate_mc(mc_org, mc_org.session(), [*receive_mc(mc_org, 4), die])
    assert refused.value.code == "DICE-08" and "déjà été alloué" in str(refused.value)


def test_dice_08_supplementary_allocation_is_flagged_or_refused_by_setting(mc_org):
    session = mc_org.session()
    allocate_mc(mc_org, session)
    open_table(mc_org, session)
    extra = dice_allocate(
        session=session,
        dice=receive_mc(mc_org, 2),
        actor=mc_org["chef_table"],
        signer=mc_org["sous_directeur"],
        supplementary=True,
    )
    assert extra.kind == DiceAllocation.Kind.SUPPLEMENTARY and extra.flags[0]["code"] == "DICE-08"
    mc_org.est.options = {"SET-12": {"supplementary": "refuse"}}
    mc_org.est.save()
    with pytest.raises(RuleViolation) as refused:
        dice_allocate(
            session=session,
            dice=receive_mc(mc_org, 1),
            actor=mc_org["chef_table"],
            signer=mc_org["sous_directeur"],
            supplementary=True,
        )
    assert refused.value.code == "DICE-08"


def test_dice_09_register_entry_has_every_field_and_a_die_serves_one_table(mc_org):
    dice = receive_mc(mc_org, 5)
    seance = mc_org.seance()
    allocate_mc(mc_org, mc_org.session(seance), dice)
    entry = records(mc_org.registers["des_en_service"])[0]
    assert entry["date"] == seance.date.isoformat() and entry["seance"] == "Soirée"
    assert entry["table"] == "CR1" and len(entry["time"]) == 5
    assert entry["dice"] == [f"{d.serial} / SBM" for d in dice]
    other = mc_org.session(seance, table=mc_org.other_table)
    with pytest.raises(RuleViolation) as refused:
        allocate_mc(mc_org, other, [dice[0], *receive_mc(mc_org, 4)])
    assert refused.value.code == "DICE-09"


def test_dice_10_allocation_active_only_with_the_sous_directeurs_signature(mc_org):
    session = mc_org.session()
    dice = receive_mc(mc_org, 5)
    with pytest.raises(RuleViolation) as refused:
        dice_allocate(session=session, dice=dice, actor=mc_org["cartier"], signer=None)
    assert refused.value.code == "DICE-10"
    with pytest.raises(RuleViolation) as refused:
        dice_allocate(session=session, dice=dice, actor=mc_org["cartier"], signer=mc_org["chef_table"])
    assert refused.value.code == "DICE-10"
    with pytest.raises(RuleViolation) as refused:
        open_table(mc_org, session)
    assert refused.value.code == "DICE-10"
    assert TableSession.objects.get(pk=session.pk).status == TableSession.Status.PREPARING
    allocation = dice_allocate(session=session, dice=dice, actor=mc_org["cartier"], signer=mc_org["sous_directeur"])
    assert records(mc_org.registers["des_en_service"])[0]["signatures"] == ["Sous_directeur Test — Sous-directeur"]
    assert allocation.signed_role == "sous_directeur"
    assert open_table(mc_org, session).status == TableSession.Status.OPEN


def test_reg_05_dice_in_service_lines_carry_every_column_and_print(mc_org):
    session = mc_org.session()
    dice = sorted((line.die for line in allocate_mc(mc_org, session).lines.all()), key=lambda d: d.serial)
    open_table(mc_org, session)
    results = [DieResult(die=dice[0], result=Result.ANOMALY, remark="Angle ébréché")]
    results += [DieResult(die=d) for d in dice[1:]]
    dice_end_check(
        session=session,
        results=results,
        actor=mc_org["sous_directeur"],
        return_to=mc_org.depot,
        observations="Table calme",
    )
    allocation, check = records(mc_org.registers["des_en_service"])
    sous_directeur = f"{mc_org['sous_directeur'].get_full_name()} — Sous-directeur"
    for line in (allocation, check):  # DICE-09: date, séance, table, time of use
        assert line["date"] == session.seance.date.isoformat() and line["seance"] == "Soirée"
        assert line["table"] == "CR1" and len(line["time"]) == 5
    # DICE-09, DICE-10: the five dice by numéro d'ordre and sigle, the sous-directeur's signature.
    assert sorted(allocation["dice"]) == [f"{d.serial} / SBM" for d in dice]
    assert allocation["signatures"] == [sous_directeur]
    # DICE-11: each die's result, the observations, the sous-directeur's name and signature.
    assert check["dice"][0] == f"{dice[0].serial} / SBM : Anomalie (abîmé, suspect) (Angle ébréché)"
    assert check["dice"][1:] == [f"{d.serial} / SBM : Conforme" for d in dice[1:]]
    assert check["observations"] == "Table calme" and check["signatures"] == [sous_directeur]
    text = "".join(printed(mc_org.registers["des_en_service"]).split())
    for value in (*allocation["dice"], "Angleébréché", "Tablecalme", "".join(sous_directeur.split())):
        assert "".join(value.split()) in text


def test_dice_11_closing_refused_without_the_sous_directeurs_end_check(mc_org):
    session = mc_org.session()
    dice = [line.die for line in allocate_mc(mc_org, session).lines.all()]
    open_table(mc_org, session)
    with pytest.raises(RuleViolation) as refused:
        table_session_close(session=session, actor=mc_org["sous_directeur"])
    assert refused.value.code == "DICE-11"
    with pytest.raises(RuleViolation) as refused:  # only the sous-directeur checks and signs
        dice_end_check(
            session=session,
            results=[DieResult(die=d) for d in dice],
            actor=mc_org["inspecteur"],
            return_to=mc_org.depot,
        )
    assert refused.value.code == "DICE-11"
    with pytest.raises(RuleViolation) as refused:  # every die gets a result
        dice_end_check(
            session=session,
            results=[DieResult(die=d) for d in dice[:4]],
            actor=mc_org["sous_directeur"],
            return_to=mc_org.depot,
        )
    assert refused.value.code == "DICE-11"
    results = [
        DieResult(die=dice[0], result=Result.MISSING),
        DieResult(die=dice[1], result=Result.ANOMALY, remark="Angle ébréché"),
    ]
    results += [DieResult(die=d) for d in dice[2:]]
    check = dice_end_check(
        session=session,
        results=results,
        actor=mc_org["sous_directeur"],
        return_to=mc_org.depot,
        observations="Dé tombé non retrouvé",
    )
    assert check.incident.category == "dice_anomaly" and check.incident.requirement == "INC-09"
    statuses = dict(Die.objects.values_list("serial", "status"))
    assert statuses[dice[1].serial] == ItemStatus.DAMAGED
    assert statuses[dice[0].serial] == ItemStatus.ISSUED  # last seen at the table, quarantined
    assert {statuses[d.serial] for d in dice[2:]} == {ItemStatus.OUT_OF_USE}
    assert has_open_incident(dice[0]) and has_open_incident(dice[1])
    entry = records(mc_org.registers["des_en_service"])[-1]
    assert entry["signatures"] == ["Sous_directeur Test — Sous-directeur"]
    assert entry["observations"] == "Dé tombé non retrouvé" and entry["detail"] == "3 conformes sur 5"
    table_session_close(session=session, actor=mc_org["sous_directeur"])


def test_dice_12_only_dice_allocated_to_that_table_come_into_play(mc_org):
    seance = mc_org.seance()
    session = mc_org.session(seance)
    mine = [line.die for line in allocate_mc(mc_org, session).lines.all()]
    open_table(mc_org, session)
    other = mc_org.session(seance, table=mc_org.other_table)
    theirs = [line.die for line in allocate_mc(mc_org, other).lines.all()]
    with pytest.raises(RuleViolation) as refused:
        dice_swap(
            session=session, withdrawn=[mine[0]], brought_in=[theirs[0]], reason="shooter", actor=mc_org["chef_table"]
        )
    assert refused.value.code == "DICE-12"
    swap = dice_swap(
        session=session,
        withdrawn=[mine[0]],
        brought_in=[mine[3]],
        reason="damaged",
        damaged=[mine[0]],
        actor=mc_org["chef_table"],
    )
    assert swap.incident is not None and Die.objects.get(pk=mine[0].pk).status == ItemStatus.DAMAGED
    with pytest.raises(RuleViolation) as refused:  # a damaged die does not come back into play
        dice_swap(session=session, withdrawn=[mine[3]], brought_in=[mine[0]], reason="fell", actor=mc_org["chef_table"])
    assert refused.value.code == "DICE-12"
    entry = records(mc_org.registers["des_en_service"])[-1]
    assert entry["event"] == "Changement de dés" and entry["withdrawn"] == [mine[0].serial]
    assert entry["detail"].startswith("Dé abîmé ou cassé")


def test_inc_09_quarantined_die_is_neither_allocated_nor_destroyed(mc_org):
    session = mc_org.session(mc_org.seance(days_ago=1))
    dice = [line.die for line in allocate_mc(mc_org, session).lines.all()]
    open_table(mc_org, session)
    results = [DieResult(die=dice[0], result=Result.ANOMALY)] + [DieResult(die=d) for d in dice[1:]]
    check = dice_end_check(session=session, results=results, actor=mc_org["sous_directeur"], return_to=mc_org.depot)
    with pytest.raises(RuleViolation) as refused:
        dice_destruction_plan(
            establishment=mc_org.est,
            dice=[Die.objects.get(pk=dice[0].pk)],
            actor=mc_org["directeur_jeux"],
            planned_at=timezone.now(),
        )
    assert refused.value.code == "INC-09"
    assert Incident.objects.get(pk=check.incident.pk).subjects.count() == 1


def test_craps_registers_verify_and_check_is_unique(mc_org):
    play_seance(mc_org)
    assert DiceCheck.objects.count() == 1
    assert Entry.objects.filter(register__establishment=mc_org.est).exists()
    for register in mc_org.registers.values():
        assert verify_register(register) is None
    assert set(Die.objects.values_list("play_role", flat=True)) == {""}
    assert PlayRole.SERVICE in dict(PlayRole.choices)


def test_reg_05_dice_in_service_register_coted_by_the_commissaire_per_set_26(mc):
    director = make_user(mc, "directeur_jeux")
    register = register_create(establishment=mc, kind="des_en_service", actor=director)
    register_open(register=register, actor=director, paraphe="BM")  # opened by the directorate itself
    with pytest.raises(RuleViolation) as refused:  # SET-26 (default on): the Commissaire cotes and paraphs it
        service_register(mc)
    assert refused.value.code == "REG-05"
    mc.options = {"SET-26": {"dice_service_paraphe": False}}
    mc.save()
    assert service_register(mc) == register


@pytest.mark.postgresql
def test_dice_facts_are_append_only_in_the_database(mc_org):
    play_seance(mc_org)
    for table in ("dice_dicecheck", "dice_diceallocation", "dice_allocateddie", "dice_historicaldie"):
        with pytest.raises(DatabaseError), transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(f"UPDATE {table} SET id = id")


def test_dice_07_minimum_notice_to_the_scj_per_set_05(mc_org):
    mc_org.est.options = {"SET-05": {"scj_notice_minutes": 120}}
    mc_org.est.save()
    dice = receive_mc(mc_org, 1)
    dice_withdraw(dice=dice, reason="damaged", actor=mc_org["cartier"])
    session = dice_destruction_plan(
        establishment=mc_org.est, dice=dice, actor=mc_org["directeur_jeux"], planned_at=timezone.now()
    )
    destruction_notify(session=session, channel="phone", reference="", actor=mc_org["directeur_jeux"])
    notice_aged(session, 30)
    with pytest.raises(RuleViolation) as refused:
        dice_destruction_complete(session=session, actor=mc_org["directeur_jeux"], inspector=mc_org["inspecteur"])
    assert refused.value.code == "DICE-07" and "120 min" in str(refused.value)
    notice_aged(session, 90)
    dice_destruction_complete(session=session, actor=mc_org["directeur_jeux"], inspector=mc_org["inspecteur"])


def test_dice_07_destruction_held_to_the_start_the_scj_was_told_of(mc_org):
    dice = receive_mc(mc_org, 1)
    dice_withdraw(dice=dice, reason="damaged", actor=mc_org["cartier"])
    session = dice_destruction_plan(
        establishment=mc_org.est,
        dice=dice,
        actor=mc_org["directeur_jeux"],
        planned_at=timezone.now() + datetime.timedelta(days=2),
    )
    destruction_notify(session=session, channel="phone", reference="", actor=mc_org["directeur_jeux"])
    notice_aged(session, 24 * 60 + 1)
    with pytest.raises(RuleViolation) as refused:
        dice_destruction_complete(session=session, actor=mc_org["directeur_jeux"], inspector=mc_org["inspecteur"])
    assert refused.value.code == "DICE-07" and "prévue le" in str(refused.value)


def test_dice_04_depot_day_not_closed_is_flagged(mc_org, client):
    dice = receive_mc(mc_org, 2)
    items_transfer(domain=DICE, items=dice, to_location=mc_org.annex, actor=mc_org["cartier"])
    assert unclosed_annex_days(mc_org.est) == []  # today's day is closed tonight
    # A transfer written yesterday, as the cartier would have recorded it then.
    yesterday = timezone.localdate() - datetime.timedelta(days=1)
    entry_append(
        register=mc_org.registers["comptabilite_annexe"],
        actor=mc_org["cartier"],
        role="cartier",
        payload={
            "movement": "TRANSFER",
            "date": yesterday.isoformat(),
            "from": "Dépôt principal",
            "to": "Dépôt annexe",
            "categories": {"des": 1},
            "serials": ["X"],
            "received_by": "",
        },
    )
    assert unclosed_annex_days(mc_org.est) == [yesterday]
    client.force_login(mc_org["cartier"])
    assert "DICE-04" in client.get(reverse("dice:day")).content.decode()
    depot_day_close(domain=DICE, establishment=mc_org.est, date=yesterday, actor=mc_org["cartier"])
    assert unclosed_annex_days(mc_org.est) == []


def test_reg_02_dice_intake_register_cote_et_paraphe_by_the_commissaire_only(mc):
    register = register_create(
        establishment=mc, kind="prise_en_charge", qualifier=DICE_CATEGORY, actor=make_user(mc, "directeur_jeux")
    )
    for role in ("scj", "cartier"):
        with pytest.raises(RuleViolation) as refused:
            register_open(register=register, actor=make_user(mc, role), paraphe="X")
        assert refused.value.code == "REG-02"
    register_open(register=register, actor=make_user(mc, "commissaire"), paraphe="C. G.")
    assert register.entries.get(seq=1).role == "commissaire"


def test_reg_24_destruction_minutes_printed_with_who_when_and_the_prior_notice(mc_org):
    used = play_seance(mc_org, days_ago=1)
    planned = timezone.now()
    session = dice_destruction_plan(
        establishment=mc_org.est,
        dice=used,
        actor=mc_org["directeur_jeux"],
        planned_at=planned,
        method=DestructionSession.Method.DESTRUCTION,
    )
    notice = {"channel": "email", "reference": "Courriel au SCJ n° 12"}
    destruction_notify(session=session, actor=mc_org["directeur_jeux"], **notice)
    notice_aged(session)
    session.refresh_from_db()
    dice_destruction_complete(
        session=session, actor=mc_org["directeur_jeux"], inspector=mc_org["inspecteur"], observations="Dés sciés"
    )
    register = mc_org.registers["prise_en_charge"]
    minutes = records(register)[-1]
    # DICE-07: the dice, the method, the Direction officer, the inspecteur, the SCJ informed beforehand.
    assert minutes["movement"] == "OUT" and sorted(minutes["serials"]) == sorted(d.serial for d in used)
    assert minutes["reason"] == "Destruction" and minutes["officer"] == mc_org["directeur_jeux"].get_full_name()
    at = "%d/%m/%Y %H:%M"
    assert minutes["minutes"] == (
        f"Responsable : {mc_org['directeur_jeux'].get_full_name()} ; "
        f"Inspecteur présent : {mc_org['inspecteur'].get_full_name()} ; "
        f"Prévue le {mc_org.est.localtime(planned).strftime(at)} ; "
        f"Autorité informée le {mc_org.est.localtime(session.notified_at).strftime(at)} "
        "(email — Courriel au SCJ n° 12) ; Dés sciés"
    )
    text = "".join(printed(register).split())
    assert "Procès-verbal" in printed(register) and "".join(minutes["minutes"].split()) in text


def test_reg_24_destruction_minutes_need_the_prior_scj_notice_and_say_it(mc_org):
    used = play_seance(mc_org, days_ago=1)
    session = dice_destruction_plan(
        establishment=mc_org.est,
        dice=used,
        actor=mc_org["directeur_jeux"],
        planned_at=timezone.now(),
        method=DestructionSession.Method.DESTRUCTION,
    )
    with pytest.raises(RuleViolation) as refused:
        dice_destruction_complete(session=session, actor=mc_org["directeur_jeux"], inspector=mc_org["inspecteur"])
    assert refused.value.code == "DICE-07" and not Die.objects.filter(status=ItemStatus.DESTROYED).exists()
    destruction_notify(session=session, channel="email", reference="Courriel au SCJ", actor=mc_org["directeur_jeux"])
    with pytest.raises(RuleViolation) as refused:  # the SET-05 notice (a day by default) has not run yet
        dice_destruction_complete(session=session, actor=mc_org["directeur_jeux"], inspector=mc_org["inspecteur"])
    assert refused.value.code == "DICE-07"
    notice_aged(session)
    dice_destruction_complete(session=session, actor=mc_org["directeur_jeux"], inspector=mc_org["inspecteur"])
    minutes = records(mc_org.registers["prise_en_charge"])[-1]
    assert minutes["movement"] == "OUT" and minutes["notified_at"] and minutes["inspector"] == "Inspecteur Test"
    assert "REG-24" in mc_org.registers["prise_en_charge"].kind_info.requirements
