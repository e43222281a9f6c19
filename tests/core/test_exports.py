"""CSV and XLSX exports of registers and lists: the active language, and cells a spreadsheet would
run as formulas written as text."""

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone, translation

from ledgers.core.exports import dataset, neutralise
from ledgers.registers import services
from tests.registers.ui_setup import main_courante, monaco_cast
from tests.spreadsheets import csv_rows, sheet

FORMULA = '=HYPERLINK("http://evil","x")'


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("=1+1", "'=1+1"),
        ("+33 cmd", "'+33 cmd"),
        ("-2+3", "'-2+3"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\tx", "'\tx"),
        ("\rx", "'\rx"),
        ("-12,50", "-12,50"),  # a number stays a number
        ("1 200.00", "1 200.00"),
        ("Sabot n° 4", "Sabot n° 4"),
        (42, 42),
        (None, None),
    ],
)
def test_neutralise(value, expected):
    assert neutralise(value) == expected


def test_yes_and_no_are_written_in_the_reader_s_language():
    """A boolean, or the text a table's boolean column exports, is written in words."""
    with translation.override("fr"):
        assert dataset(["Conforme", "Complet"], [[True, "False"]])[0] == ("Oui", "Non")
    with translation.override("en"):
        assert dataset(["Conforme", "Complet"], [[False, "True"]])[0] == ("No", "Yes")


def test_a_moment_is_written_on_the_local_clock_in_both_formats():
    moment = datetime.datetime(2026, 3, 2, 9, 30, tzinfo=datetime.UTC)
    data = dataset(["Le"], [[moment]])
    assert data[0][0] == timezone.localtime(moment).replace(tzinfo=None)
    assert data.export("xlsx") and data.export("csv")


@pytest.fixture
def register(mc, user_in):
    cast = monaco_cast(mc, user_in)
    register = main_courante(mc, cast, entries=2)
    services.entries_bulk_append(
        register=register,
        actor=cast.writer,
        role="inspecteur",
        payloads=[{"event_at": "2026-03-02 10:00", "subject": FORMULA, "text": "@SUM(1)"}],
    )
    register.refresh_from_db()
    return register, cast


def test_register_entries_csv_in_french_with_formulas_as_text(client, register):
    register, cast = register
    client.force_login(cast.visa)
    response = client.get(reverse("registers:export", args=[register.number, "csv"]))
    assert response.status_code == 200 and 'filename="' in response["Content-Disposition"]
    rows = csv_rows(response)
    assert rows[0][:5] == ["N°", "Inscrit le", "Par", "Rôle", "Nature"] and rows[0][-1] == "Empreinte"
    assert [row[0] for row in rows[1:]] == ["1", "2", "3", "4"]
    last = rows[-1]
    assert "'" + FORMULA in last and "'@SUM(1)" in last
    assert last[-1] == register.entries.get(seq=4).entry_hash


def test_register_entries_xlsx_in_english_keeps_text_cells(client, register):
    register, cast = register
    client.force_login(cast.visa)
    response = client.get(reverse("registers:export", args=[register.number, "xlsx"]), HTTP_ACCEPT_LANGUAGE="en")
    ws = sheet(response)
    assert [cell.value for cell in ws[1]][:3] == ["No.", "Recorded at", "By"]
    cells = [cell for cell in ws[ws.max_row] if cell.value == "'" + FORMULA]
    assert cells and cells[0].data_type == "s"  # a string, not a formula
    assert ws.max_row == 5


def test_register_export_is_scoped_and_refuses_unknown_formats(client, register, fr, user_in):
    register, cast = register
    client.force_login(user_in(fr, "police"))
    assert client.get(reverse("registers:export", args=[register.number, "csv"])).status_code == 404
    client.force_login(cast.visa)
    assert client.get(reverse("registers:export", args=[register.number, "ods"])).status_code == 404


def test_register_list_exports_all_filtered_rows(client, register, django_assert_max_num_queries):
    register, cast = register
    client.force_login(cast.director)
    page = client.get(reverse("registers:list")).content.decode()
    assert "_export=csv" in page and "_export=xlsx" in page
    with django_assert_max_num_queries(12):
        response = client.get(reverse("registers:list"), {"_export": "csv"})
    rows = csv_rows(response)
    listed = [row[0] for row in rows[1:] if "-HABILITATIONS-" not in row[0]]  # beside the staff's roles
    assert rows[0][0] == "Numéro" and listed == [register.number]
    ws = sheet(client.get(reverse("registers:list"), {"_export": "xlsx"}))
    assert register.number in {ws.cell(row=row, column=1).value for row in (2, 3)}


def test_incident_list_exports_every_incident_with_formulas_as_text(client, mc, user_in):
    from ledgers.incidents.services import incident_open
    from tests.factories import open_register

    open_register(mc, "incidents")
    director = user_in(mc, "directeur_jeux")
    for n in range(3):
        incident_open(establishment=mc, category="game", description=f"=1+{n}", actor=director)
    client.force_login(director)
    assert "_export=xlsx" in client.get(reverse("incidents:list")).content.decode()
    rows = csv_rows(client.get(reverse("incidents:list"), {"_export": "csv"}))
    assert rows[0] == ["Incident", "Exigence", "Constaté le", "Constaté par", "Description", "Statut"]
    assert sorted(row[4] for row in rows[1:]) == ["'=1+0", "'=1+1", "'=1+2"]
    ws = sheet(client.get(reverse("incidents:list"), {"_export": "xlsx"}, HTTP_ACCEPT_LANGUAGE="en"))
    assert ws.cell(row=1, column=2).value == "Requirement" and ws.max_row == 4


def test_register_export_writes_values_as_the_printed_register(client, register):
    """Dates, amounts, lists and roles as a reader writes them, in the language asked."""
    register, cast = register
    services.entries_bulk_append(
        register=register,
        actor=cast.writer,
        role="inspecteur",
        payloads=[{"event_at": "2026-10-27", "subject": ["BJ1", "BJ2"], "text": "Remis 1000.00 € au caissier"}],
    )
    client.force_login(cast.visa)
    french = csv_rows(client.get(reverse("registers:export", args=[register.number, "csv"])))[-1]
    assert french[3] == "Inspecteur" and "27/10/2026" in french and "BJ1, BJ2" in french
    assert any(cell.startswith("Remis 1") and cell.endswith("000,00 € au caissier") for cell in french)
    english = [
        cell.value
        for cell in sheet(
            client.get(reverse("registers:export", args=[register.number, "xlsx"]), HTTP_ACCEPT_LANGUAGE="en")
        )[6]
    ]
    assert "27 Oct 2026" in english and "Remis 1,000.00 € au caissier" in english


def test_the_visa_page_exports_the_entries_it_would_cover(client, register):
    register, cast = register
    services.visa_sign(register=register, actor=cast.visa, up_to_seq=2, statement="Vu")
    client.force_login(cast.visa)
    page = client.get(reverse("registers:visa", args=[register.number])).content.decode()
    covered = reverse("registers:export", args=[register.number, "csv"]) + "?after=2"
    assert covered in page
    rows = csv_rows(client.get(covered))
    assert [row[0] for row in rows[1:]] == ["3", "4", "5"]
    assert [row[0] for row in csv_rows(client.get(covered.replace("?after=2", "")))[1:]] == ["1", "2", "3", "4", "5"]
