"""The equipment API: flows answer 201, refusals 409 with code, article and detail."""

import pytest
from rest_framework.test import APIClient

from ledgers.core.catalogue import REQUIREMENTS
from ledgers.core.roles import Role
from ledgers.equipment.models import Shoe, WheelKind
from tests.factories import DEFAULT_PASSWORD

from .conftest import receive_shoes, session, shoe_model, wheel


@pytest.fixture
def api():
    return APIClient()


def test_shoe_10_duplicate_number_through_the_api_409(api, fro):
    model = shoe_model(fro)
    api.force_authenticate(fro.users[Role.EMPLOYE_RESPONSABLE])
    body = {"model": model.pk, "location": fro.locations["armoire"].pk, "shoes": [{"number": "1", "maker_serial": "A"}]}
    response = api.post("/api/v1/equipment/shoes/receive/", body, format="json")
    assert response.status_code == 201 and response.json()[0]["number"] == "1"
    response = api.post("/api/v1/equipment/shoes/receive/", body, format="json")
    assert response.status_code == 409
    assert response.json() == {
        "code": "SHOE-10",
        "article": REQUIREMENTS["SHOE-10"].article,
        "detail": response.json()["detail"],
    }
    assert Shoe.objects.count() == 1


def test_allocation_and_reads_through_the_api(api, fro):
    (shoe,) = receive_shoes(fro, ["2"])
    pb = session(fro, "PB1")
    api.force_authenticate(fro.users[Role.DIRECTEUR_RESPONSABLE])
    response = api.post("/api/v1/equipment/shoes/allocate/", {"table_session": pb.pk, "shoe": shoe.pk}, format="json")
    assert response.status_code == 201 and response.json()["table"] == "PB1"
    assert api.get("/api/v1/equipment/allocations/").json()["results"][0]["shoe"] == "2"
    assert api.get(f"/api/v1/equipment/shoes/{shoe.pk}/").json()["status"] == "issued"
    report = api.get(
        "/api/v1/equipment/shoes/repeated-pairs/", {"date_from": "2026-01-01", "date_to": "2026-12-31", "minimum": 2}
    )
    assert report.status_code == 200 and report.json() == []


def test_api_is_scoped_to_the_establishment(api, fro, mco):
    receive_shoes(fro, ["1"])
    api.force_authenticate(mco.director)
    assert api.get("/api/v1/equipment/shoes/").json()["results"] == []
    other = Shoe.objects.get()
    assert api.get(f"/api/v1/equipment/shoes/{other.pk}/").status_code == 404


def test_wheel_flow_through_the_api(api, mco):
    api.force_authenticate(mco.director)
    response = api.post(
        "/api/v1/equipment/wheels/register/",
        {
            "number": "C9",
            "kind": WheelKind.ROULETTE_EUROPEENNE,
            "spec": {"pockets": 37, "zeros": ["0"], "obstacles": 6},
        },
        format="json",
    )
    assert response.status_code == 201
    refused = api.post(f"/api/v1/equipment/wheels/{response.json()['id']}/commission/", {}, format="json")
    assert refused.status_code == 409 and refused.json()["code"] == "WHEEL-01"
    wheel(mco, WheelKind.ROULETTE_EUROPEENNE, table="R1")
    r1 = session(mco, "R1")
    api.force_authenticate(mco.users[Role.ENTRETIEN])
    body = {
        "table_session": r1.pk,
        "points": ["Pivot"],
        "passed": True,
        "cosigner_username": mco.users[Role.INSPECTEUR].username,
        "cosigner_password": "nope",
    }
    assert api.post("/api/v1/equipment/wheel-checks/record/", body, format="json").status_code == 400
    body["cosigner_password"] = DEFAULT_PASSWORD
    response = api.post("/api/v1/equipment/wheel-checks/record/", body, format="json")
    assert response.status_code == 201 and response.json()["passed"] is True
    assert len(api.get("/api/v1/equipment/wheel-checks/").json()["results"]) == 1


def test_permission_denied_is_403(api, mco):
    api.force_authenticate(mco.users[Role.CROUPIER])
    response = api.post(
        "/api/v1/equipment/models/register/", {"kind": "shoe", "manufacturer": "X", "name": "Y"}, format="json"
    )
    assert response.status_code == 403


def test_openapi_schema_documents_the_equipment_endpoints(api, mco):
    api.force_authenticate(mco.director)
    response = api.get("/api/v1/schema/", HTTP_ACCEPT="application/json")
    assert response.status_code == 200
    assert "/api/v1/equipment/shoes/allocate/" in response.content.decode()
