"""The séances list exported in CSV (French) and XLSX (English)."""

import datetime

from django.urls import reverse

from ledgers.core.services import seance_open
from tests.factories import open_seance_registers
from tests.spreadsheets import column, csv_rows, sheet


def test_seances_export_with_localised_headers(client, mc, user_in):
    director = user_in(mc, "directeur_jeux")
    open_seance_registers(mc)
    seance_open(establishment=mc, date=datetime.date(2026, 11, 3), period="soiree", actor=director)
    client.force_login(director)
    page = client.get(reverse("seances")).content.decode()
    assert "_export=csv" in page and "_export=xlsx" in page and "status-open" in page
    rows = csv_rows(client.get(reverse("seances"), {"_export": "csv"}))
    assert rows[0] == ["Date", "Période", "Statut", "Ouverte le", "Clôturée le"]
    assert rows[1][2] == "Ouverte" and rows[1][4] == "—"
    ws = sheet(client.get(reverse("seances"), {"_export": "xlsx"}, HTTP_ACCEPT_LANGUAGE="en"))
    assert [cell.value for cell in ws[1]] == ["Date", "Period", "Status", "Opened at", "Closed at"]
    assert column(ws, "Status") == ["Open"]
