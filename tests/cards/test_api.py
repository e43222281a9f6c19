"""The card API: flows call the services; a rule answers 409 with code and article."""

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from ledgers.cards.models import CardUnit
from ledgers.custody.models import ItemStatus
from tests.cards.conftest import World
from tests.factories import DEFAULT_PASSWORD

API = "/api/v1/cards/"


def client_for(user):
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_card_12_api_issue_to_closed_table_is_409_with_code_and_article(mcw: World):
    from ledgers.core.services import table_session_close

    (a, b) = mcw.receive(mcw.spec(), mcw.spec())
    session = mcw.open_table("blackjack", a)
    mcw.give_back(a)
    table_session_close(session=session, actor=mcw.director)
    response = client_for(mcw.cartier).post(
        f"{API}issues/", {"table_session": session.pk, "units": [b.pk], "received_by": "M. Croupier"}, format="json"
    )
    assert response.status_code == 409
    assert response.json() == {"code": "CARD-12", "article": "AM 88-384 art. 1.2", "detail": response.json()["detail"]}
    b.refresh_from_db()
    assert b.status == ItemStatus.IN_STOCK


def test_api_seance_flow_from_receipt_to_return(mcw: World):
    cartier, croupier = client_for(mcw.cartier), client_for(mcw.croupier)
    unit = {
        "unit_type": "sixain",
        "serial": "API-1",
        "decks": [{"serial": f"API-1-{i}", "back_colour": "rouge" if i <= 3 else "bleu"} for i in range(1, 7)],
    }
    response = cartier.post(
        f"{API}receipts/",
        {"location": mcw.depot.pk, "supplier": mcw.supplier.pk, "units": [unit], "delivery_note": "BL 7"},
        format="json",
    )
    assert response.status_code == 201, response.json()
    sixain = response.json()[0]
    assert sixain["serial"] == "API-1" and sixain["status"] == "in_stock"
    session = mcw.session()
    response = cartier.post(
        f"{API}issues/",
        {"table_session": session.pk, "units": [sixain["id"]], "received_by": "M. Croupier"},
        format="json",
    )
    assert response.status_code == 201 and response.json()[0]["status"] == "issued"
    assert (
        croupier.post(f"{API}unsealings/", {"unit": sixain["id"], "seal_intact": True}, format="json").status_code
        == 201
    )
    assert (
        croupier.post(
            f"{API}table-controls/", {"unit": sixain["id"], "complete": True, "order_intact": True}, format="json"
        ).status_code
        == 201
    )
    # the return needs the inspecteur's countersignature: a wrong password is bad input (400)
    body = {
        "units": [sixain["id"]],
        "to_location": mcw.depot.pk,
        "returned_by": "M. Croupier",
        "signer_username": mcw.inspecteur.username,
        "signer_password": "faux",
    }
    assert cartier.post(f"{API}returns/", body, format="json").status_code == 400
    body["signer_password"] = DEFAULT_PASSWORD
    response = cartier.post(f"{API}returns/", body, format="json")
    assert response.status_code == 201 and response.json()[0]["status"] == "awaiting_control"
    events = cartier.get(f"{API}events/", {"unit": sixain["id"]}).json()["results"]
    assert [e["kind"] for e in events] == ["return", "second_control", "unsealing", "issue"]
    assert events[0]["register"].endswith("CARTESSERVICE-001")
    stock = cartier.get(f"{API}stock/").json()
    assert stock["balanced"] and stock["book"] == {"sixain": 1}
    assert cartier.get(f"{API}units/", {"serial": "API-1-"}).json()["results"][0]["parent"] == sixain["id"]
    assert any(r["requirement"] == "GAME-30" for r in cartier.get(f"{API}rules/").json())
    assert any(f["code"] == "CARD-03" for f in cartier.get(f"{API}exceptions/").json())


