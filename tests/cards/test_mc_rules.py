"""Monaco card rules (AM 88-384 art. 1): one test per CARD-01..23 check."""

import datetime

import pytest
from django.core.exceptions import PermissionDenied
from django.utils import timezone

from ledgers.cards import selectors, services
from ledgers.cards.domains import CARDS
from ledgers.cards.models import CardEvent, CardUnit
from ledgers.core.errors import RuleViolation
from ledgers.core.services import table_session_close, table_session_open
from ledgers.custody import services as custody
from ledgers.custody.models import DepotDay, ItemStatus
from ledgers.custody.selectors import book_stock
from ledgers.incidents.models import Incident
from ledgers.incidents.selectors import has_open_incident
from ledgers.registers.models import Register
from ledgers.registers.verification import verify_register
from tests.cards.conftest import World
from tests.cards.conftest import refused as _refused
from tests.cash.test_e2e import printed
from tests.factories import notice_aged


def test_card_01_cards_are_refused_to_a_game_without_cards(mcw: World):
    (sixain,) = mcw.receive()
    _refused("CARD-01", mcw.issue, mcw.session("roulette"), sixain)
    sixain.refresh_from_db()
    assert sixain.status == ItemStatus.IN_STOCK and sixain.table_session is None


def test_card_02_sixain_needs_exactly_six_numbered_decks(mcw: World):
    spec = mcw.spec()
    short = type(spec)(unit_type="sixain", serial="S-SHORT", decks=spec.decks[:5])
    _refused("CARD-02", mcw.receive, short)
    (huitain,) = mcw.receive(mcw.spec("huitain"))
    assert huitain.members.count() == 8 and huitain.category == "huitain"
    assert not CardUnit.objects.filter(serial="S-SHORT").exists()


def test_card_02_duplicate_serial_of_a_manufacturer_refused(mcw: World):
    mcw.receive(mcw.spec(serial="S-DUP"))
    error = _refused("CARD-02", mcw.receive, mcw.spec(serial="S-DUP"))
    assert "S-DUP" in str(error)


def test_card_02_unnumbered_sixain_gets_an_internal_number_and_is_flagged(mcw: World):
    (unit,) = mcw.receive(mcw.spec(serial="", unnumbered=True))
    assert unit.internal_serial and unit.serial.startswith("INT-")
    codes = {f.code for f in selectors.exceptions(mcw.est)}
    assert "CARD-02" in codes


def test_card_03_receipt_is_written_by_the_cartier(mcw: World):
    with pytest.raises(PermissionDenied):
        services.cards_receive(
            establishment=mcw.est, location=mcw.depot, supplier=mcw.supplier, units=[mcw.spec()], actor=mcw.director
        )
    _refused("CARD-03", mcw.receive, mcw.spec(serial=" "))


def test_card_03_receipt_without_purchase_order_is_flagged(mcw: World):
    mcw.receive(mcw.spec())
    entry = mcw.registers["sixain"].entries.order_by("-seq").first()
    assert entry.payload["flags"][0]["code"] == "CARD-03"
    assert any(f.code == "CARD-03" for f in selectors.exceptions(mcw.est))


def test_card_04_in_entries_per_category_in_a_paraphed_volume(mcw: World):
    order = mcw.order((("sixain", 1), ("jeu", 2)))
    mcw.receive(mcw.spec(), mcw.spec("jeu"), mcw.spec("jeu"), order=order)
    assert book_stock(CARDS, mcw.est) == {"sixain": 1, "jeu": 2}
    jeu = mcw.registers["jeu"].entries.order_by("-seq").first().payload
    assert jeu["movement"] == "IN" and jeu["quantity"] == 2 and jeu["order"] == str(order)
    assert selectors.stock_statement(mcw.est).balanced
    # a category whose volume is not coted and paraphed: nothing is recorded
    Register.objects.filter(pk=mcw.registers["huitain"].pk).update(status=Register.Status.AWAITING_OPENING)
    _refused("REG-01", mcw.receive, mcw.spec("huitain"))
    assert book_stock(CARDS, mcw.est) == {"sixain": 1, "jeu": 2}


def test_card_04_book_stock_differing_from_located_units_is_flagged(mcw: World):
    (unit,) = mcw.receive()
    # a sixain that left the depot without its OUT entry (the services never do this: it is what
    # the statement exists to reveal)
    CardUnit.objects.filter(pk=unit.pk).update(status=ItemStatus.DESTROYED)
    statement = selectors.stock_statement(mcw.est)
    assert not statement.balanced
    assert any(f.code == "CARD-04" for f in selectors.exceptions(mcw.est))


