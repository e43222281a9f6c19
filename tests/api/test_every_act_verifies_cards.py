"""Every write endpoint of the card API driven through a séance of each jurisdiction, each request
in its own transaction as in production, then ``verify_ledgers``: each act writes its entry, the
entry names the objects the act wrote, and the registers and the objects verify with no finding.

Monaco: the Direction's settings (decks of punto banco, the least lead before a destruction), supplier
and its approval renewed, order visaed by the SCJ and sent, receipt by the cartier, transfers to
the annex depot and the DCC, the annex day closed, the replacement sixain designated, issue,
unsealing and table control, a card exchanged by the inspecteur, a new shuffle ordered, the return
under the inspecteur, the exchange reconciled, the cartier's controls, a PAE sixain prepared at
the DCC and confirmed at the super privé table, a withdrawal, an anomaly, a destruction planned,
notified to the SCJ and witnessed, the SCJ's verification. France: supplier and its approval
renewed, carnet 21 order visaed by the police, receipt into the carnet 19, issue by the key
holder, controls at the table before the return, a withdrawal, an anomaly, a destruction planned
and performed before the police officer, the police verification.

A write route of ``SCOPE`` that no flow below exercises fails the test; ``CANNOT_RUN`` lists,
with the reason, the only ones a test cannot reach."""

import datetime
import itertools
from types import SimpleNamespace

import pytest
from django.utils import timezone

from ledgers.cards.models import CardUnit
from ledgers.core.services import establishment_setting_change, table_session_close, table_session_open
from tests.api.acts import Acts, verify_every_act
from tests.cards.conftest import World
from tests.factories import DEFAULT_PASSWORD, EstablishmentFactory, notice_aged

pytestmark = [pytest.mark.postgresql, pytest.mark.django_db(transaction=True)]

SCOPE = ("api/v1/cards/",)

CANNOT_RUN: dict[str, str] = {}

API = "/api/v1/cards/"
_serials = itertools.count(1)


def sixain() -> dict:
    """One sealed sixain as the manufacturer delivers it: six numbered decks, two back colours."""
    serial = f"ACT-{next(_serials)}"
    decks = [{"serial": f"{serial}-{i}", "back_colour": "rouge" if i <= 3 else "bleu"} for i in range(1, 7)]
    return {"unit_type": "sixain", "serial": serial, "decks": decks}


def ordered(acts: Acts, w: World, supplier: int, quantity: int, carnet: str = "") -> dict:
    """A purchase order issued by the Direction, visaed by the authority, sent."""
    order = acts.post(
        w.director,
        f"{API}orders/new/",
        {"supplier": supplier, "lines": [{"category": "sixain", "quantity": quantity}], "carnet": carnet},
    )
    acts.post(w.authority, f"{API}orders/{order['id']}/visa/", {"password": DEFAULT_PASSWORD, "statement": "Vu"})
    return acts.post(w.director, f"{API}orders/{order['id']}/send/")


def supplier(acts: Acts, w: World) -> int:
    """A maker registered with its approval, then its approval renewed (CARD-32)."""
    issuer = "Ministre d'État" if w.mc else "Ministre de l'intérieur"
    made = acts.post(
        w.director,
        f"{API}suppliers/",
        {"name": "Cartes du Rocher", "approval_reference": "Agrément 2025-3", "approval_issuer": issuer},
    )
    acts.post(
        w.director,
        f"{API}suppliers/{made['id']}/approval/",
        {"approval_reference": "Agrément 2025-9", "approval_issuer": issuer, "approved_from": "2025-01-01"},
    )
    return made["id"]


def to_table(acts: Acts, w: World, session, unit: int) -> None:
    """Issued by the keeper of the depot, unsealed and controlled at the table by the croupier."""
    acts.post(w.keeper, f"{API}issues/", {"table_session": session.pk, "units": [unit], "received_by": "M. Croupier"})
    acts.post(
        w.croupier,
        f"{API}unsealings/",
        {"unit": unit, "seal_intact": True, "video_camera": "CAM-3", "video_reference": f"REC-{unit}"},
    )
    acts.post(w.croupier, f"{API}table-controls/", {"unit": unit, "complete": True, "order_intact": True})


def controlled(acts: Acts, user, route: str, unit: int) -> None:
    """A control after use (or before reuse): complete, in order, no mark."""
    acts.post(user, f"{API}{route}", {"unit": unit, "complete": True, "order_restored": True, "marks_found": False})


def withdrawn_and_reported(acts: Acts, withdrawer, reporter, worn: int, other: int, status: str) -> None:
    """A worn unit withdrawn; a foreign card found in another, reported (an incident opens)."""
    acts.post(withdrawer, f"{API}withdrawals/", {"units": [worn], "status": status, "reason": "Cartes usées"})
    acts.post(
        reporter,
        f"{API}anomalies/",
        {"units": [other], "anomaly": "foreign", "cards": "Valet de pique", "circumstances": "Dos différent"},
    )


