"""French card rules (arrêté du 14 mai 2007 arts. 39, 40, 40-1): one test per CARD-24..39 check."""

import datetime

import pytest
from django.core.exceptions import PermissionDenied
from django.utils import timezone

from ledgers.cards import selectors, services
from ledgers.cards.domains import CARDS
from ledgers.cards.models import CardEvent, CardUnit
from ledgers.core.services import table_session_close, table_session_open
from ledgers.custody import services as custody
from ledgers.custody.models import ItemStatus
from ledgers.incidents.models import Incident
from ledgers.incidents.selectors import has_open_incident
from ledgers.registers.models import Register
from ledgers.registers.services import register_create, register_open
from tests.cards.conftest import World
from tests.cards.conftest import refused as _refused
from tests.cash.test_e2e import printed
from tests.factories import LocationFactory


def test_card_24_mc_only_checks_are_best_practice_in_france(frw: World):
    (a,) = frw.receive()
    _refused("CARD-24", frw.issue, frw.session("roulette"), a)
    _refused(
        "CARD-24",
        services.cards_pae_prepare,
        units=[a],
        actor=frw.directeur_responsable,
        checked_by="X",
        shuffled_by="Y",
        method="hand",
        video_camera="C",
        video_reference="R",
    )
    # no first control by a cartier is required in France before a used sixain is issued again …
    session = frw.open_table("blackjack", a)
    frw.give_back(a)
    frw.close_table(session)
    later = frw.new_seance(days_ago=-1)
    frw.issue(frw.session("blackjack", seance=later), a)
    frw.give_back(a)
    # … unless the establishment switches the MC check on as best practice, labelled as such
    frw.est.options = {"cards_best_practice": ["CARD-14"]}
    frw.est.save()
    error = _refused("CARD-14", frw.issue, frw.session("blackjack", seance=frw.new_seance(days_ago=-2)), a)
    assert "non imposée en France" in error.message


def test_card_25_french_cards_are_received_in_sixains_with_plain_backs(frw: World):
    _refused("CARD-25", frw.receive, frw.spec("jeu"))
    _refused("CARD-25", frw.receive, frw.spec("huitain"))
    _refused("CARD-25", frw.receive, frw.spec(plain_back=False))
    (sixain,) = frw.receive(frw.spec(hidden_mark=True, hidden_mark_description="Logo invisible du casino"))
    assert sixain.members.count() == 6 and all(d.parent_id == sixain.pk for d in sixain.members.all())
    assert sixain.hidden_mark


def test_card_26_every_deck_number_into_the_carnet_19_no_duplicate_and_a_visaed_order(frw: World):
    spec = frw.spec()
    missing = type(spec)(
        unit_type="sixain", serial=spec.serial, decks=(type(spec.decks[0])("", "rouge"), *spec.decks[1:])
    )
    _refused("CARD-26", frw.receive, missing)
    (sixain,) = frw.receive(frw.spec(serial="S-FR-1"))
    _refused("CARD-26", frw.receive, frw.spec(serial="S-FR-1"))
    payload = frw.registers["carnet"].entries.filter(kind="record").order_by("-seq").first().payload
    assert payload["serials"] == ["S-FR-1"]
    assert all(d.serial in payload["details"][0] for d in sixain.members.all())
    _refused(
        "CARD-33",
        services.cards_receive,
        establishment=frw.est,
        location=frw.depot,
        supplier=frw.supplier,
        units=[frw.spec()],
        actor=frw.receiver,
        order=None,
    )


def test_card_27_carnet_19_opened_by_the_police_before_its_first_entry(fr, frw: World):
    Register.objects.filter(pk=frw.registers["carnet"].pk).update(status=Register.Status.CLOSED)
    volume = register_create(establishment=fr, kind="carnet_19", qualifier="cartes", actor=frw.director)
    _refused("REG-06", frw.receive)
    with pytest.raises(PermissionDenied):
        register_open(register=volume, actor=frw.director, paraphe="FD")
    register_open(register=volume, actor=frw.police, paraphe="CV")
    frw.receive()
    volume.refresh_from_db()
    assert volume.entries.get(seq=1).role == "police" and volume.head_seq == 2


def test_card_28_french_cards_are_kept_only_in_the_card_cabinet(frw: World):
    annex = LocationFactory(establishment=frw.est, code="annexe", kind="depot_annexe")
    _refused("CARD-28", frw.receive, frw.spec(), location=annex)
    (a,) = frw.receive()
    session = frw.session()
    frw.issue(session, a)
    services.cards_post_control(unit=a, actor=frw.croupier, complete=True, order_restored=True, marks_found=False)
    _refused(
        "CARD-28",
        services.cards_return,
        units=[a],
        to_location=annex,
        actor=frw.directeur_responsable,
        returned_by="M. Croupier",
    )