def test_reg_03_annex_ledger_transfer_and_day_lines_carry_every_column_and_print(mcw: World):
    (a,) = mcw.receive(mcw.spec())
    custody.items_transfer(domain=CARDS, items=[a], to_location=mcw.annex, actor=mcw.cartier, received_by="M. X")
    today = timezone.localdate()
    custody.depot_day_close(domain=CARDS, establishment=mcw.est, date=today, actor=mcw.cartier)
    register = mcw.registers["annexe"]
    lines = [e.payload for e in register.entries.filter(kind="record").order_by("seq")]
    transfer = next(line for line in lines if line["movement"] == "TRANSFER")
    # CARD-05: date, unit IDs, from, to, handed over by, received by (the time is the line's).
    assert (transfer["date"], transfer["from"], transfer["to"]) == (today.isoformat(), mcw.depot.name, mcw.annex.name)
    assert transfer["serials"] == [a.serial] and transfer["quantities"] == ["sixain × 1"]
    assert (transfer["handed_over_by"], transfer["received_by"]) == (mcw.cartier.get_full_name(), "M. X")
    # The day of each depot: opening stock, transfers in and out, closing stock per category.
    annex = next(line for line in lines if line["movement"] == "DAY_CLOSE" and line["depot"] == mcw.annex.name)
    assert (annex["date"], annex["opening"], annex["in"], annex["out"]) == (today.isoformat(), {}, {"sixain": 1}, {})
    assert annex["closing"] == {"sixain": 1}
    assert annex["quantities"] == ["sixain : ouverture 0, entrées 1, sorties 0, clôture 1"]
    text = "".join(printed(register).split())
    for value in (a.serial, mcw.annex.name, "M. X", "sixain : ouverture 0, entrées 1, sorties 0, clôture 1"):
        assert "".join(value.split()) in text


def test_card_05_reg_03_transfers_go_to_the_annex_ledger_and_negative_stock_is_refused(mcw: World):
    (a, b) = mcw.receive(mcw.spec(), mcw.spec())
    custody.items_transfer(domain=CARDS, items=[a], to_location=mcw.annex, actor=mcw.cartier, received_by="M. X")
    entry = mcw.registers["annexe"].entries.order_by("-seq").first().payload
    assert entry["movement"] == "TRANSFER" and entry["to"] == mcw.annex.name and entry["serials"] == [a.serial]
    # a and b no longer share an origin: one transfer has one origin and one destination
    _refused("CARD-05", custody.items_transfer, domain=CARDS, items=[a, b], to_location=mcw.dcc, actor=mcw.cartier)
    days = custody.depot_day_close(domain=CARDS, establishment=mcw.est, date=timezone.localdate(), actor=mcw.cartier)
    by_depot = {d.location_id: d for d in days}
    assert by_depot[mcw.annex.pk].closing == {"sixain": 1} and by_depot[mcw.annex.pk].transfers_in == {"sixain": 1}
    assert by_depot[mcw.depot.pk].transfers_out == {"sixain": 1}
    assert verify_register(mcw.registers["annexe"]) is None


def test_reg_03_annex_ledger_paraphed_by_the_commissaire_where_set_26_asks_for_it(mcw: World):
    """The text does not ask for the annex ledger to be coté et paraphé; an operator whose SET-26 asks
    for it writes there only in a volume the Commissaire du Gouvernement opened."""
    from ledgers.registers.services import register_close, register_create, register_open
    from tests.factories import make_user

    (a,) = mcw.receive()
    mcw.est.options = {**mcw.est.options, "SET-26": {"annex_ledger_paraphe": True, "dice_service_paraphe": True}}
    mcw.est.save()
    _refused("REG-03", custody.items_transfer, domain=CARDS, items=[a], to_location=mcw.annex, actor=mcw.cartier)
    a.refresh_from_db()
    assert a.location == mcw.depot
    register_close(register=mcw.registers["annexe"], actor=mcw.director)
    volume = register_create(establishment=mcw.est, kind="comptabilite_annexe", actor=mcw.director, qualifier="cards")
    register_open(register=volume, actor=make_user(mcw.est, "commissaire"), paraphe="CG")
    custody.items_transfer(domain=CARDS, items=[a], to_location=mcw.annex, actor=mcw.cartier, received_by="M. X")
    assert volume.entries.filter(kind="record").count() == 1


