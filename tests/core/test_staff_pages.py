"""The directorate's staff page and its API twin, in Monaco and in France: an account created with
its roles, a role granted and revoked, an account deactivated, each a line of the register of
authorisations; the roles' history page and endpoint; refusals that change nothing."""

import datetime

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from ledgers.core import accounts
from ledgers.core.authz import roles_of
from ledgers.core.models import RolePeriod
from ledgers.core.roles import Role
from tests.core.staff import authorisation_lines, director_of

pytestmark = pytest.mark.django_db


@pytest.fixture(params=("mc", "fr"))
def house(request):
    return request.getfixturevalue(request.param)


def api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_staff_page_creates_an_account_with_roles(client, house):
    director = director_of(house)
    client.force_login(director)
    response = client.post(
        reverse("staff"),
        {"username": "sbernard", "first_name": "Sophie", "last_name": "Bernard", "roles": ["cartier"]},
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    page = client.get(reverse("staff")).content.decode()
    assert "Sophie Bernard" in page and "Cartier" in page and "mot de passe à choisir" in page
    assert any("Sophie Bernard" in line for line in authorisation_lines(house))


def test_staff_page_refuses_an_account_without_a_name_and_keeps_the_input(client, house):
    client.force_login(director_of(house))
    before = len(authorisation_lines(house))
    response = client.post(reverse("staff"), {"username": "sansnom", "first_name": "", "last_name": ""})
    assert response.status_code == 200
    page = response.content.decode()
    assert "Ce champ est obligatoire" in page and 'value="sansnom"' in page
    assert len(authorisation_lines(house)) == before


def test_staff_page_grants_revokes_and_deactivates(client, house, user_in):
    director = director_of(house)
    person = user_in(house, Role.CROUPIER)
    client.force_login(director)
    assert client.post(reverse("staff-role-grant"), {"person": person.pk, "role": "chef_table"}).status_code == 302
    assert roles_of(person, house) == {"croupier", "chef_table"}
    response = client.post(reverse("staff-role-revoke"), {"person": person.pk, "role": "croupier", "reason": "promu"})
    assert response.status_code == 302
    assert roles_of(person, house) == {"chef_table"}
    response = client.post(reverse("staff-deactivate"), {"person": person.pk, "reason": "départ"})
    assert response.status_code == 302
    person.refresh_from_db()
    assert not person.is_active and roles_of(person, house) == set()
    assert RolePeriod.objects.filter(user=person, valid_until__isnull=False).count() == 2


def test_staff_page_is_the_directorates(client, house, user_in):
    client.force_login(user_in(house, Role.INSPECTEUR))
    assert client.get(reverse("staff")).status_code == 403
    assert client.post(reverse("staff"), {"username": "x", "first_name": "X", "last_name": "Y"}).status_code == 403


def test_staff_page_exports_its_list(client, house, user_in):
    user_in(house, Role.CROUPIER, first_name="Ana", last_name="Lista")
    client.force_login(director_of(house))
    response = client.get(reverse("staff"), {"_export": "csv", "_list": "personnel"})
    assert response.status_code == 200 and "Ana Lista" in response.content.decode("utf-8-sig")


def test_history_page_answers_who_held_a_role_on_a_day_and_what_a_person_held(client, house, user_in):
    director = director_of(house)
    person = user_in(house, Role.INSPECTEUR, first_name="Inès", last_name="Pecteur")
    accounts.role_revoke(establishment=house, user=person, role=Role.INSPECTEUR, actor=director)
    client.force_login(director)
    today = house.localtime().date()
    table = lambda answer: answer.content.decode().split('id="role-periods"')[1]  # noqa: E731
    page = table(client.get(reverse("staff-history"), {"role": "inspecteur", "day": today.isoformat()}))
    assert "Inès Pecteur" in page
    tomorrow = (today + datetime.timedelta(days=1)).isoformat()
    page = table(client.get(reverse("staff-history"), {"role": "inspecteur", "day": tomorrow}))
    assert "Inès Pecteur" not in page
    page = table(client.get(reverse("staff-history"), {"person": person.pk}))
    assert "Inès Pecteur" in page and "Inspecteur" in page
    export = client.get(reverse("staff-history"), {"person": person.pk, "_export": "csv", "_list": "habilitations"})
    assert "Inès Pecteur" in export.content.decode("utf-8-sig")


def test_history_page_is_open_to_the_authorities(client, house, user_in):
    authority = Role.COMMISSAIRE if house.jurisdiction == "MC" else Role.POLICE
    client.force_login(user_in(house, authority))
    assert client.get(reverse("staff-history")).status_code == 200
    client.force_login(user_in(house, Role.CROUPIER))
    assert client.get(reverse("staff-history")).status_code == 403


# --- The API twin ---------------------------------------------------------------------------------


def test_api_creates_grants_revokes_deactivates_and_lists(house):
    director = director_of(house)
    client = api(director)
    created = client.post(
        "/api/v1/staff/people/",
        {"username": "apiuser", "first_name": "Api", "last_name": "User", "roles": ["croupier"]},
        format="json",
    )
    assert created.status_code == 201, created.content
    pk = created.json()["id"]
    assert created.json()["roles"] == ["croupier"] and created.json()["must_set_password"]
    granted = client.post(f"/api/v1/staff/people/{pk}/roles/", {"role": "chef_table"}, format="json")
    assert granted.status_code == 200 and granted.json()["roles"] == ["chef_table", "croupier"]
    again = client.post(f"/api/v1/staff/people/{pk}/roles/", {"role": "chef_table"}, format="json")
    assert again.status_code == 400
    revoked = client.post(f"/api/v1/staff/people/{pk}/roles/revoke/", {"role": "croupier"}, format="json")
    assert revoked.status_code == 200 and revoked.json()["roles"] == ["chef_table"]
    listed = client.get("/api/v1/staff/people/").json()["results"]
    assert "apiuser" in [p["username"] for p in listed]
    periods = client.get("/api/v1/staff/role-periods/", {"user": pk}).json()["results"]
    assert sorted((p["role"], p["valid_until"] is None) for p in periods) == [
        ("chef_table", True),
        ("croupier", False),
    ]
    today = house.localtime().date().isoformat()
    holders = client.get("/api/v1/staff/role-periods/", {"role": "croupier", "on": today}).json()["results"]
    assert [p["username"] for p in holders] == ["apiuser"]
    deactivated = client.post(f"/api/v1/staff/people/{pk}/deactivate/", {"reason": "départ"}, format="json")
    assert deactivated.status_code == 200 and deactivated.json()["is_active"] is False
    assert deactivated.json()["roles"] == []


def test_api_refuses_a_nameless_account_and_other_roles(house, user_in):
    director = director_of(house)
    refused = api(director).post(
        "/api/v1/staff/people/", {"username": "x", "first_name": "", "last_name": "Y"}, format="json"
    )
    assert refused.status_code == 400
    assert api(user_in(house, Role.CROUPIER)).get("/api/v1/staff/people/").status_code == 403
    assert (
        api(user_in(house, Role.CROUPIER)).get("/api/v1/staff/role-periods/", {"user": director.pk}).status_code == 403
    )
    assert api(director).get("/api/v1/staff/role-periods/").status_code == 400