def test_card_29_police_may_verify_the_cabinet_and_a_discrepancy_opens_an_incident(frw: World):
    frw.receive(frw.spec(), frw.spec())
    statement = selectors.stock_statement(frw.est)
    assert statement.balanced and statement.book == {"sixain": 2}
    verification = custody.stock_verification_record(
        domain=CARDS,
        establishment=frw.est,
        counted={(frw.depot.pk, "sixain"): 1},
        actor=frw.police,
        opened_by="M. Delorme, directeur responsable",
    )
    assert verification.discrepancy and verification.incident.requirement == "INC-14"
    carnet = Register.objects.get(pk=frw.registers["carnet"].pk)
    assert carnet.entries.order_by("-seq").first().kind == "visa"


def test_card_30_incomplete_unit_is_not_destroyed_without_a_closed_incident(frw: World):
    (a,) = frw.receive()
    services.cards_withdraw(units=[a], status="out_of_use", reason="usé", actor=frw.directeur_responsable)
    # a deck found incomplete with no anomaly ever reported (a state the services never produce)
    CardUnit.objects.filter(pk=a.pk).update(complete=False)
    session = services.cards_destruction_plan(
        establishment=frw.est, units=[a], method="destruction", planned_at=timezone.now(), actor=frw.director
    )
    _refused("CARD-30", services.cards_destruction_complete, session=session, actor=frw.director, witness=frw.police)
    assert any(f.code == "CARD-30" for f in selectors.exceptions(frw.est))


def test_card_31_destruction_before_a_police_officer_who_visas_the_carnet(frw: World):
    (a, b) = frw.receive(frw.spec(), frw.spec())
    services.cards_withdraw(units=[a, b], status="out_of_use", reason="fin de série", actor=frw.directeur_responsable)
    _refused(
        "CARD-31",
        services.cards_destruction_plan,
        establishment=frw.est,
        units=[a],
        method="neutralisation",
        planned_at=timezone.now(),
        actor=frw.director,
    )
    session = services.cards_destruction_plan(
        establishment=frw.est, units=[a, b], method="destruction", planned_at=timezone.now(), actor=frw.director
    )
    _refused("CARD-31", services.cards_destruction_complete, session=session, actor=frw.director)
    with pytest.raises(PermissionDenied):
        services.cards_destruction_complete(session=session, actor=frw.director, witness=frw.comite)
    session = services.cards_destruction_complete(
        session=session,
        actor=frw.director,
        witness=frw.police,
        withheld=[b],
        finding="Carte marquée au crayon dans le sixain",
    )
    a.refresh_from_db()
    b.refresh_from_db()
    assert a.status == ItemStatus.DESTROYED and a.members.filter(status=ItemStatus.DESTROYED).count() == 6
    assert b.status == ItemStatus.OUT_OF_USE and has_open_incident(b)
    assert Incident.objects.get(pk=session.checks["incident"]).requirement == "INC-14"
    carnet = frw.registers["carnet"]
    out = carnet.entries.filter(kind="record", payload__movement="OUT").get()
    visa = carnet.entries.filter(kind="visa").order_by("-seq").first()
    assert out.payload["serials"] == [a.serial] and visa.payload["covers_seq"] == out.seq
    assert visa.actor_user == frw.police


def test_card_32_only_approved_manufacturers(frw: World):
    rogue = custody.supplier_register(
        establishment=frw.est, domain=CARDS, name="Cartes sans agrément", actor=frw.director
    )
    _refused(
        "CARD-32",
        custody.purchase_order_issue,
        establishment=frw.est,
        domain=CARDS,
        supplier=rogue,
        actor=frw.director,
        lines=[{"category": "sixain", "quantity": 1}],
        carnet="21-A",
    )
    expired = custody.supplier_register(
        establishment=frw.est,
        domain=CARDS,
        name="Agrément échu",
        actor=frw.director,
        approval_reference="A-1",
        approved_until=timezone.localdate() - datetime.timedelta(days=1),
    )
    _refused(
        "CARD-32",
        services.cards_receive,
        establishment=frw.est,
        location=frw.depot,
        supplier=expired,
        units=[frw.spec()],
        actor=frw.receiver,
    )


