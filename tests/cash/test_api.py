"""The table cash API: each flow through its endpoint; refusals answer 409 with code and article."""

import pytest
from rest_framework.test import APIClient

from ledgers.cash.models import ControlDay, SlipBook, TableCount
from ledgers.core.roles import Role
from tests.cash.conftest import changeur_box, fr_avance
from tests.factories import DEFAULT_PASSWORD

API = "/api/v1/cash/"
PLAQUES = [{"value": "1000", "quantity": 150, "kind": "plaque"}]


@pytest.fixture
def api():
    def as_user(user):
        client = APIClient()
        client.force_authenticate(user)
        return client

    return as_user


def test_count_12_float_below_the_minimum_answers_409_with_code_and_article(api, fro):
    session = fro.session("RA1", stake="20")
    client = api(fro.director)
    body = {
        "table_session": session.pk,
        "breakdown": PLAQUES,
        "box_number": "RA1",
        "counted_by": "C",
        "called_aloud": True,
    }
    response = client.post(f"{API}floats/", body, format="json")
    assert response.status_code == 409
    assert response.json()["code"] == "COUNT-12" and "art. 23 (49)" in response.json()["article"]
    body["breakdown"] = [{"value": "1000", "quantity": 300, "kind": "plaque"}]
    response = client.post(f"{API}floats/", body, format="json")
    assert response.status_code == 201 and response.json()["required"] == "300000.00"


def test_slips_counts_and_control_day_through_the_api(api, fro):
    seance = fro.seance()
    poker = fro.session("TH1", seance=seance)
    changeur_box(fro, poker)
    book = api(fro.director).post(
        f"{API}slip-books/",
        {"kind": SlipBook.Kind.RAVITAILLEMENT, "number": "B-7", "first_number": 1, "last_number": 25},
        format="json",
    )
    assert book.status_code == 201
    slip = {
        "book": book.json()["id"],
        "number": 1,
        "table_session": poker.pk,
        "requested": [{"value": "100", "quantity": 50}],
        "handed": [{"value": "500", "quantity": 10, "kind": "billet"}],
    }
    changeur = api(fro[Role.CHANGEUR])
    assert changeur.post(f"{API}slips/", slip, format="json").json()["code"] == "COUNT-29"
    created = changeur.post(
        f"{API}slips/",
        {**slip, "supervisor_username": fro[Role.COMITE].username, "supervisor_password": DEFAULT_PASSWORD},
        format="json",
    )
    assert created.status_code == 201, created.json()
    served = api(fro[Role.CAISSIER]).post(
        f"{API}slips/{created.json()['id']}/serve/", {"desk": fro.desk.code}, format="json"
    )
    assert served.status_code == 201 and served.json()["status"] == "served"
    session = fro.session("RA1", seance=seance)
    fr_avance(fro, session)
    fro.close(session)
    first = api(fro[Role.CROUPIER]).post(
        f"{API}counts/",
        {"table_session": session.pk, "breakdown": PLAQUES, "present": ["C"], "called_aloud": True, "tips": "0"},
        format="json",
    )
    assert first.status_code == 201 and first.json()["first_total"] is None  # blind until both are in
    second = api(fro[Role.CAISSIER]).post(
        f"{API}counts/", {"table_session": session.pk, "breakdown": PLAQUES}, format="json"
    )
    assert second.json()["status"] == TableCount.Status.AGREED
    signed = {"words": "exact", "password": DEFAULT_PASSWORD}
    refused = api(fro[Role.CAISSIER_PRINCIPAL]).post(
        f"{API}counts/{second.json()['id']}/certify/", signed, format="json"
    )
    assert refused.status_code == 409 and refused.json()["code"] == "COUNT-15"
    unsigned = api(fro[Role.COMITE]).post(
        f"{API}counts/{second.json()['id']}/certify/", {**signed, "password": "faux"}, format="json"
    )
    assert unsigned.status_code == 400 and "password" in unsigned.json()  # REG-28: a signature re-authenticates
    certified = api(fro[Role.COMITE]).post(f"{API}counts/{second.json()['id']}/certify/", signed, format="json")
    assert certified.status_code == 201 and certified.json()["result"] == "0.00"
    day = api(fro[Role.CAISSIER_PRINCIPAL]).post(f"{API}control-days/", {"date": fro.day.isoformat()}, format="json")
    assert day.status_code == 201 and day.json()["total_words"] == "zéro euro"
    for user in (fro.director, fro[Role.COMITE]):
        visa = api(user).post(
            f"{API}control-days/{day.json()['id']}/visa/", {"password": DEFAULT_PASSWORD}, format="json"
        )
        assert visa.status_code == 201
    assert ControlDay.objects.get().status == ControlDay.Status.VISAED