def test_card_05_depot_day_not_closed_before_the_next_seance_is_flagged(mcw: World):
    (a,) = mcw.receive()
    custody.items_transfer(domain=CARDS, items=[a], to_location=mcw.annex, actor=mcw.cartier)
    assert not any(f.code == "CARD-05" for f in selectors.exceptions(mcw.est))
    tomorrow = mcw.seance.date + datetime.timedelta(days=1)
    from ledgers.core.services import seance_open

    seance_open(establishment=mcw.est, date=tomorrow, period="soiree", actor=mcw.director)
    assert any(f.code == "CARD-05" for f in selectors.exceptions(mcw.est))
    custody.depot_day_close(domain=CARDS, establishment=mcw.est, date=timezone.localdate(), actor=mcw.cartier)
    assert not any(f.code == "CARD-05" for f in selectors.exceptions(mcw.est))
    assert DepotDay.objects.filter(location=mcw.annex).count() == 1


def test_card_06_inc_11_scj_verifies_at_any_time_visas_and_a_discrepancy_opens_an_incident(mcw: World):
    (_a, _b) = mcw.receive(mcw.spec(), mcw.spec())
    ok = custody.stock_verification_record(domain=CARDS, establishment=mcw.est, counted={}, actor=mcw.scj)
    assert not ok.discrepancy and ok.incident is None
    register = Register.objects.get(pk=mcw.registers["sixain"].pk)
    assert register.entries.order_by("-seq").first().kind == "visa"
    counted = {(mcw.depot.pk, "sixain"): 1}
    ko = custody.stock_verification_record(domain=CARDS, establishment=mcw.est, counted=counted, actor=mcw.scj)
    assert ko.discrepancy and ko.incident.requirement == "INC-11"


def test_card_07_received_quantity_differing_from_the_order_is_flagged(mcw: World):
    order = mcw.order((("sixain", 3),), visa=False)
    mcw.receive(mcw.spec(), order=order)
    payload = mcw.registers["sixain"].entries.order_by("-seq").first().payload
    assert {"CARD-07"} == {f["code"] for f in payload["flags"]}


def test_card_07_order_still_without_visa_after_a_verification_is_flagged(mcw: World):
    order = mcw.order(visa=False)
    custody.stock_verification_record(domain=CARDS, establishment=mcw.est, counted={}, actor=mcw.scj)
    assert any(f.code == "CARD-07" and str(order) in f.text for f in selectors.exceptions(mcw.est))
    custody.purchase_order_visa(order=order, actor=mcw.scj)
    custody.stock_verification_record(domain=CARDS, establishment=mcw.est, counted={}, actor=mcw.scj)
    assert not any(f.code == "CARD-07" for f in selectors.exceptions(mcw.est))


def test_card_07_order_numbers_run_without_gaps(mcw: World):
    mcw.order()
    _refused(
        "CARD-07",
        custody.purchase_order_issue,
        establishment=mcw.est,
        domain=CARDS,
        supplier=mcw.supplier,
        actor=mcw.director,
        lines=[{"category": "sixain", "quantity": 1}],
        number=5,
    )


def test_card_08_cards_are_kept_only_in_card_depots(mcw: World):
    from tests.factories import LocationFactory

    vault = LocationFactory(establishment=mcw.est, code="coffre", name="Coffre", kind="coffre")
    _refused("CARD-08", mcw.receive, mcw.spec(), location=vault)
    (unit,) = mcw.receive()
    session = mcw.session()
    mcw.issue(session, unit)
    _refused(
        "CARD-08",
        services.cards_return,
        units=[unit],
        to_location=vault,
        actor=mcw.cartier,
        returned_by="X",
        inspecteur=mcw.inspecteur,
    )


def _planned(w: World, *units):
    session = services.cards_destruction_plan(
        establishment=w.est, units=list(units), method="destruction", planned_at=timezone.now(), actor=w.director
    )
    if w.mc:
        custody.destruction_notify(session=session, channel="email", reference="courriel au SCJ", actor=w.director)
        notice_aged(session)
    return session


def test_card_09_incomplete_unit_is_destroyed_only_with_a_closed_anomaly_incident(mcw: World):
    (unit,) = mcw.receive()
    incident = services.cards_anomaly_report(
        units=[unit], anomaly="missing", cards="As de pique", circumstances="constaté à l'inventaire", actor=mcw.cartier
    )
    services.cards_withdraw(units=[unit], status="out_of_use", reason="jeu incomplet", actor=mcw.cartier)
    session = _planned(mcw, unit)
    _refused("CARD-19", services.cards_destruction_complete, session=session, actor=mcw.director)
    from ledgers.incidents.services import incident_close, incident_decide, incident_notify

    incident_decide(incident=incident, decision="Sixain détruit après examen", actor=mcw.director)
    for role in ("inspecteur", "directeur_jeux", "scj"):
        incident_notify(
            incident=incident,
            recipient_role=role,
            recipient_name=role,
            channel="phone",
            notified_at=timezone.now(),
            actor=mcw.director,
        )
    incident_close(incident=incident, actor=mcw.director)
    services.cards_destruction_complete(session=session, actor=mcw.director)
    unit.refresh_from_db()
    assert unit.status == ItemStatus.DESTROYED


