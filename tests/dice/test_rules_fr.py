"""French rampo dice, arrêté of 14 May 2007 art. 55-22 and 55-22-1: one test per requirement
(DICE-13 to DICE-26)."""

import datetime
from decimal import Decimal

import pytest
from django.utils import timezone

from ledgers.core.errors import RuleViolation
from ledgers.core.services import table_session_close
from ledgers.custody.models import DestructionSession, ItemStatus, PurchaseOrder
from ledgers.custody.selectors import book_stock
from ledgers.custody.services import purchase_order_issue, purchase_order_send, supplier_register
from ledgers.dice.domains import DICE
from ledgers.dice.models import DicePair, Die, PlayRole
from ledgers.dice.services import (
    DieInput,
    DieResult,
    dice_allocate,
    dice_destruction_complete,
    dice_destruction_plan,
    dice_end_check,
    dice_pairs_cap_set,
    dice_receive,
    dice_swap,
    dice_withdraw,
)
from ledgers.incidents.selectors import has_open_incident
from ledgers.registers.verification import verify_register
from tests.cash.test_e2e import printed
from tests.dice.conftest import PASSED, allocate_fr, fr_inputs, fr_order, open_table, receive_fr
from tests.factories import LocationFactory

INSTRUMENTS = {"micrometer": "MIC-01", "square": "EQ-01", "balance": "BC-01"}


def records(register):
    return [e.payload for e in register.entries.filter(kind="record").order_by("seq")]


def results_ok(dice, **overrides):
    return [DieResult(die=d, micrometer="22,01", square_ok=True, balance_ok=True, **overrides) for d in dice]


def end_check(org, session, results=None):
    dice = list(Die.objects.filter(table_session=session))
    return dice_end_check(
        session=session,
        results=results or results_ok(dice),
        actor=org["directeur_responsable"],
        cosigner=org["chef_table"],
        return_to=org.depot,
        instruments=INSTRUMENTS,
    )


def play_seance(org, pairs, days_ago=0, table=None):
    session = org.session(org.seance(days_ago=days_ago), table=table)
    allocate_fr(org, session, pairs)
    open_table(org, session)
    end_check(org, session)
    table_session_close(session=session, actor=org["directeur_responsable"])
    return session