def monaco(acts: Acts, w: World) -> None:
    """A Monaco séance: the cartier's depots, the inspecteur's exchange, the PAE of the super privé."""
    establishment_setting_change(establishment=w.est, code="SET-02", value={"punto_banco": 6}, actor=w.director)
    establishment_setting_change(establishment=w.est, code="SET-05", value={"scj_notice_minutes": 60}, actor=w.director)
    order = ordered(acts, w, supplier(acts, w), 5)
    received = acts.post(
        w.cartier,
        f"{API}receipts/",
        {
            "location": w.depot.pk,
            "supplier": order["supplier"],
            "order": order["id"],
            "delivery_note": "BL 12",
            "units": [sixain() for _n in range(5)],
        },
    )
    table, spare, pae, other, worn = (u["id"] for u in received)
    acts.post(
        w.cartier, f"{API}transfers/", {"units": [table, spare], "to_location": w.annex.pk, "received_by": "M. Rossi"}
    )
    acts.post(w.cartier, f"{API}transfers/", {"units": [pae], "to_location": w.dcc.pk, "received_by": "Mme Gastaud"})
    acts.post(w.cartier, f"{API}depot-days/", {"date": timezone.localdate().isoformat()})
    acts.post(w.inspecteur, f"{API}replacement-sixains/", {"seance": w.seance.pk, "room": w.room.pk, "unit": spare})

    session = w.session("blackjack")
    to_table(acts, w, session, table)
    table_session_open(session=session, actor=w.director)
    exchange = acts.post(
        w.inspecteur,
        f"{API}exchanges/new/",
        {
            "table_unit": CardUnit.objects.get(pk=table).members.first().pk,
            "replacement_unit": CardUnit.objects.get(pk=spare).members.first().pk,
            "card": "Huit de carreau",
            "croupier": "M. Bertrand",
            "shown_both_sides": True,
        },
    )
    acts.post(
        w.director, f"{API}reshuffles/", {"table_session": session.pk, "reason": "Joueur unique contestant le mélange"}
    )
    acts.post(
        w.cartier,
        f"{API}returns/",
        {
            "units": [table],
            "to_location": w.annex.pk,
            "returned_by": "M. Croupier",
            "signer_username": w.inspecteur.username,
            "signer_password": DEFAULT_PASSWORD,
        },
    )
    table_session_close(session=session, actor=w.director)
    acts.post(
        w.cartier,
        f"{API}exchanges/{exchange['id']}/reconcile/",
        {"note": "Carte détériorée replacée dans le sixain de remplacement"},
    )
    controlled(acts, w.cartier, "post-controls/", table)  # in the depot, once returned (CARD-14)
    controlled(acts, w.cartier, "first-controls/", table)  # a used deck, before its next issue

    acts.post(
        w.dcc_staff,
        f"{API}pae-preparations/",
        {
            "units": [pae],
            "checked_by": "Mme Gastaud",
            "shuffled_by": "M. Roux",
            "method": "shuffler",
            "shuffler": "MD-12",
            "video_camera": "CAM-DCC",
            "video_reference": "DCC-0001",
        },
    )
    super_prive = w.session("super_prive")
    acts.post(
        w.cartier, f"{API}issues/", {"table_session": super_prive.pk, "units": [pae], "received_by": "M. Croupier"}
    )
    acts.post(w.croupier, f"{API}pae-confirmations/", {"unit": pae, "shuffler": "MD-12"})

    withdrawn_and_reported(acts, w.cartier, w.cartier, worn, other, "out_of_use")
    destruction = acts.post(
        w.director,
        f"{API}destructions/new/",
        {"units": [spare, worn], "method": "destruction", "planned_at": timezone.now().isoformat()},
    )
    acts.post(
        w.director, f"{API}destructions/{destruction['id']}/notify/", {"channel": "email", "reference": "Courriel SCJ"}
    )
    notice_aged(SimpleNamespace(pk=destruction["id"]), 60)
    acts.post(
        w.director,
        f"{API}destructions/{destruction['id']}/complete/",
        {"signer_username": w.scj.username, "signer_password": DEFAULT_PASSWORD},
    )
    acts.post(w.scj, f"{API}verifications/new/", {"password": DEFAULT_PASSWORD})


def france(acts: Acts, w: World) -> None:
    """A French partie: the carnets 21 and 19, the key holder of the cabinet, the police."""
    order = ordered(acts, w, supplier(acts, w), 3, carnet="21-0007")
    received = acts.post(
        w.employe_responsable,
        f"{API}receipts/",
        {
            "location": w.depot.pk,
            "supplier": order["supplier"],
            "order": order["id"],
            "delivery_note": "BL 21",
            "units": [sixain() for _n in range(3)],
        },
    )
    table, other, worn = (u["id"] for u in received)
    session = w.session("blackjack")
    to_table(acts, w, session, table)
    w.allocate_sabot(session)
    table_session_open(session=session, actor=w.director)
    controlled(acts, w.croupier, "post-controls/", table)  # at the table, before the return (CARD-37)
    acts.post(w.director, f"{API}returns/", {"units": [table], "to_location": w.depot.pk, "returned_by": "M. Croupier"})
    w.close_table(session)

    withdrawn_and_reported(acts, w.director, w.croupier, worn, other, "damaged")
    destruction = acts.post(
        w.director,
        f"{API}destructions/new/",
        {
            "units": [worn],
            "method": "destruction",
            "planned_at": (timezone.now() + datetime.timedelta(minutes=1)).isoformat(),
        },
    )
    acts.post(
        w.director,
        f"{API}destructions/{destruction['id']}/complete/",
        {"signer_username": w.police.username, "signer_password": DEFAULT_PASSWORD},
    )
    acts.post(w.police, f"{API}verifications/new/", {"password": DEFAULT_PASSWORD, "opened_by": "M. Delorme"})


def test_card_16_every_card_write_endpoint_in_its_own_transaction_leaves_registers_that_verify(mc):
    fr = EstablishmentFactory(code="frn", name="Casino de Nice (démo)", jurisdiction="FR", timezone="Europe/Paris")
    acts = Acts()
    monaco(acts, World(mc))
    france(acts, World(fr))

    verify_every_act(acts, SCOPE, CANNOT_RUN)
