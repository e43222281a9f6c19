"""The registre des clés list exported in CSV (French) and XLSX (English), typed text that a
spreadsheet would run as a formula kept as text."""

from django.urls import reverse

from tests.spreadsheets import column, csv_rows, sheet


def test_key_list_exports_with_localised_headers_and_neutralised_cells(client, mc_org):
    mc_org.key("M-1", "machine_door", home=mc_org.homes["coffre"], opens="=1+1")
    client.force_login(mc_org.admin)
    page = client.get(reverse("keys:list")).content.decode()
    assert "_export=csv" in page and "_export=xlsx" in page
    rows = csv_rows(client.get(reverse("keys:list"), {"_export": "csv"}))
    assert rows[0][:3] == ["Clé", "Type de serrure", "Ce qu'elle ouvre"]
    assert rows[1][0] == "M-1" and rows[1][2] == "'=1+1"
    ws = sheet(client.get(reverse("keys:list"), {"_export": "xlsx"}, HTTP_ACCEPT_LANGUAGE="en"))
    assert [cell.value for cell in ws[1]][:2] == ["Key", "Lock type"]
    [opens] = column(ws, "What it opens")
    assert opens == "'=1+1"