def test_reg_07_carnet_21_order_lines_carry_every_mention_and_print(frw: World):
    order = frw.order(lines=(("sixain", 2), ("jeu", 4)))
    custody.purchase_order_send(order=order, domain=CARDS, actor=frw.director)
    register = frw.registers["orders"]
    maker, issued, visaed, sent = (e.payload for e in register.entries.filter(kind="record").order_by("seq"))
    assert (maker["event"], maker["supplier"]) == ("Enregistrement du fournisseur", frw.supplier.name)
    today = frw.est.localtime(order.issued_at).date()
    for line in (issued, visaed, sent):  # carnet and order numbers, date, manufacturer, quantities
        assert (line["carnet"], line["number"], line["order"]) == ("21-A", 1, "Bon de commande n° 21-A/1")
        assert line["date"] == today.isoformat() and line["supplier"] == frw.supplier.name
        assert line["lines"] == ["sixain × 2", "jeu × 4"] and line["approval"] == maker["approval"]
    # The police visa: the officer's name, his service, the date.
    police = frw.authority.get_full_name()
    visa = f"Vu — {police}, Service territorial de police judiciaire (police des jeux), {today:%d/%m/%Y}"
    assert issued["visa"] == "" and visaed["visa"] == visa and sent["visa"] == visa
    assert register.kind_info.form == "modèle 21"
    text = "".join(printed(register).split())
    for value in ("21-A/1", frw.supplier.name, "sixain×2", police, "policejudiciaire", f"{today:%d/%m/%Y}"):
        assert "".join(value.split()) in text


def test_card_33_reg_07_orders_from_carnet_21_visaed_by_the_police(frw: World):
    _refused(
        "CARD-33",
        custody.purchase_order_issue,
        establishment=frw.est,
        domain=CARDS,
        supplier=frw.supplier,
        actor=frw.director,
        lines=[{"category": "sixain", "quantity": 1}],
    )
    order = frw.order(visa=False)
    _refused("CARD-33", custody.purchase_order_send, order=order, domain=CARDS, actor=frw.director)
    _refused("CARD-33", frw.receive, frw.spec(), order=order)
    _refused(
        "CARD-33",
        custody.purchase_order_issue,
        establishment=frw.est,
        domain=CARDS,
        supplier=frw.supplier,
        actor=frw.director,
        lines=[{"category": "sixain", "quantity": 1}],
        carnet="21-A",
        number=9,
    )
    custody.purchase_order_visa(order=order, actor=frw.police, statement="Vu, le fonctionnaire de police")
    custody.purchase_order_send(order=order, domain=CARDS, actor=frw.director)
    frw.receive(frw.spec(), order=order)


def test_card_34_issue_to_closed_table_refused(frw: World):
    (a, b) = frw.receive(frw.spec(), frw.spec())
    session = frw.open_table("blackjack", a)
    with pytest.raises(PermissionDenied):
        frw.issue(frw.session("punto_banco"), b, actor=frw.cartier)  # the key holder opens the cabinet
    frw.give_back(a)
    frw.close_table(session)
    _refused("CARD-34", frw.issue, session, b)


def test_card_35_unsealing_at_the_table_under_video_and_broken_seal_band(frw: World):
    (a,) = frw.receive()
    _refused(
        "CARD-35",
        services.cards_unseal,
        unit=a,
        actor=frw.croupier,
        seal_intact=True,
        video_camera="C1",
        video_reference="R1",
    )
    session = frw.session()
    frw.issue(session, a)
    _refused("CARD-35", services.cards_unseal, unit=a, actor=frw.croupier, seal_intact=True)
    services.cards_unseal(
        unit=a, actor=frw.croupier, seal_intact=False, video_camera="C1", video_reference="2026-03-02 20:14:05"
    )
    incident = Incident.objects.get(subjects__object_id=a.pk)
    assert incident.requirement == "INC-14" and has_open_incident(a)
    event = CardEvent.objects.get(kind="unsealing", unit=a)
    assert event.ok is False and event.details["video_reference"] == "2026-03-02 20:14:05"


def test_card_36_table_control_required_and_a_failed_control_opens_an_incident(frw: World):
    (a, _b) = frw.receive(frw.spec(), frw.spec())
    session = frw.session()
    frw.issue(session, a)
    services.cards_unseal(unit=a, actor=frw.croupier, seal_intact=True, video_camera="C", video_reference="R")
    _refused("CARD-36", table_session_open, session=session, actor=frw.director)
    services.cards_table_control(unit=a, actor=frw.croupier, complete=False, order_intact=True)
    assert Incident.objects.get(subjects__object_id=a.pk).requirement == "INC-13"
    _refused("CARD-36", table_session_open, session=session, actor=frw.director)


def test_card_37_post_partie_control_and_return_before_the_table_closes(frw: World):
    (a,) = frw.receive()
    session = frw.open_table("blackjack", a)
    frw.return_sabot(session)  # the sabot is back (SHOE-09): what keeps the partie open are the cards
    _refused("CARD-37", table_session_close, session=session, actor=frw.director)
    _refused(
        "CARD-37",
        services.cards_return,
        units=[a],
        to_location=frw.depot,
        actor=frw.directeur_responsable,
        returned_by="M. Croupier",
    )
    services.cards_post_control(
        unit=a,
        actor=frw.croupier,
        complete=True,
        order_restored=True,
        marks_found=True,
        marks_description="Coin corné sur trois figures",
    )
    a.refresh_from_db()
    assert a.status == ItemStatus.MARKED
    assert Incident.objects.get(subjects__object_id=a.pk).requirement == "INC-13"
    _refused("CARD-37", table_session_close, session=session, actor=frw.director)
    services.cards_return(units=[a], to_location=frw.depot, actor=frw.directeur_responsable, returned_by="M. Croupier")
    a.refresh_from_db()
    assert a.status == ItemStatus.MARKED and a.location == frw.depot
    assert frw.close_table(session).status == "closed"