def test_card_09_incomplete_unit_without_incident_cannot_be_destroyed(mcw: World):
    (unit,) = mcw.receive()
    mcw.open_table("blackjack", unit)
    mcw.give_back(unit, to=mcw.depot)
    unit.refresh_from_db()
    services.cards_post_control(unit=unit, actor=mcw.cartier, complete=False, order_restored=True, marks_found=False)
    incident = Incident.objects.get(subjects__object_id=unit.pk)
    from ledgers.incidents.services import incident_close, incident_decide, incident_notify

    incident_decide(incident=incident, decision="Carte retrouvée sous la table, jeu retiré", actor=mcw.director)
    for role in ("inspecteur", "directeur_jeux", "scj"):
        incident_notify(
            incident=incident,
            recipient_role=role,
            recipient_name=role,
            channel="phone",
            notified_at=timezone.now(),
            actor=mcw.director,
        )
    incident_close(incident=incident, actor=mcw.director)
    assert any(f.code == "CARD-09" for f in selectors.exceptions(mcw.est))
    session = _planned(mcw, unit)
    services.cards_destruction_complete(session=session, actor=mcw.director)  # accounted for by the closed incident
    (other,) = mcw.receive()
    # a deck found incomplete with no anomaly ever reported (a state the services never produce):
    # the destruction check holds on its own
    CardUnit.objects.filter(pk=other.pk).update(complete=False, status=ItemStatus.OUT_OF_USE)
    session = _planned(mcw, other)
    _refused("CARD-09", services.cards_destruction_complete, session=session, actor=mcw.director)


def test_card_10_out_of_use_stock_older_than_the_period_is_flagged(mcw: World):
    (unit,) = mcw.receive()
    services.cards_withdraw(units=[unit], status="out_of_use", reason="usé", actor=mcw.cartier)
    assert not any(f.code == "CARD-10" for f in selectors.exceptions(mcw.est))
    CardUnit.objects.filter(pk=unit.pk).update(withdrawn_at=timezone.now() - datetime.timedelta(days=45))
    assert any(f.code == "CARD-10" for f in selectors.exceptions(mcw.est))


def test_card_11_destruction_without_prior_scj_notice_refused(mcw: World):
    (unit,) = mcw.receive()
    services.cards_withdraw(units=[unit], status="damaged", reason="cartes abîmées", actor=mcw.cartier)
    session = services.cards_destruction_plan(
        establishment=mcw.est, units=[unit], method="neutralisation", planned_at=timezone.now(), actor=mcw.director
    )
    _refused("CARD-11", services.cards_destruction_complete, session=session, actor=mcw.director)
    mcw.est.options = {"SET-05": {"scj_notice_minutes": 60}}
    mcw.est.save()
    before = timezone.now()
    custody.destruction_notify(session=session, channel="email", reference="courriel", actor=mcw.director)
    session.refresh_from_db()
    assert before <= session.notified_at <= timezone.now()  # the system's time, not a typed one
    with pytest.raises(RuleViolation):  # given once: a second notice would move its time
        custody.destruction_notify(session=session, channel="email", reference="encore", actor=mcw.director)
    notice_aged(session, 59)
    _refused("CARD-11", services.cards_destruction_complete, session=session, actor=mcw.director)
    unit.refresh_from_db()
    assert unit.status == ItemStatus.DAMAGED
    notice_aged(session, 1)
    services.cards_destruction_complete(session=session, actor=mcw.director)
    unit.refresh_from_db()
    assert unit.status == ItemStatus.NEUTRALISED


def test_card_11_monaco_minimum_notice_is_a_day_unless_the_operator_sets_another(mcw: World):
    (unit,) = mcw.receive()
    services.cards_withdraw(units=[unit], status="damaged", reason="cartes abîmées", actor=mcw.cartier)
    session = services.cards_destruction_plan(
        establishment=mcw.est, units=[unit], method="destruction", planned_at=timezone.now(), actor=mcw.director
    )
    custody.destruction_notify(session=session, channel="phone", reference="agent du SCJ", actor=mcw.director)
    notice_aged(session, 23 * 60)
    _refused("CARD-11", services.cards_destruction_complete, session=session, actor=mcw.director)
    notice_aged(session, 60)
    services.cards_destruction_complete(session=session, actor=mcw.director)


