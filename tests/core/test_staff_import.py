"""The staff imported from a spreadsheet, in Monaco and in France: each row an account created
with its roles (a line of the register of authorisations each), the person invited to choose their
own password where the row gives an address; a preview naming each refused row's line and column,
and nothing written while one row is refused (pages and API)."""

import datetime

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from ledgers.core.imports import IMPORTS, import_rows, read_rows
from ledgers.core.models import RolePeriod, StaffAccount
from ledgers.core.roles import Role
from ledgers.core.selectors import role_holders
from tests.core.staff import authorisation_lines, director_of

pytestmark = [pytest.mark.django_db, pytest.mark.postgresql]

HEADINGS = "identifiant;prenom;nom;courriel;roles;depuis\n"


@pytest.fixture(params=("mc", "fr"))
def house(request):
    return request.getfixturevalue(request.param)


def official(house) -> str:
    return "scj" if house.jurisdiction == "MC" else "police"


def good(house) -> str:
    return (
        HEADINGS
        + "jdupont;Jeanne;Dupont;jeanne.dupont@casino.example;inspecteur, Croupier;2019-03-12\n"
        + "pmartin;Pierre;Martin;;cartier;\n"
        + f"olivier;Olivier;Officiel;olivier@interieur.example;{official(house)};\n"
    )


def rows(text: str) -> list[dict]:
    return read_rows(name="personnel.csv", data=text.encode(), spec=IMPORTS.get("personnel"))


def run(house, actor, text: str, commit: bool):
    return import_rows(spec=IMPORTS.get("personnel"), establishment=house, actor=actor, rows=rows(text), commit=commit)


def test_each_row_creates_an_account_grants_its_roles_and_invites_the_person(
    house, mailoutbox, django_capture_on_commit_callbacks
):
    director = director_of(house)
    before = len(authorisation_lines(house))
    preview = run(house, director, good(house), commit=False)
    assert preview.accepted and not preview.written and preview.made == ["jdupont", "pmartin", "olivier"]
    assert not StaffAccount.objects.filter(establishment=house).exists()
    assert len(authorisation_lines(house)) == before
    with django_capture_on_commit_callbacks(execute=True):
        done = run(house, director, good(house), commit=True)
    assert done.written
    jeanne = StaffAccount.objects.get(user__username="jdupont").user
    assert jeanne.get_full_name() == "Jeanne Dupont" and not jeanne.has_usable_password()
    assert set(jeanne.memberships.values_list("role", flat=True)) == {Role.INSPECTEUR, Role.CROUPIER}
    # Nobody knows their password: those with an address are mailed a link, the others wait for a
    # provisional password from the staff page; all must choose their own.
    assert StaffAccount.objects.filter(establishment=house, must_set_password=True).count() == 3
    assert sorted(message.to[0] for message in mailoutbox) == [
        "jeanne.dupont@casino.example",
        "olivier@interieur.example",
    ]
    lines = authorisation_lines(house)[before:]
    assert sum('"Création d\'un compte"' in line for line in lines) == 3
    assert sum('"Attribution d\'un rôle"' in line for line in lines) == 4
    assert sum('"Invitation à choisir son mot de passe"' in line for line in lines) == 2
    # A person already in post holds the role from the day the directorate declared, and the line
    # (written now) says so.
    assert any('"valid_from": "2019-03-12"' in line and "depuis le 12/03/2019" in line for line in lines)
    assert [p.user.username for p in role_holders(house, Role.INSPECTEUR, datetime.date(2020, 1, 1))] == ["jdupont"]
    assert not role_holders(house, Role.CARTIER, datetime.date(2020, 1, 1)).exists()


def test_every_refused_row_is_named_by_line_and_column_and_nothing_is_written(house, user_in):
    director = director_of(house)
    user_in(house, Role.CROUPIER, username="pris")
    tomorrow = (house.localtime().date() + datetime.timedelta(days=1)).isoformat()
    text = (
        HEADINGS
        + "jdupont;Jeanne;Dupont;;croupier;\n"
        + "pris;Paul;Pris;;croupier;\n"  # login taken
        + "sans-nom;Sans;;;magicien;\n"  # no last name, unknown role
        + f"officiel;Olga;Officielle;;{official(house)};\n"  # an official is invited: an address is needed
        + f"futur;Fanny;Futur;;croupier;{tomorrow}\n"  # a role starts on its day, never before
        + "jdupont;Jean;Doublon;;croupier;\n"  # the same login twice in the file
        + "adresse;Ada;Dresse;pas-une-adresse;croupier;\n"
    )
    outcome = run(house, director, text, commit=True)
    assert not outcome.written
    assert sorted((p.row, p.column) for p in outcome.problems) == [
        (3, "identifiant"),
        (4, "nom"),
        (4, "roles"),
        (5, "courriel"),
        (6, "depuis"),
        (7, "identifiant"),
        (8, "courriel"),
    ]
    assert not StaffAccount.objects.filter(establishment=house).exists()
    assert not RolePeriod.objects.filter(establishment=house, user__username="jdupont").exists()


def test_staff_page_links_the_import_and_the_page_previews_then_confirms(house):
    director = director_of(house)
    client = Client()
    client.force_login(director)
    url = reverse("setup-import", kwargs={"code": "personnel"})
    assert url in client.get(reverse("staff")).content.decode()
    bad = client.post(url, {"file": SimpleUploadedFile("p.csv", (HEADINGS + "x;;;;;\n").encode())})
    assert bad.status_code == 409 and not StaffAccount.objects.filter(establishment=house).exists()
    preview = client.post(url, {"file": SimpleUploadedFile("p.csv", good(house).encode())})
    assert preview.status_code == 200 and not StaffAccount.objects.filter(establishment=house).exists()
    assert client.post(url, {"payload": preview.context["payload"]}).status_code == 302
    assert StaffAccount.objects.filter(establishment=house).count() == 3


def test_api_checks_then_imports_the_staff(house):
    api = APIClient()
    api.force_authenticate(director_of(house))
    url = "/api/v1/establishment/imports/personnel/"
    text = good(house) + "pmartin;Pierre;Martin;;cartier;\n"
    checked = api.post(url, {"file": SimpleUploadedFile("p.csv", text.encode())}, format="multipart")
    assert checked.status_code == 200 and [(p["row"], p["column"]) for p in checked.json()["problems"]] == [
        (5, "identifiant")
    ]
    done = api.post(
        url, {"file": SimpleUploadedFile("p.csv", good(house).encode()), "dry_run": False}, format="multipart"
    )
    assert done.status_code == 201 and done.json()["written"] is True
    assert StaffAccount.objects.filter(establishment=house).count() == 3


def test_the_staff_import_is_the_directorate_s(house, user_in):
    inspecteur = user_in(house, Role.INSPECTEUR)
    client = Client()
    client.force_login(inspecteur)
    assert client.get(reverse("setup-import", kwargs={"code": "personnel"})).status_code == 403
    api = APIClient()
    api.force_authenticate(inspecteur)
    refused = api.post(
        "/api/v1/establishment/imports/personnel/",
        {"file": SimpleUploadedFile("p.csv", good(house).encode())},
        format="multipart",
    )
    assert refused.status_code == 403
    assert not StaffAccount.objects.filter(establishment=house).exists()
