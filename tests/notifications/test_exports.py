"""The personal notices list exported in CSV (French) and XLSX (English)."""

from django.urls import reverse

from ledgers.incidents.services import incident_open
from tests.factories import open_register
from tests.spreadsheets import column, csv_rows, sheet


def test_notices_export_with_localised_headers(client, mc, user_in, django_capture_on_commit_callbacks):
    open_register(mc, "incidents")
    inspecteur, scj = user_in(mc, "inspecteur"), user_in(mc, "scj", email="scj@casino.test")
    with django_capture_on_commit_callbacks(execute=True):
        incident_open(establishment=mc, category="game", description="Coup contesté", actor=inspecteur)
    client.force_login(scj)
    page = client.get(reverse("notifications:list")).content.decode()
    assert "_export=csv" in page and "_export=xlsx" in page and "text-bg-warning" in page
    rows = csv_rows(client.get(reverse("notifications:list"), {"_export": "csv"}))
    assert rows[0] == ["Envoyée le", "Objet", "Registre", "Réception"]
    assert len(rows) == 2 and rows[1][1].startswith("Incident n°") and rows[1][3].startswith("À accuser avant le ")
    ws = sheet(client.get(reverse("notifications:list"), {"_export": "xlsx"}, HTTP_ACCEPT_LANGUAGE="en"))
    assert [cell.value for cell in ws[1]] == ["Sent on", "Subject", "Register", "Receipt"]
    assert column(ws, "Receipt")[0].startswith("To acknowledge by ")