def test_card_11_destruction_held_to_the_start_the_scj_was_told_of(mcw: World):
    """Planned for the day after tomorrow and notified: the notice has run by tomorrow, yet the SCJ
    was told of the day after, and may attend then, not before."""
    (unit,) = mcw.receive()
    services.cards_withdraw(units=[unit], status="damaged", reason="cartes abîmées", actor=mcw.cartier)
    planned = timezone.now() + datetime.timedelta(days=2)
    session = services.cards_destruction_plan(
        establishment=mcw.est, units=[unit], method="destruction", planned_at=planned, actor=mcw.director
    )
    custody.destruction_notify(session=session, channel="phone", reference="agent du SCJ", actor=mcw.director)
    notice_aged(session, 24 * 60 + 1)  # tomorrow: the day of notice has run
    refusal = _refused("CARD-11", services.cards_destruction_complete, session=session, actor=mcw.director)
    assert mcw.est.localtime(planned).strftime("%d/%m/%Y %H:%M") in str(refusal)
    unit.refresh_from_db()
    assert unit.status == ItemStatus.DAMAGED


def test_card_11_no_setting_lowers_the_notice_below_the_floor(mcw: World):
    """The operator's notice cannot go below an hour: set lower, refused; a notice one minute old
    is not one the SCJ can act on, whatever was stored."""
    from django.core.exceptions import ValidationError

    from ledgers.core.services import establishment_setting_change

    with pytest.raises(ValidationError):
        establishment_setting_change(
            establishment=mcw.est, code="SET-05", value={"scj_notice_minutes": 1}, actor=mcw.director
        )
    mcw.est.refresh_from_db()
    assert mcw.est.setting("SET-05")["scj_notice_minutes"] == 24 * 60
    mcw.est.options = {"SET-05": {"scj_notice_minutes": 0}}  # a value stored before the floor existed
    mcw.est.save()
    (unit,) = mcw.receive()
    services.cards_withdraw(units=[unit], status="damaged", reason="cartes abîmées", actor=mcw.cartier)
    session = services.cards_destruction_plan(
        establishment=mcw.est, units=[unit], method="destruction", planned_at=timezone.now(), actor=mcw.director
    )
    custody.destruction_notify(session=session, channel="phone", reference="agent du SCJ", actor=mcw.director)
    notice_aged(session, 1)
    assert "60 min" in str(
        _refused("CARD-11", services.cards_destruction_complete, session=session, actor=mcw.director)
    )
    notice_aged(session, 59)
    services.cards_destruction_complete(session=session, actor=mcw.director)


def test_card_11_a_partial_set_05_override_keeps_the_day_of_notice(mcw: World):
    """The operator who sets only its destruction periodicity keeps the day of notice to the SCJ."""
    mcw.est.options = {"SET-05": {"destruction_period_days": 60}}
    mcw.est.save()
    assert mcw.est.setting("SET-05")["scj_notice_minutes"] == 24 * 60
    (unit,) = mcw.receive()
    services.cards_withdraw(units=[unit], status="damaged", reason="cartes abîmées", actor=mcw.cartier)
    session = services.cards_destruction_plan(
        establishment=mcw.est, units=[unit], method="destruction", planned_at=timezone.now(), actor=mcw.director
    )
    custody.destruction_notify(session=session, channel="phone", reference="agent du SCJ", actor=mcw.director)
    notice_aged(session, 60)
    _refused("CARD-11", services.cards_destruction_complete, session=session, actor=mcw.director)
    notice_aged(session, 23 * 60)
    services.cards_destruction_complete(session=session, actor=mcw.director)


def test_card_12_issue_to_closed_table_refused(mcw: World):
    (a, b) = mcw.receive(mcw.spec(), mcw.spec())
    mcw.open_table("blackjack", a)
    session = selectors.live_sessions(mcw.est).get()
    mcw.give_back(a)
    table_session_close(session=session, actor=mcw.director)
    _refused("CARD-12", mcw.issue, session, b)


def test_card_12_issue_long_before_the_table_opens_is_flagged(mcw: World):
    (a,) = mcw.receive()
    session = mcw.open_table("blackjack", a)
    assert not any(f.code == "CARD-12" for f in selectors.exceptions(mcw.est))
    # the table opened three hours after the cards left the depot
    type(session).objects.filter(pk=session.pk).update(opened_at=session.opened_at + datetime.timedelta(hours=3))
    assert any(f.code == "CARD-12" for f in selectors.exceptions(mcw.est))