def test_api_roles_and_bad_input(mcw: World):
    (a,) = mcw.receive()
    session = mcw.session()
    croupier = client_for(mcw.croupier)
    response = croupier.post(
        f"{API}issues/", {"table_session": session.pk, "units": [a.pk], "received_by": "X"}, format="json"
    )
    assert response.status_code == 403
    response = client_for(mcw.cartier).post(
        f"{API}issues/", {"table_session": session.pk, "units": [999999], "received_by": "X"}, format="json"
    )
    assert response.status_code == 400 and "units" in response.json()


def test_a_service_refusing_one_argument_answers_400_naming_it(mcw: World):
    """Marks found but not described: the control service's refusal names its field."""
    (a,) = mcw.receive()
    mcw.issue(mcw.session(), a)
    mcw.give_back(a)
    body = {"unit": a.pk, "complete": True, "order_restored": True, "marks_found": True}
    response = client_for(mcw.cartier).post(f"{API}post-controls/", body, format="json")
    assert response.status_code == 400
    assert response.json() == {"marks_description": ["Décrivez les marques constatées."]}
    assert CardUnit.objects.get(pk=a.pk).status == ItemStatus.AWAITING_CONTROL


def test_api_anomaly_and_incident_notices_and_closing(frw: World):
    (a,) = frw.receive()
    croupier, director = client_for(frw.croupier), client_for(frw.director)
    response = croupier.post(
        f"{API}anomalies/",
        {"units": [a.pk], "anomaly": "foreign", "cards": "Roi de pique", "circumstances": "dos différent"},
        format="json",
    )
    assert response.status_code == 201 and response.json()["requirement"] == "INC-13"
    incident = response.json()["id"]
    response = director.post(f"/api/v1/incidents/{incident}/close/")
    assert response.status_code == 409 and response.json()["code"] == "INC-13"
    response = director.post(
        f"/api/v1/incidents/{incident}/notices/",
        {
            "recipient_role": "police",
            "recipient_name": "Cne Vidal",
            "channel": "phone",
            "notified_at": timezone.now().isoformat(),
        },
        format="json",
    )
    assert response.status_code == 201
    assert director.post(f"/api/v1/incidents/{incident}/close/").json()["status"] == "closed"
    listed = director.get("/api/v1/incidents/", {"status": "closed"}).json()["results"]
    assert listed[0]["subjects"][0]["object_id"] == a.pk


def test_api_destruction_with_police_witness_and_verification(frw: World):
    (a,) = frw.receive()
    director = client_for(frw.director)
    assert (
        director.post(
            f"{API}withdrawals/", {"units": [a.pk], "status": "out_of_use", "reason": "usé"}, format="json"
        ).status_code
        == 201
    )
    response = director.post(
        f"{API}destructions/new/",
        {"units": [a.pk], "method": "destruction", "planned_at": timezone.now().isoformat()},
        format="json",
    )
    assert response.status_code == 201
    pk = response.json()["id"]
    response = director.post(f"{API}destructions/{pk}/complete/", {}, format="json")
    assert response.status_code == 409 and response.json()["code"] == "CARD-31"
    response = director.post(
        f"{API}destructions/{pk}/complete/",
        {"signer_username": frw.police.username, "signer_password": DEFAULT_PASSWORD},
        format="json",
    )
    assert response.status_code == 201 and response.json()["witness_role"] == "police"
    assert CardUnit.objects.get(pk=a.pk).status == ItemStatus.DESTROYED
    police = client_for(frw.police)
    response = police.post(
        f"{API}verifications/new/", {"password": DEFAULT_PASSWORD, "opened_by": "M. Delorme"}, format="json"
    )
    assert response.status_code == 201 and response.json()["discrepancy"] is False


@pytest.mark.parametrize(
    "path",
    [
        "units/",
        "events/",
        "exchanges/",
        "orders/",
        "destructions/",
        "verifications/",
        "stock/",
        "exceptions/",
        "rules/",
    ],
)
def test_api_read_endpoints(world: World, path):
    world.receive()
    response = client_for(world.director).get(API + path)
    assert response.status_code == 200
