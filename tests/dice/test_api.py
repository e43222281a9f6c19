"""The dice API: each flow through its endpoint; refusals answer 409 with code and article."""

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from ledgers.custody.models import DestructionSession
from ledgers.dice.models import DiceAllocation, Die
from ledgers.dice.rules import CHECKLIST
from tests.dice.conftest import allocate_mc, open_table, receive_fr, receive_mc
from tests.factories import DEFAULT_PASSWORD, notice_aged

PASSED = {key: True for key in CHECKLIST}
API = "/api/v1/dice/"


@pytest.fixture
def api():
    def as_user(user):
        client = APIClient()
        client.force_authenticate(user)
        return client

    return as_user


def test_dice_10_allocation_without_signature_answers_409_with_code_and_article(api, mc_org):
    session = mc_org.session()
    serials = [d.serial for d in receive_mc(mc_org, 5)]
    client = api(mc_org["cartier"])
    response = client.post(f"{API}allocations/new/", {"table_session": session.pk, "dice": serials}, format="json")
    assert response.status_code == 409
    assert response.json()["code"] == "DICE-10" and response.json()["article"] == "AM 88-384 art. 2"
    response = client.post(
        f"{API}allocations/new/",
        {
            "table_session": session.pk,
            "dice": serials,
            "signer_username": mc_org["sous_directeur"].username,
            "signer_password": "faux",
        },
        format="json",
    )
    assert response.status_code == 400 and "signer_password" in response.json()
    response = client.post(
        f"{API}allocations/new/",
        {
            "table_session": session.pk,
            "dice": serials,
            "signer_username": mc_org["sous_directeur"].username,
            "signer_password": DEFAULT_PASSWORD,
        },
        format="json",
    )
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["signed_role"] == "sous_directeur" and [line["serial"] for line in body["lines"]] == serials
    assert body["register"].endswith("DESENSERVICE-001") and body["entry_seq"] == 2
    listed = client.get(f"{API}allocations/").json()["results"]
    assert [row["id"] for row in listed] == [DiceAllocation.objects.get().pk]


def test_receipt_swap_check_and_reads_through_the_api(api, mc_org):
    cartier = api(mc_org["cartier"])
    dice = [{"serial": f"API-{n}", "sigle": "SBM", "inspection": PASSED} for n in range(5)]
    response = cartier.post(f"{API}receipts/", {"location": mc_org.depot.code, "dice": dice}, format="json")
    assert response.status_code == 201 and len(response.json()) == 5
    bad = cartier.post(
        f"{API}receipts/",
        {
            "location": mc_org.depot.code,
            "dice": [{"serial": "API-9", "sigle": "SBM", "inspection": {**PASSED, "polished": False}}],
        },
        format="json",
    )
    assert bad.status_code == 409 and bad.json()["code"] == "DICE-01"
    unknown = cartier.post(f"{API}transfers/", {"dice": ["NOPE"], "to_location": mc_org.annex.code}, format="json")
    assert unknown.status_code == 400
    moved = cartier.post(
        f"{API}transfers/",
        {"dice": ["API-0", "API-1", "API-2", "API-3", "API-4"], "to_location": mc_org.annex.code},
        format="json",
    )
    assert moved.status_code == 201
    days = cartier.post(f"{API}annex-days/", {"date": timezone.localdate().isoformat()}, format="json")
    assert days.status_code == 201 and {d["depot"] for d in days.json()} == {"depot-principal", "depot-annexe"}
    session = mc_org.session()
    allocate_mc(mc_org, session, list(Die.objects.order_by("serial")))
    open_table(mc_org, session)
    chef = api(mc_org["chef_table"])
    swap = chef.post(
        f"{API}swaps/new/",
        {"table_session": session.pk, "withdrawn": ["API-0"], "brought_in": ["API-1"], "reason": "fell"},
        format="json",
    )
    assert swap.status_code == 201 and swap.json()["withdrawn"] == ["API-0"]
    sd = api(mc_org["sous_directeur"])
    check = sd.post(
        f"{API}checks/new/",
        {
            "table_session": session.pk,
            "return_to": mc_org.depot.code,
            "results": [{"serial": f"API-{n}", "result": "ok"} for n in range(5)],
        },
        format="json",
    )
    assert check.status_code == 201 and check.json()["checker"] == mc_org["sous_directeur"].username
    assert sd.get(f"{API}dice/?status=out_of_use").json()["results"][0]["is_new"] is False
    stock = sd.get(f"{API}stock/").json()
    assert stock["book"] == stock["located"] == 5 and stock["destruction_queue"] == 5
    assert sd.get(f"{API}swaps/").json()["results"][0]["reason"] == "fell"
    assert sd.get(f"{API}checks/").json()["results"][0]["results"][0]["passed"] is True