def test_card_13_new_decks_are_unsealed_only_at_the_table(mcw: World):
    (a,) = mcw.receive()
    _refused("CARD-13", services.cards_unseal, unit=a, actor=mcw.croupier, seal_intact=True)
    session = mcw.session()
    mcw.issue(session, a)
    _refused("CARD-13", services.cards_table_control, unit=a, actor=mcw.croupier, complete=True, order_intact=True)
    services.cards_unseal(unit=a, actor=mcw.croupier, seal_intact=True)
    a.refresh_from_db()
    assert not a.is_new and not a.members.filter(is_new=True).exists()


def test_card_14_used_deck_needs_the_cartier_control_after_its_return(mcw: World):
    (a,) = mcw.receive()
    mcw.open_table("blackjack", a)
    mcw.give_back(a)
    a.refresh_from_db()
    assert a.status == ItemStatus.AWAITING_CONTROL
    later = mcw.new_seance(days_ago=-1)
    session = mcw.session("blackjack", seance=later)
    _refused("CARD-14", mcw.issue, session, a)
    services.cards_post_control(unit=a, actor=mcw.cartier, complete=True, order_restored=True, marks_found=False)
    mcw.issue(session, a)
    a.refresh_from_db()
    assert a.table_session_id == session.pk


def test_card_14_marks_found_at_the_control_mark_the_unit_and_open_an_incident(mcw: World):
    (a,) = mcw.receive(location=mcw.annex)
    session = mcw.session()
    mcw.issue(session, a)
    mcw.ready(session, a)
    mcw.give_back(a, to=mcw.annex)
    services.cards_post_control(
        unit=a,
        actor=mcw.cartier,
        complete=True,
        order_restored=True,
        marks_found=True,
        marks_description="Traces d'ongle sur les as",
    )
    a.refresh_from_db()
    assert a.status == ItemStatus.MARKED and a.location == mcw.depot  # moved to the main depot (CARD-17)
    assert Incident.objects.get(subjects__object_id=a.pk).requirement == "INC-02"


def test_card_15_table_cannot_open_without_the_second_control(mcw: World):
    (a,) = mcw.receive()
    session = mcw.session()
    mcw.issue(session, a)
    services.cards_unseal(unit=a, actor=mcw.croupier, seal_intact=True)
    _refused("CARD-15", table_session_open, session=session, actor=mcw.director)
    services.cards_table_control(
        unit=a, actor=mcw.croupier, complete=True, order_intact=True, witnesses="M. Chef de table"
    )
    assert table_session_open(session=session, actor=mcw.director).status == "open"


def _exchange_setup(w: World):
    (table_sixain, spare) = w.receive(w.spec(), w.spec())
    services.cards_replacement_designate(seance=w.seance, room=w.room, unit=spare, actor=w.inspecteur)
    session = w.open_table("blackjack", table_sixain)
    return session, table_sixain, spare


def test_card_16_inc_03_damaged_card_is_exchanged_by_the_inspecteur_from_the_designated_sixain_only(mcw: World):
    (table_sixain, other) = mcw.receive(mcw.spec(), mcw.spec())
    session = mcw.open_table("blackjack", table_sixain)
    deck = table_sixain.members.first()
    _refused(
        "CARD-16",
        services.cards_exchange,
        table_unit=deck,
        replacement_unit=other.members.first(),
        card="Dame de cœur",
        croupier="M. C",
        shown_both_sides=True,
        actor=mcw.inspecteur,
    )
    (spare,) = mcw.receive()
    services.cards_replacement_designate(seance=mcw.seance, room=mcw.room, unit=spare, actor=mcw.inspecteur)
    _refused(
        "CARD-16",
        services.cards_exchange,
        table_unit=deck,
        replacement_unit=other.members.first(),
        card="Dame de cœur",
        croupier="M. C",
        shown_both_sides=True,
        actor=mcw.inspecteur,
    )
    with pytest.raises(PermissionDenied):
        services.cards_exchange(
            table_unit=deck,
            replacement_unit=spare.members.first(),
            card="Dame de cœur",
            croupier="M. C",
            shown_both_sides=True,
            actor=mcw.cartier,
        )
    exchange = services.cards_exchange(
        table_unit=deck,
        replacement_unit=spare.members.first(),
        card="Dame de cœur",
        croupier="M. C",
        shown_both_sides=True,
        actor=mcw.inspecteur,
    )
    deck.refresh_from_db()
    spare.refresh_from_db()
    assert deck.contains_exchanged_card and spare.contains_exchanged_card
    assert exchange.table_session == session


