"""The machines' inventory file and the counts exported in CSV (French) and XLSX (English), typed
text that a spreadsheet would run as a formula kept as text."""

from django.urls import reverse

from ledgers.slots.services import counts
from tests.factories import open_register
from tests.spreadsheets import column, csv_rows, sheet


def test_machine_list_exports_with_localised_headers_and_neutralised_cells(client, mc_room):
    machine = mc_room.register_machine(machine_type="=1+1")
    client.force_login(mc_room.keeper)
    assert "_export=xlsx" in client.get(reverse("slots:machines")).content.decode()
    rows = csv_rows(client.get(reverse("slots:machines"), {"_export": "csv"}))
    assert rows[0][:3] == ["Numéro", "Type de machine", "Fabricant / série"]
    assert rows[1][:2] == [machine.number, "'=1+1"]
    ws = sheet(client.get(reverse("slots:machines"), {"_export": "xlsx"}, HTTP_ACCEPT_LANGUAGE="en"))
    assert column(ws, "Machine type") == ["'=1+1"] and column(ws, "Number") == [machine.number]


def test_count_list_exports_with_localised_headers(client, fr_room):
    open_register(fr_room.est, "slot_comptees")
    count = counts.slot_count_open(establishment=fr_room.est, kind="as_needed", actor=fr_room["comite"])
    client.force_login(fr_room["comite"])
    assert "_export=csv" in client.get(reverse("slots:counts")).content.decode()
    rows = csv_rows(client.get(reverse("slots:counts"), {"_export": "csv"}))
    assert rows == [["Journée", "Type de comptée", "Statut"], [count.day.strftime("%d/%m/%Y"), *rows[1][1:]]]
    assert rows[1][2] == str(count.get_status_display())
    ws = sheet(client.get(reverse("slots:counts"), {"_export": "xlsx"}, HTTP_ACCEPT_LANGUAGE="en"))
    assert [cell.value for cell in ws[1]] == ["Day", "Count type", "Status"] and ws.max_row == 2