def test_mc_destruction_and_verification_through_the_api(api, mc_org):
    dice = receive_mc(mc_org, 2)
    api(mc_org["cartier"]).post(
        f"{API}withdrawals/", {"dice": [d.serial for d in dice], "reason": "used"}, format="json"
    )
    director = api(mc_org["directeur_jeux"])
    plan = director.post(
        f"{API}destructions/new/",
        {"dice": [d.serial for d in dice], "method": "neutralisation", "planned_at": timezone.now().isoformat()},
        format="json",
    )
    assert plan.status_code == 201
    pk = plan.json()["id"]
    refused = director.post(f"{API}destructions/{pk}/complete/", {}, format="json")
    assert refused.status_code == 409 and refused.json()["code"] == "DICE-07"
    assert director.post(f"{API}destructions/{pk}/notify/", {"channel": "phone"}, format="json").status_code == 201
    notice_aged(DestructionSession.objects.get(pk=pk))
    done = director.post(
        f"{API}destructions/{pk}/complete/",
        {"inspector_username": mc_org["inspecteur"].username, "inspector_password": DEFAULT_PASSWORD},
        format="json",
    )
    assert done.status_code == 201 and done.json()["status"] == DestructionSession.Status.COMPLETED
    scj = api(mc_org["scj"])
    verification = scj.post(f"{API}verifications/", {"counted": []}, format="json")
    assert verification.status_code == 201 and verification.json()["discrepancy"] is False


def test_fr_flows_through_the_api(api, fr_org):
    director = api(fr_org["directeur_responsable"])
    supplier = director.post(
        f"{API}suppliers/",
        {"name": "Dés de France", "approval_reference": "AG-2025-3", "approved_from": "2025-01-01"},
        format="json",
    ).json()
    order = director.post(
        f"{API}orders/", {"supplier": supplier["id"], "carnet": "21-009", "quantity": 4}, format="json"
    ).json()
    refused = director.post(f"{API}orders/{order['id']}/send/", {}, format="json")
    assert refused.status_code == 409 and refused.json()["code"] == "DICE-16"
    assert director.post(f"{API}orders/{order['id']}/visa/", {}, format="json").status_code == 403
    police = api(fr_org["police"])
    assert police.post(f"{API}orders/{order['id']}/visa/", {"statement": "Vu"}, format="json").status_code == 201
    assert director.post(f"{API}orders/{order['id']}/send/", {}, format="json").status_code == 201
    dice = [
        {
            "serial": f"FR-{n}",
            "sigle": "CNI",
            "colour": colour,
            "side_mm": "21.5",
            "pair": str(n // 2),
            "inspection": PASSED,
        }
        for n, colour in enumerate(["rouge", "vert", "jaune", "bleu"])
    ]
    receipt = api(fr_org["employe_responsable"]).post(
        f"{API}receipts/", {"location": fr_org.depot.code, "order": order["id"], "dice": dice}, format="json"
    )
    assert receipt.status_code == 201 and [d["pair"] for d in receipt.json()] == [1, 1, 2, 2]
    cap = director.post(f"{API}pairs-cap/", {"max_pairs": 20, "reference": "DM 2026"}, format="json")
    assert cap.json() == {"pairs_held": 2, "pairs_max": 20}
    session = fr_org.session()
    allocation = api(fr_org["chef_table"]).post(
        f"{API}allocations/new/",
        {
            "table_session": session.pk,
            "pairs": [1, 2],
            "signer_username": fr_org["comite"].username,
            "signer_password": DEFAULT_PASSWORD,
        },
        format="json",
    )
    assert allocation.status_code == 201
    open_table(fr_org, session)
    results = [{"serial": d["serial"], "micrometer": "21.5", "square_ok": True, "balance_ok": True} for d in dice]
    check = director.post(
        f"{API}checks/new/",
        {"table_session": session.pk, "return_to": fr_org.depot.code, "results": results},
        format="json",
    )
    assert check.status_code == 409 and check.json()["code"] == "DICE-25"
    check = director.post(
        f"{API}checks/new/",
        {
            "table_session": session.pk,
            "return_to": fr_org.depot.code,
            "results": results,
            "instruments": {"micrometer": "M", "square": "E", "balance": "B"},
            "cosigner_username": fr_org["chef_table"].username,
            "cosigner_password": DEFAULT_PASSWORD,
        },
        format="json",
    )
    assert check.status_code == 201 and check.json()["cosigner_role"] == "chef_table"


def test_reads_are_scoped_to_the_users_establishments(api, mc_org, fr_org):
    receive_mc(mc_org, 2)
    receive_fr(fr_org, 1)
    mc_rows = api(mc_org["cartier"]).get(f"{API}dice/").json()["results"]
    assert {row["serial"][:3] for row in mc_rows} == {"MCB"}
    assert api(mc_org["cartier"]).get(f"{API}dice/?establishment={fr_org.est.code}").status_code == 404