def test_card_16_unreconciled_exchange_is_flagged_at_the_post_seance_control(mcw: World):
    _session, table_sixain, spare = _exchange_setup(mcw)
    services.cards_exchange(
        table_unit=table_sixain.members.first(),
        replacement_unit=spare,
        card="Roi de trèfle",
        croupier="M. C",
        shown_both_sides=True,
        actor=mcw.inspecteur,
    )
    mcw.give_back(table_sixain)
    table_sixain.refresh_from_db()
    services.cards_post_control(
        unit=table_sixain, actor=mcw.cartier, complete=True, order_restored=True, marks_found=False
    )
    control = CardEvent.objects.get(kind="post_control", unit=table_sixain)
    assert control.flags[0]["code"] == "CARD-16"
    assert control.entry.payload["flags"] == [f"CARD-16 : {control.flags[0]['text']}"]
    assert any(f.code == "CARD-16" for f in selectors.exceptions(mcw.est))


def test_card_16_reconciliation_withdraws_the_replacement_sixain(mcw: World):
    _session, table_sixain, spare = _exchange_setup(mcw)
    exchange = services.cards_exchange(
        table_unit=table_sixain.members.first(),
        replacement_unit=spare,
        card="Roi de trèfle",
        croupier="M. C",
        shown_both_sides=True,
        actor=mcw.inspecteur,
    )
    services.cards_exchange_reconcile(
        exchange=exchange, actor=mcw.cartier, note="Carte détériorée replacée dans le sixain de remplacement"
    )
    spare.refresh_from_db()
    assert spare.status == ItemStatus.DAMAGED and spare.location == mcw.depot
    exchange.refresh_from_db()
    assert exchange.reconciled_by == mcw.cartier


def test_card_17_withdrawn_units_are_not_issued_and_stay_out_of_annex_depots(mcw: World):
    (a, b) = mcw.receive(mcw.spec(), mcw.spec(), location=mcw.annex)
    services.cards_withdraw(units=[a], status="out_of_use", reason="usé", actor=mcw.cartier)
    a.refresh_from_db()
    assert a.location == mcw.depot  # moved to the main depot, through the annex ledger
    _refused("CARD-17", mcw.issue, mcw.session("three_card_poker"), a.members.first())
    _refused("CARD-17", custody.items_transfer, domain=CARDS, items=[a], to_location=mcw.annex, actor=mcw.cartier)
    services.cards_anomaly_report(
        units=[b], anomaly="marked", cards="As de cœur", circumstances="contrôle", actor=mcw.cartier
    )
    b.refresh_from_db()
    assert b.status == ItemStatus.MARKED and b.location == mcw.depot
    session = _planned(mcw, b)
    _refused("CARD-17", services.cards_destruction_complete, session=session, actor=mcw.director)


def test_card_18_table_cannot_close_while_cards_are_out_and_return_needs_the_inspecteur(mcw: World):
    (a,) = mcw.receive()
    session = mcw.open_table("blackjack", a)
    _refused("CARD-18", table_session_close, session=session, actor=mcw.director)
    _refused(
        "CARD-18", services.cards_return, units=[a], to_location=mcw.depot, actor=mcw.cartier, returned_by="M. Croupier"
    )
    with pytest.raises(PermissionDenied):
        services.cards_return(
            units=[a], to_location=mcw.depot, actor=mcw.cartier, returned_by="M. Croupier", inspecteur=mcw.croupier
        )
    mcw.give_back(a)
    assert table_session_close(session=session, actor=mcw.director).status == "closed"
    entry = CardEvent.objects.get(kind="return", unit=a).entry
    assert mcw.inspecteur.get_full_name() in entry.payload["persons"]


def test_card_19_quarantined_unit_cannot_be_issued_until_the_incident_is_closed(mcw: World):
    (a,) = mcw.receive()
    services.cards_anomaly_report(
        units=[a], anomaly="foreign", cards="Valet au dos différent", circumstances="vu au déballage", actor=mcw.cartier
    )
    assert has_open_incident(a)
    _refused("CARD-19", mcw.issue, mcw.session(), a)


def _pae(w: World, unit, **overrides):
    fields = dict(
        units=[unit],
        actor=w.dcc_staff,
        checked_by="Mme Gastaud",
        shuffled_by="M. Roux",
        method="shuffler",
        shuffler="MD-12",
        video_camera="CAM-DCC-2",
        video_reference="2026-03-01 14:02",
    )
    fields.update(overrides)
    return services.cards_pae_prepare(**fields)


def test_card_20_pae_units_need_a_preparation_under_video_at_the_dcc(mcw: World):
    (at_dcc, elsewhere) = mcw.receive(mcw.spec(), location=mcw.dcc), mcw.receive(mcw.spec())[0]
    at_dcc = at_dcc[0]
    _refused("CARD-20", _pae, mcw, at_dcc, video_reference="")
    _refused("CARD-20", _pae, mcw, elsewhere)
    _pae(mcw, at_dcc)
    at_dcc.refresh_from_db()
    assert at_dcc.pae and not at_dcc.is_new
    prep = CardEvent.objects.get(kind="pae_preparation", unit=at_dcc)
    assert prep.details["video_reference"] and prep.entry.payload["persons"].count("par") == 2


