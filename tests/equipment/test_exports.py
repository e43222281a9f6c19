"""The sabots' destructions exported in CSV (French) and XLSX (English), a typed serial that a
spreadsheet would run as a formula kept as text."""

from django.urls import reverse

from ledgers.core.roles import Role
from ledgers.custody import services as custody
from ledgers.custody.models import DestructionSession
from ledgers.equipment import services
from ledgers.equipment.domains import SHOES
from tests.spreadsheets import column, csv_rows, sheet

from .conftest import receive_shoes


def test_shoe_destructions_export_with_localised_headers_and_neutralised_cells(client, fro):
    (shoe,) = receive_shoes(fro, ["=3+3"])
    services.shoe_withdraw(shoe=shoe, actor=fro.users[Role.EMPLOYE_RESPONSABLE], reason="Fendu")
    session = custody.destruction_plan(
        domain=SHOES,
        establishment=fro.est,
        method=DestructionSession.Method.DESTRUCTION,
        planned_at=shoe.received_at,
        items=[shoe],
        actor=fro.director,
    )
    custody.destruction_notify(session=session, channel="courriel", reference="=3+3", actor=fro.director)
    client.force_login(fro.director)
    assert "_export=xlsx" in client.get(reverse("equipment:destruction_list")).content.decode()
    rows = csv_rows(client.get(reverse("equipment:destruction_list"), {"_export": "csv"}))
    assert rows[0][:3] == ["Séance", "Mode", "Statut"] and rows[0][-1] == "Sabots"
    reference = rows[0].index("Référence de l'information")
    assert rows[1][reference] == "'=3+3" and rows[1][-1] == "Sabot n° =3+3"
    ws = sheet(client.get(reverse("equipment:destruction_list"), {"_export": "xlsx"}, HTTP_ACCEPT_LANGUAGE="en"))
    assert column(ws, "Reference of the information") == ["'=3+3"] and column(ws, "Shoes") == ["Sabot n° =3+3"]
