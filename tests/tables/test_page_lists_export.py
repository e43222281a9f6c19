"""A working page's lists export as the page shows them: the séance's parties, in the reader's
language, the acts column left out, a formula sign written as text."""

from django.urls import reverse

from tests.factories import GamingTableFactory
from tests.spreadsheets import csv_rows, sheet


def test_a_seance_page_exports_its_parties_as_shown(client, mcc):
    mcc.tables["=1+1"] = GamingTableFactory(
        establishment=mcc.est, room=mcc.tables["BJ1"].room, number="=1+1", game="blackjack", seats=7
    )
    for number in ("BJ1", "PB1", "=1+1"):
        mcc.session(number)
    client.force_login(mcc.director)
    url = reverse("seance", args=[mcc.seance.pk])
    page = client.get(url).content.decode()
    assert "_list=parties" in page and "Ouvrir la table" in page

    rows = csv_rows(client.get(url, {"_export": "csv", "_list": "parties"}))
    assert rows[0] == ["Table", "Jeu", "Statut", "Mise minimale", "Mise maximale"]
    assert sorted(row[0] for row in rows[1:]) == ["'=1+1", "BJ1", "PB1"]
    assert {row[2] for row in rows[1:]} == {"En préparation"}
    assert not any("Ouvrir la table" in cell for row in rows for cell in row)

    ws = sheet(client.get(url, {"_export": "xlsx", "_list": "parties"}, HTTP_ACCEPT_LANGUAGE="en"))
    assert [cell.value for cell in ws[1]][:3] == ["Table", "Game", "Status"] and ws.max_row == 4

    assert client.get(url, {"_export": "csv", "_list": "unknown"}).status_code == 404