def test_card_21_pae_units_only_at_super_prive_punto_banco_tables_when_restrictive(mcw: World):
    (unit,) = mcw.receive(mcw.spec(), location=mcw.dcc)
    _pae(mcw, unit)
    _refused("CARD-21", mcw.issue, mcw.session("punto_banco"), unit)
    mcw.est.options = {"SET-02": {"punto_banco": 6}}
    mcw.est.save()
    mcw.issue(mcw.session("super_prive"), unit)


def test_card_21_general_pae_scope_allows_other_games(mcw: World):
    mcw.est.options = {"SET-04": "general"}
    mcw.est.save()
    (unit,) = mcw.receive(mcw.spec(), location=mcw.dcc)
    _pae(mcw, unit)
    mcw.issue(mcw.session("blackjack"), unit)


def test_card_22_pae_second_mix_confirmed_before_the_table_opens(mcw: World):
    mcw.est.options = {"SET-02": {"punto_banco": 6}}
    mcw.est.save()
    (unit,) = mcw.receive(mcw.spec(), location=mcw.dcc)
    _pae(mcw, unit)
    session = mcw.session("super_prive")
    mcw.issue(session, unit)
    _refused("CARD-22", table_session_open, session=session, actor=mcw.director)
    services.cards_pae_confirm(unit=unit, actor=mcw.croupier, shuffler="MD-12")
    assert table_session_open(session=session, actor=mcw.director).status == "open"


def test_card_23_new_shuffle_mid_taille_needs_a_reason(mcw: World):
    (a,) = mcw.receive()
    session = mcw.open_table("blackjack", a)
    _refused("CARD-23", services.cards_reshuffle_order, table_session=session, reason=" ", actor=mcw.director)
    event = services.cards_reshuffle_order(
        table_session=session, reason="Sécurité du jeu : joueur unique contestant", actor=mcw.director
    )
    assert event.entry.payload["result"].startswith("Sécurité")


def test_register_entries_verify_after_a_seance(mcw: World):
    (a, _b) = mcw.receive(mcw.spec(), mcw.spec())
    session = mcw.open_table("blackjack", a)
    mcw.give_back(a)
    table_session_close(session=session, actor=mcw.director)
    services.cards_post_control(
        unit=CardUnit.objects.get(pk=a.pk), actor=mcw.cartier, complete=True, order_restored=True, marks_found=False
    )
    for register in Register.objects.filter(establishment=mcw.est):
        assert verify_register(register) is None, register
    service = mcw.registers["service"]
    operations = list(service.entries.filter(kind="record").order_by("seq").values_list("payload__kind", flat=True))
    assert operations == ["issue", "unsealing", "second_control", "return", "post_control"]


def test_card_11_scj_told_of_a_destruction_by_mail_and_informed_once_acknowledged(
    mcw: World, smtp, django_capture_on_commit_callbacks
):
    from ledgers.notifications.models import Notice
    from ledgers.notifications.services import notice_acknowledge

    mcw.scj.email = "scj@casino.test"
    mcw.scj.save()
    (unit,) = mcw.receive()
    services.cards_withdraw(units=[unit], status="out_of_use", reason="usé", actor=mcw.cartier)
    smtp.start()
    with django_capture_on_commit_callbacks(execute=True):
        session = services.cards_destruction_plan(
            establishment=mcw.est, units=[unit], method="destruction", planned_at=timezone.now(), actor=mcw.director
        )
    [message] = smtp.messages
    assert message["To"] == "scj@casino.test"
    notice = Notice.objects.get(about=f"custody.destructionsession:{session.pk}")
    entry = notice.register.entries.get(seq=notice.register.head_seq)
    assert entry.payload["event"] == "Notification" and entry.actor_user == mcw.director
    _refused("CARD-11", services.cards_destruction_complete, session=session, actor=mcw.director)
    notice_acknowledge(notice=notice, actor=mcw.scj)
    session.refresh_from_db()
    assert session.notified_at == notice.mails.get().sent_at and session.notice_channel == "Courriel"
    # The SCJ does not write in the intake register, yet its acknowledgement is a line of it.
    notice.register.refresh_from_db()
    receipt = notice.register.entries.get(seq=notice.register.head_seq)
    assert (receipt.payload["event"], receipt.actor_user, receipt.role) == ("Accusé de réception", mcw.scj, "scj")
    assert verify_register(notice.register) is None