def receive(org, inputs, order=None):
    return dice_receive(
        establishment=org.est,
        location=org.depot,
        dice=inputs,
        actor=org["employe_responsable"],
        order=order or fr_order(org, len(inputs) // 2 or 1),
    )


# --- receipt -------------------------------------------------------------------------------------


@pytest.mark.parametrize("side", ["19.90", "25.10"])
def test_dice_13_side_outside_20_to_25_mm_refused(fr_org, side):
    with pytest.raises(RuleViolation) as refused:
        receive(fr_org, fr_inputs(fr_org, 1, side=Decimal(side)))
    assert refused.value.code == "DICE-13"
    assert not Die.objects.exists()


def test_dice_13_pair_of_the_same_colour_refused(fr_org):
    with pytest.raises(RuleViolation) as refused:
        receive(fr_org, fr_inputs(fr_org, 1, colours=("rouge", "Rouge")))
    assert refused.value.code == "DICE-13" and "couleurs différentes" in str(refused.value)


def test_dice_13_numero_sigle_and_inspection_required(fr_org):
    inputs = fr_inputs(fr_org, 1)
    no_sigle = [
        inputs[0],
        DieInput(
            serial=inputs[1].serial,
            sigle="",
            colour="vert",
            side_mm=Decimal(22),
            inspection=PASSED,
            pair=inputs[1].pair,
        ),
    ]
    with pytest.raises(RuleViolation) as refused:
        receive(fr_org, no_sigle)
    assert refused.value.code == "DICE-13"
    concave = [
        inputs[0],
        DieInput(
            serial=inputs[1].serial,
            sigle="CNI",
            colour="vert",
            side_mm=Decimal(22),
            inspection={**PASSED, "flush_spots": False},
            pair=inputs[1].pair,
        ),
    ]
    with pytest.raises(RuleViolation) as refused:
        receive(fr_org, concave)
    assert refused.value.code == "DICE-13" and "points marqués à ras" in str(refused.value)
    pairs = receive(fr_org, fr_inputs(fr_org, 1))
    assert {d.colour for d in pairs} == {"rouge", "vert"} and pairs[0].pair == pairs[1].pair


def test_dice_14_receipt_above_the_ministerial_maximum_refused(fr_org):
    dice_pairs_cap_set(
        establishment=fr_org.est,
        max_pairs=3,
        reference="Décision ministérielle du 2 mars 2026",
        actor=fr_org["directeur_responsable"],
    )
    fr_org.est.refresh_from_db()
    receive_fr(fr_org, 2)
    with pytest.raises(RuleViolation) as refused:
        receive_fr(fr_org, 2)
    assert refused.value.code == "DICE-14" and "Décision ministérielle" in str(refused.value)
    assert DicePair.objects.count() == 2
    receive_fr(fr_org, 1)  # exactly the maximum
    fr_org.est.options = {}
    fr_org.est.save()
    with pytest.raises(RuleViolation) as refused:  # not configured: nothing may be received
        receive_fr(fr_org, 1)
    assert refused.value.code == "DICE-14"


def test_dice_14_pairs_awaiting_destruction_still_count(fr_org):
    dice_pairs_cap_set(
        establishment=fr_org.est, max_pairs=2, reference="DM 2026-12", actor=fr_org["directeur_responsable"]
    )
    fr_org.est.refresh_from_db()
    pairs = receive_fr(fr_org, 2)
    dice_withdraw(dice=list(pairs[0].dice.all()), reason="used", actor=fr_org["employe_responsable"])
    with pytest.raises(RuleViolation) as refused:
        receive_fr(fr_org, 1)
    assert refused.value.code == "DICE-14"


def test_dice_15_supplier_without_valid_approval_refused(fr_org):
    unapproved = supplier_register(
        establishment=fr_org.est, domain=DICE, name="Sans agrément", actor=fr_org["directeur_responsable"]
    )
    with pytest.raises(RuleViolation) as refused:
        purchase_order_issue(
            establishment=fr_org.est,
            domain=DICE,
            supplier=unapproved,
            carnet="21-001",
            lines=[{"category": "des", "quantity": 2}],
            actor=fr_org["directeur_responsable"],
        )
    assert refused.value.code == "DICE-15"
    order = fr_order(fr_org, 1)
    supplier = order.supplier
    supplier.approved_until = timezone.localdate() - datetime.timedelta(days=1)  # the approval has lapsed since
    supplier.save()
    with pytest.raises(RuleViolation) as refused:
        receive(fr_org, fr_inputs(fr_org, 1), order=order)
    assert refused.value.code == "DICE-15"


def test_dice_16_order_from_carnet_21_visaed_by_the_police(fr_org):
    supplier = fr_order(fr_org, 1).supplier
    with pytest.raises(RuleViolation) as refused:  # a carnet modèle 21 number is required
        purchase_order_issue(
            establishment=fr_org.est,
            domain=DICE,
            supplier=supplier,
            carnet="",
            lines=[{"category": "des", "quantity": 2}],
            actor=fr_org["directeur_responsable"],
        )
    assert refused.value.code == "DICE-16"
    with pytest.raises(RuleViolation) as refused:  # no gap in the numbering
        purchase_order_issue(
            establishment=fr_org.est,
            domain=DICE,
            supplier=supplier,
            carnet="21-001",
            number=5,
            lines=[{"category": "des", "quantity": 2}],
            actor=fr_org["directeur_responsable"],
        )
    assert refused.value.code == "DICE-16"
    order = purchase_order_issue(
        establishment=fr_org.est,
        domain=DICE,
        supplier=supplier,
        carnet="21-001",
        lines=[{"category": "des", "quantity": 2}],
        actor=fr_org["directeur_responsable"],
    )
    assert order.number == 2
    with pytest.raises(RuleViolation) as refused:
        purchase_order_send(order=order, domain=DICE, actor=fr_org["directeur_responsable"])
    assert refused.value.code == "DICE-16"
    with pytest.raises(RuleViolation) as refused:
        receive(fr_org, fr_inputs(fr_org, 1), order=order)
    assert refused.value.code == "DICE-16"
    assert PurchaseOrder.objects.get(pk=order.pk).status == PurchaseOrder.Status.ISSUED


def test_dice_17_receipt_copied_into_modele_19_dice_section(fr_org):
    order = fr_order(fr_org, 1)
    inputs = fr_inputs(fr_org, 1)
    with pytest.raises(RuleViolation) as refused:  # the colour is one of the fields copied
        receive(
            fr_org,
            [
                inputs[0],
                DieInput(
                    serial=inputs[1].serial,
                    sigle="CNI",
                    colour="",
                    side_mm=Decimal(22),
                    inspection=PASSED,
                    pair=inputs[1].pair,
                ),
            ],
            order=order,
        )
    assert refused.value.code == "DICE-17"
    dice = receive(fr_org, inputs, order=order)
    (entry,) = records(fr_org.registers["carnet_19"])
    assert fr_org.registers["carnet_19"].qualifier == "des"
    assert entry["movement"] == "IN" and entry["order"] == str(order)
    assert entry["details"] == [f"{d.serial} / CNI / {d.colour} — Paire n° 1" for d in dice]
    assert entry["flags"] == []  # received = ordered
    assert book_stock(DICE, fr_org.est) == {"des": 2}


def test_dice_18_dice_only_in_the_card_cabinet(fr_org):
    coffre = LocationFactory(establishment=fr_org.est, kind="coffre", name="Coffre")
    with pytest.raises(RuleViolation) as refused:
        dice_receive(
            establishment=fr_org.est,
            location=coffre,
            dice=fr_inputs(fr_org, 1),
            actor=fr_org["employe_responsable"],
            order=fr_order(fr_org, 1),
        )
    assert refused.value.code == "DICE-18"


def test_dice_19_destruction_only_before_a_police_officer_who_checks_and_visas(fr_org):
    pairs = receive_fr(fr_org, 1)
    dice = dice_withdraw(dice=list(pairs[0].dice.all()), reason="used", actor=fr_org["employe_responsable"])
    with pytest.raises(RuleViolation) as refused:
        dice_destruction_plan(
            establishment=fr_org.est,
            dice=dice,
            planned_at=timezone.now(),
            actor=fr_org["directeur_responsable"],
            method=DestructionSession.Method.NEUTRALISATION,
        )
    assert refused.value.code == "DICE-19"
    session = dice_destruction_plan(
        establishment=fr_org.est, dice=dice, planned_at=timezone.now(), actor=fr_org["directeur_responsable"]
    )
    with pytest.raises(RuleViolation) as refused:  # the check for loaded / tampered dice is recorded
        dice_destruction_complete(session=session, actor=fr_org["directeur_responsable"], witness=fr_org["police"])
    assert refused.value.code == "DICE-19"
    with pytest.raises(RuleViolation) as refused:  # before a police officer
        dice_destruction_complete(session=session, actor=fr_org["directeur_responsable"], loaded=False, tampered=False)
    assert refused.value.code == "DICE-19"
    dice_destruction_complete(
        session=session,
        actor=fr_org["directeur_responsable"],
        witness=fr_org["police"],
        loaded=False,
        tampered=False,
        police_service="DTPJ Nice, section des courses et jeux",
    )
    carnet = fr_org.registers["carnet_19"]
    out = carnet.entries.filter(kind="record").order_by("-seq").first()
    visa = carnet.entries.order_by("-seq").first()
    assert out.payload["movement"] == "OUT" and out.payload["checks"]["loaded"] is False
    assert out.payload["checks"]["police_service"].startswith("DTPJ")
    assert visa.kind == "visa" and visa.role == "police" and visa.payload["covers_seq"] == out.seq
    assert set(Die.objects.values_list("status", flat=True)) == {ItemStatus.DESTROYED}
    assert verify_register(carnet) is None


def test_dice_19_loaded_die_is_not_destroyed_and_opens_an_incident(fr_org):
    pairs = receive_fr(fr_org, 1)
    dice = dice_withdraw(dice=list(pairs[0].dice.all()), reason="damaged", actor=fr_org["employe_responsable"])
    session = dice_destruction_plan(
        establishment=fr_org.est, dice=dice, planned_at=timezone.now(), actor=fr_org["directeur_responsable"]
    )
    result = dice_destruction_complete(
        session=session, actor=fr_org["directeur_responsable"], witness=fr_org["police"], loaded=True, tampered=False
    )
    assert result.status == DestructionSession.Status.PLANNED
    assert all(has_open_incident(d) for d in dice)
    assert not Die.objects.filter(status=ItemStatus.DESTROYED).exists()
    with pytest.raises(RuleViolation) as refused:  # quarantined until the incident is closed
        dice_destruction_complete(
            session=session,
            actor=fr_org["directeur_responsable"],
            witness=fr_org["police"],
            loaded=False,
            tampered=False,
        )
    assert refused.value.code == "INC-09"


# --- allocation and service ----------------------------------------------------------------------


def test_dice_20_exactly_two_pairs_none_from_the_previous_seance(fr_org):
    pairs = receive_fr(fr_org, 4)
    with pytest.raises(RuleViolation) as refused:
        allocate_fr(fr_org, fr_org.session(fr_org.seance(days_ago=2)), pairs[:3])
    assert refused.value.code == "DICE-20"
    play_seance(fr_org, pairs[:2], days_ago=2)
    # The next séance of the casino, at another table: SET-13 "any_table" (default) refuses.
    session = fr_org.session(fr_org.seance(days_ago=1), table=fr_org.other_table)
    with pytest.raises(RuleViolation) as refused:
        allocate_fr(fr_org, session, [pairs[1], pairs[2]])
    assert refused.value.code == "DICE-20" and "précédente séance" in str(refused.value)
    allocate_fr(fr_org, session, pairs[2:])
    # The séance after that, the first pairs are allowed again (reuse of dice in perfect condition).
    later = fr_org.session(fr_org.seance(days_ago=0), table=fr_org.table)
    assert allocate_fr(fr_org, later, pairs[:2]).lines.count() == 4


def test_dice_20_same_table_scope_allows_another_table(fr_org):
    fr_org.est.options = {**fr_org.est.options, "SET-13": "same_table"}
    fr_org.est.save()
    pairs = receive_fr(fr_org, 2)
    play_seance(fr_org, pairs, days_ago=1)
    other = fr_org.session(fr_org.seance(days_ago=0), table=fr_org.other_table)
    assert allocate_fr(fr_org, other, pairs).table_session == other
    same = fr_org.session(other.seance, table=fr_org.table)
    with pytest.raises(RuleViolation):  # and they are in service at the other table now
        allocate_fr(fr_org, same, pairs)


def test_dice_20_damaged_or_withdrawn_dice_refused(fr_org):
    pairs = receive_fr(fr_org, 3)
    dice_withdraw(dice=[pairs[0].dice.first()], reason="damaged", actor=fr_org["employe_responsable"])
    with pytest.raises(RuleViolation) as refused:
        allocate_fr(fr_org, fr_org.session(), pairs[:2])
    assert refused.value.code == "DICE-20" and "abîmé" in str(refused.value)


def test_dice_21_one_pair_in_play_one_in_reserve_no_third_pair_without_signed_allocation(fr_org):
    pairs = receive_fr(fr_org, 3)
    session = fr_org.session()
    allocate_fr(fr_org, session, pairs[:2])
    roles = dict(Die.objects.filter(table_session=session).values_list("pair__number", "play_role").distinct())
    assert roles == {pairs[0].number: PlayRole.IN_PLAY, pairs[1].number: PlayRole.RESERVE}
    open_table(fr_org, session)
    with pytest.raises(RuleViolation) as refused:  # the third pair was never allocated to the table
        dice_swap(session=session, brought_in=list(pairs[2].dice.all()), reason="shooter", actor=fr_org["chef_table"])
    assert refused.value.code == "DICE-21"
    with pytest.raises(RuleViolation) as refused:  # the reserve pair is still there
        dice_allocate(
            session=session, pairs=[pairs[2]], actor=fr_org["chef_table"], signer=fr_org["comite"], supplementary=True
        )
    assert refused.value.code == "DICE-21"
    in_play = list(pairs[0].dice.all())
    dice_swap(
        session=session,
        brought_in=list(pairs[1].dice.all()),
        reason="damaged",
        damaged=in_play[:1],
        actor=fr_org["chef_table"],
    )
    extra = dice_allocate(
        session=session, pairs=[pairs[2]], actor=fr_org["chef_table"], signer=fr_org["comite"], supplementary=True
    )
    assert {line.role for line in extra.lines.all()} == {PlayRole.RESERVE}


def test_dice_22_reg_08_special_register_entry_has_every_field(fr_org):
    pairs = receive_fr(fr_org, 2)
    seance = fr_org.seance()
    allocate_fr(fr_org, fr_org.session(seance), pairs)
    entry = records(fr_org.registers["rampo_special"])[0]
    assert entry["date"] == seance.date.isoformat() and entry["seance"] == "Soirée"
    assert entry["table"] == "RP1" and len(entry["time"]) == 5
    assert len(entry["dice"]) == 4
    for line, die in zip(entry["dice"], Die.objects.order_by("pair__number", "serial"), strict=True):
        assert line.startswith(f"{die.serial} / CNI / {die.colour}")
    assert [d["role"] for d in entry["allocation"]["dice"]] == ["in_play", "in_play", "reserve", "reserve"]


def test_dice_23_allocation_signed_by_the_directeur_responsable_or_a_comite_member(fr_org):
    pairs = receive_fr(fr_org, 2)
    session = fr_org.session()
    with pytest.raises(RuleViolation) as refused:
        dice_allocate(session=session, pairs=pairs, actor=fr_org["chef_table"], signer=fr_org["chef_table"])
    assert refused.value.code == "DICE-23"
    with pytest.raises(RuleViolation) as refused:
        open_table(fr_org, session)
    assert refused.value.code == "DICE-23"
    allocation = dice_allocate(session=session, pairs=pairs, actor=fr_org["chef_table"], signer=fr_org["comite"])
    assert allocation.signed_role == "comite"
    assert records(fr_org.registers["rampo_special"])[0]["signatures"] == [
        "Comite Test — Membre du comité de direction"
    ]
    open_table(fr_org, session)


def test_dice_24_micrometer_square_and_balance_results_for_each_die(fr_org):
    pairs = receive_fr(fr_org, 2)
    session = fr_org.session()
    allocate_fr(fr_org, session, pairs)
    open_table(fr_org, session)
    dice = list(Die.objects.filter(table_session=session).order_by("serial"))
    with pytest.raises(RuleViolation) as refused:  # no balancing-caliper result for one die
        end_check(fr_org, session, [*results_ok(dice[:3]), DieResult(die=dice[3], micrometer="22", square_ok=True)])
    assert refused.value.code == "DICE-24"
    with pytest.raises(RuleViolation) as refused:  # the instruments are named
        dice_end_check(
            session=session,
            results=results_ok(dice),
            actor=fr_org["directeur_responsable"],
            cosigner=fr_org["chef_table"],
            return_to=fr_org.depot,
            instruments={"micrometer": "MIC-01"},
        )
    assert refused.value.code == "DICE-24"
    results = [DieResult(die=dice[0], micrometer="22.0", square_ok=True, balance_ok=False), *results_ok(dice[1:])]
    check = end_check(fr_org, session, results)
    assert [r["serial"] for r in check.failures] == [dice[0].serial]
    assert check.incident.requirement == "INC-09" and has_open_incident(dice[0])
    statuses = dict(Die.objects.values_list("serial", "status"))
    assert statuses[dice[0].serial] == ItemStatus.DAMAGED
    assert {statuses[d.serial] for d in dice[1:]} == {ItemStatus.IN_STOCK}  # back in the cabinet, reusable
    assert check.instruments == INSTRUMENTS


def test_dice_25_closing_refused_without_both_signatures(fr_org):
    pairs = receive_fr(fr_org, 2)
    session = fr_org.session()
    allocate_fr(fr_org, session, pairs)
    open_table(fr_org, session)
    with pytest.raises(RuleViolation) as refused:
        table_session_close(session=session, actor=fr_org["directeur_responsable"])
    assert refused.value.code == "DICE-25"
    dice = list(Die.objects.filter(table_session=session))
    for cosigner in (None, fr_org["comite"]):
        with pytest.raises(RuleViolation) as refused:
            dice_end_check(
                session=session,
                results=results_ok(dice),
                actor=fr_org["directeur_responsable"],
                cosigner=cosigner,
                return_to=fr_org.depot,
                instruments=INSTRUMENTS,
            )
        assert refused.value.code == "DICE-25"
    with pytest.raises(RuleViolation) as refused:  # the chef de table alone does not sign for the direction
        dice_end_check(
            session=session,
            results=results_ok(dice),
            actor=fr_org["chef_table"],
            cosigner=fr_org["chef_table"],
            return_to=fr_org.depot,
            instruments=INSTRUMENTS,
        )
    assert refused.value.code == "DICE-25"
    end_check(fr_org, session)
    entry = records(fr_org.registers["rampo_special"])[-1]
    assert entry["signatures"] == [
        "Directeur_responsable Test — Directeur responsable",
        "Chef_table Test — Chef de table",
    ]
    table_session_close(session=session, actor=fr_org["directeur_responsable"])


def test_reg_08_rampo_special_register_end_check_line_carries_every_column_and_prints(fr_org):
    seance = fr_org.seance()
    session = fr_org.session(seance)
    allocate_fr(fr_org, session, receive_fr(fr_org, 2))
    open_table(fr_org, session)
    dice = list(Die.objects.filter(table_session=session).order_by("pair__number", "serial"))
    dice_end_check(
        session=session,
        results=results_ok(dice),
        actor=fr_org["comite"],
        cosigner=fr_org["chef_table"],
        return_to=fr_org.depot,
        instruments=INSTRUMENTS,
        observations="Dés rangés à l'armoire",
    )
    register = fr_org.registers["rampo_special"]
    allocation, check = records(register)
    for line in (allocation, check):  # date, séance, table, time
        assert (line["date"], line["seance"], line["table"]) == (seance.date.isoformat(), "Soirée", "RP1")
        assert len(line["time"]) == 5
    # DICE-24: each of the four dice with its micrometer, square and balance results; the instruments.
    assert len(check["dice"]) == 4
    for line, die in zip(check["dice"], dice, strict=True):
        assert line.startswith(f"{die.serial} / CNI / {die.colour} : 22.01 mm")
    assert check["detail"] == "micromètre MIC-01, équerre EQ-01, balancing caliper BC-01"
    # DICE-25: the names and signatures of the comité member and the chef de table, the observations.
    assert check["signatures"] == ["Comite Test — Membre du comité de direction", "Chef_table Test — Chef de table"]
    assert check["observations"] == "Dés rangés à l'armoire"
    text = "".join(printed(register).split())
    for value in (dice[0].serial, "MIC-01", "BC-01", "Chef_table Test", "Comite Test", "Dés rangés à l'armoire"):
        assert "".join(value.split()) in text


def test_dice_26_only_the_reserve_pair_comes_into_play(fr_org):
    pairs = receive_fr(fr_org, 2)
    session = fr_org.session()
    allocate_fr(fr_org, session, pairs)
    open_table(fr_org, session)
    in_play, reserve = list(pairs[0].dice.all()), list(pairs[1].dice.all())
    with pytest.raises(RuleViolation) as refused:  # the pair in play is not a replacement
        dice_swap(session=session, brought_in=in_play, reason="shooter", actor=fr_org["chef_table"])
    assert refused.value.code == "DICE-26"
    swap = dice_swap(
        session=session, brought_in=reserve, reason="shooter", during_rampo_attempt=True, actor=fr_org["chef_table"]
    )
    assert swap.withdrawn == [d.serial for d in in_play]
    entry = records(fr_org.registers["rampo_special"])[-1]
    assert entry["flags"][0]["code"] == "DICE-26"  # a swap during a rampo attempt is reported
    roles = dict(Die.objects.values_list("serial", "play_role"))
    assert {roles[d.serial] for d in reserve} == {PlayRole.IN_PLAY}
    assert {roles[d.serial] for d in in_play} == {PlayRole.RESERVE}
    # A broken die makes its pair unusable: it is set to damaged; the pair leaves play.
    dice_swap(session=session, brought_in=in_play, reason="damaged", damaged=reserve[:1], actor=fr_org["chef_table"])
    broken = Die.objects.get(pk=reserve[0].pk)
    assert broken.status == ItemStatus.DAMAGED and broken.play_role == PlayRole.WITHDRAWN
    assert has_open_incident(broken)
