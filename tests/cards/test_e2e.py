"""A séance end to end, for Monaco and for France: order → authority visa → receipt → transfer
(MC) → issue → controls → return → damaged card → anomaly → destruction → stock statement
balanced → visa. Every register verifies at the end."""

import pytest
from django.utils import timezone

from ledgers.cards import selectors, services
from ledgers.cards.domains import CARDS
from ledgers.cards.models import CardEvent, CardUnit
from ledgers.core.services import seance_close, table_session_close
from ledgers.custody import services as custody
from ledgers.custody.models import ItemStatus
from ledgers.custody.selectors import book_stock
from ledgers.incidents.services import incident_close, incident_decide, incident_notify
from ledgers.registers.models import EntryKind, Register
from ledgers.registers.verification import verify_register
from tests.cards.conftest import World
from tests.factories import notice_aged


@pytest.mark.postgresql
def test_seance_end_to_end(world: World):
    w, est = world, world.est
    # order from an approved manufacturer, visaed by the authority (SCJ / police), sent
    order = custody.purchase_order_issue(
        establishment=est,
        domain=CARDS,
        supplier=w.supplier,
        actor=w.director,
        lines=[{"category": "sixain", "quantity": 4}],
        carnet="" if w.mc else "21-0007",
    )
    order = custody.purchase_order_visa(order=order, actor=w.authority, statement="Vu")
    order = custody.purchase_order_send(order=order, domain=CARDS, actor=w.director)
    # receipt: the numéros d'ordre into the intake register
    table_sixain, spare, pae_sixain, other = w.receive(*(w.spec() for _n in range(4)), order=order)
    order.refresh_from_db()
    assert order.status == "received"
    # MC: to the annex depot of the room, and to the DCC; the day of the annex ledger is closed
    if w.mc:
        custody.items_transfer(
            domain=CARDS, items=[table_sixain, spare], to_location=w.annex, actor=w.cartier, received_by="M. Rossi"
        )
        custody.items_transfer(
            domain=CARDS, items=[pae_sixain], to_location=w.dcc, actor=w.cartier, received_by="Mme Gastaud"
        )
    # issue, unsealing and control at the table, table opens
    session = w.session("blackjack")
    w.issue(session, table_sixain)
    w.ready(session, table_sixain)
    w.allocate_sabot(session)  # FR: the blackjack sabot (SHOE-12)
    from ledgers.core.services import table_session_open

    table_session_open(session=session, actor=w.director)
    # a damaged card: MC exchanged by the inspecteur from the designated sixain; FR the deck is
    # withdrawn after the partie (no exchange in the French texts)
    if w.mc:
        services.cards_replacement_designate(seance=w.seance, room=w.room, unit=spare, actor=w.inspecteur)
        exchange = services.cards_exchange(
            table_unit=table_sixain.members.first(),
            replacement_unit=spare.members.first(),
            card="Huit de carreau",
            croupier="M. Bertrand",
            shown_both_sides=True,
            actor=w.inspecteur,
        )
    # return (MC under the inspecteur; FR after the post-partie control), table closes
    w.give_back(table_sixain, to=w.annex if w.mc else w.depot)
    w.close_table(session)
    if w.mc:
        services.cards_exchange_reconcile(
            exchange=exchange, actor=w.cartier, note="Carte détériorée replacée dans le sixain de remplacement"
        )
        services.cards_post_control(
            unit=CardUnit.objects.get(pk=table_sixain.pk),
            actor=w.cartier,
            complete=True,
            order_restored=True,
            marks_found=False,
        )
        # the PAE sixain for the super privé punto banco
        w.est.options = {"SET-02": {"punto_banco": 6}}
        w.est.save()
        services.cards_pae_prepare(
            units=[pae_sixain],
            actor=w.dcc_staff,
            checked_by="Mme Gastaud",
            shuffled_by="Mme Gastaud",
            method="hand",
            video_camera="CAM-DCC",
            video_reference="DCC-0001",
        )
        sp = w.session("super_prive")
        w.issue(sp, pae_sixain)
        services.cards_pae_confirm(unit=pae_sixain, actor=w.croupier)
        table_session_open(session=sp, actor=w.director)
        w.give_back(pae_sixain)
        table_session_close(session=sp, actor=w.director)
        services.cards_post_control(
            unit=CardUnit.objects.get(pk=pae_sixain.pk),
            actor=w.cartier,
            complete=True,
            order_restored=True,
            marks_found=False,
        )
    else:
        services.cards_withdraw(
            units=[table_sixain], status="damaged", reason="Huit de carreau détérioré", actor=w.directeur_responsable
        )
    # an anomaly: a card foreign to the deck found in another sixain
    incident = services.cards_anomaly_report(
        units=[other],
        anomaly="foreign",
        cards="Valet de pique au dos bleu",
        circumstances="Constaté à l'inventaire",
        actor=w.u["cartier"],
    )
    if w.mc:
        incident_decide(incident=incident, decision="Sixain retiré, enquête", actor=w.director)
        for role in ("inspecteur", "directeur_jeux", "scj"):
            incident_notify(
                incident=incident,
                recipient_role=role,
                recipient_name=role,
                channel="phone",
                notified_at=timezone.now(),
                actor=w.director,
            )
    else:
        incident_notify(
            incident=incident,
            recipient_role="police",
            recipient_name="Cne Vidal",
            channel="phone",
            notified_at=timezone.now(),
            actor=w.director,
        )
    incident_close(incident=incident, actor=w.director)
    # destruction: MC the SCJ informed beforehand; FR before the police officer, who visas
    withdrawn = [CardUnit.objects.get(pk=(spare if w.mc else table_sixain).pk)]
    assert withdrawn[0].status == ItemStatus.DAMAGED
    session_d = services.cards_destruction_plan(
        establishment=est, units=withdrawn, method="destruction", planned_at=timezone.now(), actor=w.director
    )
    if w.mc:
        custody.destruction_notify(session=session_d, channel="email", reference="courriel au SCJ", actor=w.director)
        notice_aged(session_d)
    services.cards_destruction_complete(session=session_d, actor=w.director, witness=w.authority)
    assert CardUnit.objects.get(pk=withdrawn[0].pk).status == ItemStatus.DESTROYED
    seance_close(seance=w.seance, actor=w.director)
    # stock statement balanced: 4 received − 1 destroyed
    statement = selectors.stock_statement(est)
    assert statement.balanced and statement.book == {"sixain": 3} == book_stock(CARDS, est)
    # the authority verifies without notice and visas the registers concerned
    verification = custody.stock_verification_record(
        domain=CARDS, establishment=est, counted={}, actor=w.authority, opened_by="" if w.mc else "M. Delorme"
    )
    assert not verification.discrepancy
    intake = w.registers["sixain" if w.mc else "carnet"]
    intake.refresh_from_db()
    last = intake.entries.order_by("-seq").first()
    assert last.kind == EntryKind.VISA and last.payload["covers_seq"] == intake.head_seq - 1
    payloads = intake.entries.filter(kind="record").values_list("payload", flat=True)
    lines = [p.get("movement") or p["event"] for p in payloads]  # the destruction planned is a line of its own
    told = ["Information de l'autorité"] if w.mc else []  # MC: the SCJ told beforehand (CARD-11)
    assert [line for line in lines if line != "Notification"] == ["IN", "Programmation de la destruction", *told, "OUT"]
    kinds = list(CardEvent.objects.filter(establishment=est, unit=table_sixain).values_list("kind", flat=True))
    # MC: returned, then controlled by the cartier in the depot; FR: controlled at the table, then returned
    after = ["return", "post_control"] if w.mc else ["post_control", "return"]
    assert kinds[:5] == ["issue", "unsealing", "second_control", *after]
    for register in Register.objects.filter(establishment=est):
        assert verify_register(register) is None, register
    assert not selectors.out_at_tables(est)
