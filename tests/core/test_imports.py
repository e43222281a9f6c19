"""Spreadsheets of the set-up: every row through the service of its page, a preview naming each
refused row's line, column and message before anything is written, and nothing written while
one row is refused (pages and API)."""

import io

import openpyxl
import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from ledgers.core.imports import IMPORTS, import_rows, read_rows
from ledgers.core.models import GamingTable, Location, Room
from ledgers.core.roles import Role
from ledgers.core.services import room_create
from tests.factories import EstablishmentFactory, make_user, record_arrete

pytestmark = [pytest.mark.django_db, pytest.mark.postgresql]

LOCATIONS_BAD = (
    "code;nom;type;salle\n"
    "depot;Dépôt principal;depot_principal;\n"
    "armoire;Armoire;placard;nulle-part\n"
    "coffre;Coffre;Coffre d'exploitation;europe\n"
)
LOCATIONS_GOOD = "code;nom;type;salle\ndepot;Dépôt principal;depot_principal;\ncoffre;Coffre;coffre;europe\n"


@pytest.fixture
def fr():
    return EstablishmentFactory(code="fr-imports", jurisdiction="FR")


@pytest.fixture
def director(fr):
    director = make_user(fr, Role.DIRECTEUR_RESPONSABLE, username="directeur-imports")
    room_create(establishment=fr, code="europe", name="Salle Europe", actor=director)
    return director


def rows(spec_code: str, text: str) -> list[dict]:
    return read_rows(name="f.csv", data=text.encode(), spec=IMPORTS.get(spec_code))


def xlsx(lines: list[list]) -> bytes:
    book = openpyxl.Workbook()
    for line in lines:
        book.active.append(line)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def test_a_bad_row_is_named_by_line_and_column_and_nothing_is_written(fr, director):
    outcome = import_rows(
        spec=IMPORTS.get("emplacements"),
        establishment=fr,
        actor=director,
        rows=rows("emplacements", LOCATIONS_BAD),
        commit=True,
    )
    assert not outcome.written
    assert {(p.row, p.column) for p in outcome.problems} == {(3, "type"), (3, "salle")}
    assert not Location.objects.filter(establishment=fr).exists()


def test_a_preview_writes_nothing_and_the_confirmed_file_writes_every_row(fr, director):
    spec = IMPORTS.get("emplacements")
    preview = import_rows(
        spec=spec, establishment=fr, actor=director, rows=rows("emplacements", LOCATIONS_GOOD), commit=False
    )
    assert preview.accepted and not preview.written and len(preview.made) == 2
    assert not Location.objects.filter(establishment=fr).exists()
    done = import_rows(
        spec=spec, establishment=fr, actor=director, rows=rows("emplacements", LOCATIONS_GOOD), commit=True
    )
    assert done.written
    assert set(Location.objects.filter(establishment=fr).values_list("code", flat=True)) == {"depot", "coffre"}
    assert Location.objects.get(code="coffre").room.code == "europe"


def test_a_row_repeating_an_earlier_one_is_refused(fr, director):
    text = "code;nom\nsalon;Salon\nsalon;Salon bis\n"
    outcome = import_rows(
        spec=IMPORTS.get("salles"), establishment=fr, actor=director, rows=rows("salles", text), commit=True
    )
    assert [(p.row, p.column) for p in outcome.problems] == [(3, "code")]
    assert not Room.objects.filter(code="salon").exists()


def test_auth_01_tables_beyond_the_arrete_are_refused_row_by_row(fr, director):
    record_arrete(fr, {"blackjack": 1}, actor=director)
    text = "salle;numero;jeu;places\neurope;BJ1;blackjack;7\neurope;BJ2;BLACKJACK;7\n"
    outcome = import_rows(
        spec=IMPORTS.get("tables"), establishment=fr, actor=director, rows=rows("tables", text), commit=True
    )
    assert [(p.row, p.code) for p in outcome.problems] == [(3, "AUTH-01")], outcome.problems
    assert not GamingTable.objects.filter(establishment=fr).exists()
    good = import_rows(
        spec=IMPORTS.get("tables"),
        establishment=fr,
        actor=director,
        rows=rows("tables", "salle;numero;jeu\neurope;BJ1;blackjack\n"),
        commit=True,
    )
    assert good.written and GamingTable.objects.get(establishment=fr).number == "BJ1"


def test_headings_that_are_not_the_spec_s_refuse_the_file():
    with pytest.raises(Exception, match="inconnus : kind"):
        rows("emplacements", "code;nom;kind\nx;X;coffre\n")


def test_xlsx_is_read_like_csv(fr, director):
    data = xlsx(
        [["code", "nom", "type", "salle"], ["depot", "Dépôt", "depot_principal", None], [None, None, None, None]]
    )
    read = read_rows(name="lieux.xlsx", data=data, spec=IMPORTS.get("emplacements"))
    assert read == [{"code": "depot", "nom": "Dépôt", "type": "depot_principal", "salle": ""}]


def test_page_preview_then_confirm(fr, director):
    client = Client()
    client.force_login(director)
    url = reverse("setup-import", kwargs={"code": "emplacements"})
    assert client.get(url).status_code == 200
    bad = client.post(url, {"file": SimpleUploadedFile("lieux.csv", LOCATIONS_BAD.encode())})
    assert bad.status_code == 409
    page = bad.content.decode()
    assert "rien n&#x27;a été enregistré" in page or "rien n'a été enregistré" in page
    assert 'name="payload"' not in page
    assert not Location.objects.filter(establishment=fr).exists()
    good = client.post(url, {"file": SimpleUploadedFile("lieux.csv", LOCATIONS_GOOD.encode())})
    assert good.status_code == 200 and not Location.objects.filter(establishment=fr).exists()
    payload = good.context["payload"]
    confirmed = client.post(url, {"payload": payload})
    assert confirmed.status_code == 302
    assert Location.objects.filter(establishment=fr).count() == 2
    assert client.post(url, {"payload": payload + "x"}).status_code == 400


def test_api_checks_then_imports(fr, director):
    api = APIClient()
    api.force_authenticate(director)
    url = "/api/v1/establishment/imports/emplacements/"
    checked = api.post(url, {"file": SimpleUploadedFile("l.csv", LOCATIONS_BAD.encode())}, format="multipart")
    assert checked.status_code == 200 and {p["row"] for p in checked.json()["problems"]} == {3}
    refused = api.post(
        url, {"file": SimpleUploadedFile("l.csv", LOCATIONS_BAD.encode()), "dry_run": False}, format="multipart"
    )
    assert refused.status_code == 400 and refused.json()["problems"][0]["row"] == 3
    assert refused.json()["written"] is False
    assert not Location.objects.filter(establishment=fr).exists()
    done = api.post(
        url, {"file": SimpleUploadedFile("l.csv", LOCATIONS_GOOD.encode()), "dry_run": False}, format="multipart"
    )
    assert done.status_code == 201 and done.json()["written"] is True
    assert Location.objects.filter(establishment=fr).count() == 2
    assert api.post("/api/v1/establishment/imports/nothing/", {}, format="multipart").status_code in (400, 404)


def test_imports_are_the_directorate_s(fr, director):
    croupier = make_user(fr, Role.CROUPIER)
    client = Client()
    client.force_login(croupier)
    assert client.get(reverse("setup-import", kwargs={"code": "salles"})).status_code == 403
