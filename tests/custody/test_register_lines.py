"""The custody acts that change no object in stock are register lines too, each naming what it
wrote: a destruction planned, the authority told of it (by the Direction, or by acknowledging the
e-mail), a maker or supplier and its approval. Each act commits its own transaction here, as in
production, and the verification finds every history row named by an entry of its transaction."""

import datetime

import pytest
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from ledgers.cards import services
from ledgers.cards.domains import CARDS
from ledgers.core.authz import save_audited
from ledgers.custody import services as custody
from ledgers.custody.models import DestructionSession, Supplier
from ledgers.notifications.models import Notice
from ledgers.notifications.services import notice_acknowledge
from ledgers.registers.evidence import check_transactions
from ledgers.registers.models import Entry
from tests.cards.conftest import World, refused

pytestmark = [pytest.mark.postgresql, pytest.mark.django_db(transaction=True)]


def lines_naming(model: str, pk: int) -> list[Entry]:
    return list(Entry.objects.filter(**{f"written__{model}__contains": pk}).order_by("pk"))


def withdrawn(w: World, count: int):
    units = w.receive(*(w.spec() for _ in range(count)))
    services.cards_withdraw(units=units, status="out_of_use", reason="usé", actor=w.keeper)
    return units


def test_reg_24_a_destruction_planned_told_and_acknowledged_is_a_line_of_its_register_each(mc):
    """MC: the plan, the SCJ told by the Direction, or by acknowledging the e-mail, each a line of
    the intake register its OUT entries go to, naming the session it saved (CARD-11)."""
    w = World(mc)
    w.scj.email = "scj@casino.test"
    w.scj.save(update_fields=["email"])
    mailed = services.cards_destruction_plan(
        establishment=mc, units=withdrawn(w, 1), method="destruction", planned_at=timezone.now(), actor=w.director
    )
    register = w.registers["sixain"]
    notification, plan = register.entries.filter(kind="record").order_by("-seq")[:2]
    assert plan.payload["event"] == "Programmation de la destruction" and plan.payload["destruction"] == mailed.pk
    assert plan.payload["serials"] and plan.payload["reason"] == "Destruction"
    assert plan.written["custody.DestructionSession"] == [mailed.pk]
    assert notification.payload["event"] == "Notification"

    notice = Notice.objects.get(about=f"custody.destructionsession:{mailed.pk}")
    notice_acknowledge(notice=notice, actor=w.scj)
    receipt = register.entries.order_by("-seq").first()
    assert receipt.payload["event"] == "Accusé de réception" and receipt.actor_user == w.scj
    assert receipt.written == {"custody.DestructionSession": [mailed.pk], "notifications.Notice": [notice.pk]}

    told = services.cards_destruction_plan(
        establishment=mc, units=withdrawn(w, 1), method="neutralisation", planned_at=timezone.now(), actor=w.director
    )
    custody.destruction_notify(session=told, channel="Téléphone", reference="Agent de service", actor=w.director)
    notified = register.entries.order_by("-seq").first()
    assert notified.payload["event"] == "Information de l'autorité"
    assert notified.payload["minutes"].endswith("(Téléphone — Agent de service)")
    assert notified.written == {"custody.DestructionSession": [told.pk]}
    assert [line.payload["event"] for line in lines_naming("custody.DestructionSession", told.pk)] == [
        "Programmation de la destruction",
        "Information de l'autorité",
    ]
    assert check_transactions() == []

    with transaction.atomic():  # the session marked informed behind the services: no entry
        forged = DestructionSession.objects.get(pk=mailed.pk)
        forged.notice_reference = "antidaté"
        save_audited(forged, actor=w.director, reason="hors registre")
    assert [(f.model, f.pk, f.code) for f in check_transactions()] == [
        ("custody.DestructionSession", mailed.pk, "transaction")
    ]


def test_reg_24_a_destruction_planned_with_nobody_to_mail_is_still_written(fr):
    """FR: no police officer has an address, so no notice is sent; the plan is a line all the same."""
    w = World(fr)
    session = services.cards_destruction_plan(
        establishment=fr, units=withdrawn(w, 1), method="destruction", planned_at=timezone.now(), actor=w.director
    )
    assert not Notice.objects.exists()
    (plan,) = lines_naming("custody.DestructionSession", session.pk)
    assert plan.register == w.registers["carnet"] and plan.payload["event"] == "Programmation de la destruction"
    assert check_transactions() == []


def test_card_32_a_maker_and_its_approval_are_lines_of_the_carnet_of_orders(fr):
    """The maker entered without an approval is refused an order; its approval, once recorded, is
    a line of the carnet of orders, which the order that follows repeats (CARD-32, REG-07)."""
    w = World(fr)
    maker = custody.supplier_register(establishment=fr, domain=CARDS, name="Cartes du Var", actor=w.director)
    orders = w.registers["orders"]
    registered = orders.entries.order_by("-seq").first()
    assert registered.payload == {
        "date": timezone.localdate().isoformat(),
        "event": "Enregistrement du fournisseur",
        "supplier": "Cartes du Var",
        "approval": "Sans agrément",
    }
    assert registered.written == {"custody.Supplier": [maker.pk]}
    refused(
        "CARD-32",
        custody.purchase_order_issue,
        establishment=fr,
        domain=CARDS,
        supplier=maker,
        lines=[{"category": "sixain", "quantity": 1}],
        carnet="21-B",
        actor=w.director,
    )
    with pytest.raises(ValidationError):  # an approval ending before it starts
        custody.supplier_approval_change(
            supplier=maker,
            approval_reference="A-9",
            approved_from=datetime.date(2026, 2, 1),
            approved_until=datetime.date(2026, 1, 1),
            actor=w.director,
        )
    renewal = {
        "approval_reference": "Agrément 2026-4",
        "approval_issuer": "Ministre de l'intérieur",
        "approved_from": datetime.date(2026, 1, 1),
    }
    custody.supplier_approval_change(supplier=maker, actor=w.director, **renewal)
    approval = orders.entries.order_by("-seq").first()
    assert (approval.payload["event"], approval.payload["approval"]) == (
        "Agrément du fournisseur",
        "Agrément 2026-4 — Ministre de l'intérieur — du 01/01/2026",
    )
    assert approval.written == {"custody.Supplier": [maker.pk]}
    with pytest.raises(ValidationError):  # the same approval again: nothing to write
        custody.supplier_approval_change(supplier=maker, actor=w.director, **renewal)
    order = custody.purchase_order_issue(
        establishment=fr,
        domain=CARDS,
        supplier=Supplier.objects.get(pk=maker.pk),
        lines=[{"category": "sixain", "quantity": 1}],
        carnet="21-B",
        actor=w.director,
    )
    issued = orders.entries.order_by("-seq").first()
    assert issued.payload["order"] == str(order) and issued.payload["approval"] == approval.payload["approval"]
    assert check_transactions() == []