def test_card_38_quarantine_until_the_incident_is_closed(frw: World):
    (a,) = frw.receive()
    services.cards_anomaly_report(
        units=[a], anomaly="surplus", cards="Un as de pique en trop", circumstances="comptée", actor=frw.croupier
    )
    _refused("CARD-38", frw.issue, frw.session(), a)


def test_card_39_withdrawn_units_not_issued_and_marked_units_kept_while_the_incident_is_open(frw: World):
    (a, b) = frw.receive(frw.spec(), frw.spec())
    services.cards_withdraw(units=[a], status="damaged", reason="cartes pliées", actor=frw.directeur_responsable)
    a.refresh_from_db()
    assert a.location == frw.depot
    _refused("CARD-39", frw.issue, frw.session("trente_quarante"), a)
    services.cards_anomaly_report(
        units=[b], anomaly="marked", cards="Dame de carreau", circumstances="contrôle", actor=frw.croupier
    )
    session = services.cards_destruction_plan(
        establishment=frw.est, units=[b], method="destruction", planned_at=timezone.now(), actor=frw.director
    )
    _refused("CARD-39", services.cards_destruction_complete, session=session, actor=frw.director, witness=frw.police)
    # in France a damaged card is not exchanged: the deck is withdrawn (CARD-16 is MC only)
    _refused(
        "CARD-39",
        services.cards_replacement_designate,
        seance=frw.seance,
        room=frw.room,
        unit=a,
        actor=frw.directeur_responsable,
    )


def test_key_11_issue_return_and_verification_name_the_cabinet_key_holder(frw: World):
    from ledgers.keys.services import key_issue
    from ledgers.registers.services import display_name

    (a,) = frw.receive()
    session = frw.open_table("blackjack", a)
    issue = CardEvent.objects.get(unit=a, kind=CardEvent.Kind.ISSUE)
    director = display_name(frw.director)
    assert issue.details["cabinet_opened_by"] == director
    assert f"armoire ouverte par {director}" in issue.entry.payload["persons"]
    # the key goes to the comité member for the séance: he now opens the cabinet
    key_issue(
        key=frw.cabinet_key,
        actor=frw.director,
        holder=frw.comite,
        purpose_type="core.seance",
        purpose_id=frw.seance.pk,
        due_at=timezone.now() + datetime.timedelta(hours=4),
    )
    frw.give_back(a)
    back = CardEvent.objects.get(unit=a, kind=CardEvent.Kind.RETURN)
    assert back.details["cabinet_opened_by"] == display_name(frw.comite)
    assert f"armoire ouverte par {display_name(frw.comite)}" in back.entry.payload["persons"]
    verification = services.cards_stock_verification(
        establishment=frw.est, counted={}, actor=frw.police, opened_by="typed, ignored in France"
    )
    assert verification.opened_by == display_name(frw.comite)
    frw.close_table(session)


def test_key_11_no_cabinet_key_holder_refuses_issue_return_and_verification(frw: World):
    from ledgers.core.authz import save_audited
    from ledgers.keys.models import Key

    a, b = frw.receive(frw.spec(), frw.spec())
    session = frw.open_table("blackjack", a)
    frw.cabinet_key.status = Key.Status.RETIRED  # no key of the cabinet in service any more
    save_audited(frw.cabinet_key, actor=frw.director)
    _refused("KEY-11", frw.issue, session, b)
    services.cards_post_control(unit=a, actor=frw.croupier, complete=True, order_restored=True, marks_found=False)
    _refused(
        "KEY-11",
        services.cards_return,
        units=[a],
        to_location=frw.depot,
        actor=frw.directeur_responsable,
        returned_by="M. Croupier",
    )
    _refused("KEY-11", services.cards_stock_verification, establishment=frw.est, counted={}, actor=frw.police)
    b.refresh_from_db()
    assert b.location == frw.depot and b.table_session is None


def test_key_11_a_cabinet_its_registered_key_does_not_open_is_refused(frw: World):
    other = LocationFactory(
        establishment=frw.est, code="armoire-2", name="Seconde armoire", kind="card_cabinet", room=frw.room
    )
    (a,) = frw.receive(location=other)
    _refused("KEY-11", frw.issue, frw.session("blackjack"), a)
