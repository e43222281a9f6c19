"""The staff and limits section of the table-partie page, and the /api/v1/tables/ endpoints."""

import html
import re

from django.urls import reverse
from rest_framework.test import APIClient

from ledgers.tables.models import StaffAssignment, TableLimits


def text(response) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", response.content.decode()))


def test_game_02_ui_log_staff_and_relief_on_the_table_partie_page(client, mcc):
    session = mcc.session("BJ1")
    client.force_login(mcc["inspecteur"])
    page = text(client.get(reverse("seance-table", kwargs={"pk": session.pk})))
    assert "Personnel de la table" in page and "GAME-02" in page and "Croupier 1, Chef de table 1" in page
    assert "Fixer les limites" not in page  # an inspecteur does not set the stakes (Direction des jeux)
    url = reverse("tables:assign", kwargs={"pk": session.pk})
    assert client.post(url, {"assign-position": "croupier", "assign-person": mcc["croupier1"].pk}).status_code == 302
    refused = client.post(url, {"assign-position": "croupier", "assign-person": mcc["croupier2"].pk})
    assert refused.status_code == 409 and "GAME-02" in text(refused)
    duty = StaffAssignment.objects.get()
    response = client.post(
        reverse("tables:relieve", kwargs={"pk": session.pk}),
        {"relief-assignment": duty.pk, "relief-person": mcc["croupier2"].pk, "relief-at_break": "on"},
    )
    assert response.status_code == 302
    page = text(client.get(reverse("seance-table", kwargs={"pk": session.pk})))
    assert "Croupier2 Test" in page and "Croupier1 Test" in page


def test_game_35_ui_limits_refused_then_set(client, frc):
    session = frc.session("TC1")
    client.force_login(frc.director)
    url = reverse("tables:limits", kwargs={"pk": session.pk})
    refused = client.post(url, {"limits-seats": 7, "limits-minimum_stake": "5", "limits-maximum_stake": "60"})
    assert refused.status_code == 409 and "GAME-35" in text(refused)
    assert not TableLimits.objects.exists()
    bad = client.post(url, {"limits-seats": "", "limits-minimum_stake": "x"})
    assert bad.status_code == 400
    assert (
        client.post(url, {"limits-seats": 7, "limits-minimum_stake": "5", "limits-maximum_stake": "50"}).status_code
        == 302
    )
    page = text(client.get(reverse("seance", kwargs={"pk": frc.seance.pk})))
    assert "5,00\xa0€" in page  # the stakes as amounts
    # The partie's page writes the stakes as amounts, in its facts and in the limits set.
    page = text(client.get(reverse("seance-table", kwargs={"pk": session.pk})))
    assert page.count("5,00\xa0€") >= 2 and page.count("50,00\xa0€") >= 2


def test_game_18_ui_rampo_limits_form_has_a_field_per_bet(client, frc):
    session = frc.session("RP1")
    client.force_login(frc.director)
    page = text(client.get(reverse("seance-table", kwargs={"pk": session.pk})))
    assert "Mise « numéros » (€)" in page and "Mise « couleurs » (€)" in page
    response = client.post(
        reverse("tables:limits", kwargs={"pk": session.pk}),
        {"limits-seats": 8, "limits-minimum_stake": "2", "limits-bet_numbers": "100"},
    )
    assert response.status_code == 409 and "GAME-18" in text(response)


def test_api_staff_relief_and_limits(frc):
    session = frc.session("UT1")
    api = APIClient()
    api.force_authenticate(frc.director)
    created = api.post(
        "/api/v1/tables/staff/",
        {"table_session": session.pk, "position": "croupier", "person": frc["croupier1"].pk},
        format="json",
    )
    assert created.status_code == 201, created.content
    duty = created.json()["id"]
    refused = api.post(
        f"/api/v1/tables/staff/{duty}/relieve/", {"person": frc["croupier2"].pk, "at_break": False}, format="json"
    )
    assert refused.status_code == 409 and refused.json()["code"] == "GAME-32"
    relieved = api.post(f"/api/v1/tables/staff/{duty}/relieve/", {"person": frc["croupier2"].pk}, format="json")
    assert relieved.status_code == 201 and relieved.json()["relief_of"] == duty
    released = api.post(f"/api/v1/tables/staff/{relieved.json()['id']}/release/")
    assert released.status_code == 200 and released.json()["ended_at"]
    listed = api.get("/api/v1/tables/staff/", {"table_session": session.pk}).json()["results"]
    assert len(listed) == 2

    refused = api.post(
        "/api/v1/tables/limits/",
        {"table_session": session.pk, "minimum_stake": "10", "maximum_stake": "150"},
        format="json",
    )
    assert refused.status_code == 409 and refused.json()["code"] == "GAME-33"
    ok = api.post(
        "/api/v1/tables/limits/",
        {"table_session": session.pk, "minimum_stake": "10", "maximum_stake": "200", "seats": 7},
        format="json",
    )
    assert ok.status_code == 201 and ok.json()["minimum_stake"] == "10.00"
    assert api.get(f"/api/v1/seances/table-sessions/{session.pk}/").json()["maximum_stake"] == "200.00"


def test_api_staff_person_of_another_establishment_is_bad_input(frc, mc, user_in):
    api = APIClient()
    api.force_authenticate(frc.director)
    response = api.post(
        "/api/v1/tables/staff/",
        {"table_session": frc.session("UT1").pk, "position": "croupier", "person": user_in(mc, "croupier").pk},
        format="json",
    )
    assert response.status_code == 400 and "person" in response.json()


def test_game_28_ui_the_garage_notice_reference_field(client, mcc):
    session = mcc.session("CF1")
    client.force_login(mcc.director)
    page = text(client.get(reverse("seance-table", kwargs={"pk": session.pk})))
    assert "Référence de l'information donnée à l'autorité concédante" in page and "Joueurs assis" in page
    refused = client.post(
        reverse("tables:limits", kwargs={"pk": session.pk}),
        {"limits-seats": 10, "limits-players": 5, "limits-minimum_stake": "100", "limits-bet_garage_from": "20000"},
    )
    assert refused.status_code == 409 and "GAME-28" in text(refused)
