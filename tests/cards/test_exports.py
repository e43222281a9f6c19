"""The card purchase orders and destructions exported in CSV (French) and XLSX (English), typed
text that a spreadsheet would run as a formula kept as text."""

from django.urls import reverse
from django.utils import timezone

from ledgers.cards import services
from ledgers.cards.domains import CARDS
from ledgers.custody import services as custody
from tests.spreadsheets import column, csv_rows, sheet


def test_card_orders_export_with_localised_headers_and_neutralised_cells(client, mcw):
    supplier = custody.supplier_register(establishment=mcw.est, domain=CARDS, name="@SUM(1)", actor=mcw.director)
    custody.purchase_order_issue(
        establishment=mcw.est,
        domain=CARDS,
        supplier=supplier,
        actor=mcw.director,
        lines=[{"category": "sixain", "quantity": 2}],
    )
    client.force_login(mcw.director)
    assert "_export=xlsx" in client.get(reverse("cards:orders")).content.decode()
    rows = csv_rows(client.get(reverse("cards:orders"), {"_export": "csv"}))
    assert rows[0][:4] == ["Bon", "Établi le", "Fournisseur", "Désignation et quantités"] and "Visé par" in rows[0]
    assert [row[2] for row in rows[1:]] == ["'@SUM(1)"]
    ws = sheet(client.get(reverse("cards:orders"), {"_export": "xlsx"}, HTTP_ACCEPT_LANGUAGE="en"))
    assert column(ws, "Supplier") == ["'@SUM(1)"]
    assert None not in [cell.value for cell in ws[1]]  # the actions column is not exported


def test_card_destructions_export_with_localised_headers_and_neutralised_cells(client, mcw):
    (unit,) = mcw.receive(mcw.spec(unit_type="jeu", serial="=2+2"))
    services.cards_withdraw(units=[unit], status="out_of_use", reason="usé", actor=mcw.cartier)
    session = services.cards_destruction_plan(
        establishment=mcw.est, units=[unit], method="destruction", planned_at=timezone.now(), actor=mcw.director
    )
    custody.destruction_notify(session=session, channel="courriel", reference="=2+2", actor=mcw.director)
    client.force_login(mcw.director)
    assert "_export=csv" in client.get(reverse("cards:destructions")).content.decode()
    rows = csv_rows(client.get(reverse("cards:destructions"), {"_export": "csv"}))
    assert rows[0][:3] == ["Séance", "Mode", "Statut"] and rows[0][-1] == "Unités"
    reference = rows[0].index("Référence de l'information")
    assert rows[1][reference] == "'=2+2" and rows[1][-1] == "Jeu de 52 cartes n° =2+2"
    ws = sheet(client.get(reverse("cards:destructions"), {"_export": "xlsx"}, HTTP_ACCEPT_LANGUAGE="en"))
    assert column(ws, "Reference of the information") == ["'=2+2"] and len(column(ws, "Units")) == 1


def test_card_exceptions_export_with_localised_headers_and_neutralised_cells(client, mcw):
    mcw.receive(mcw.spec(unit_type="jeu", serial="=2+2"))  # no purchase order: CARD-03 (flag)
    client.force_login(mcw.inspecteur)
    page = client.get(reverse("cards:exceptions")).content.decode()
    assert "_export=csv" in page and "_export=xlsx" in page and "CARD-03" in page
    rows = csv_rows(client.get(reverse("cards:exceptions"), {"_export": "csv"}))
    assert rows[0] == ["Exigence", "Article", "Date", "Objet", "Signalement"]
    [received] = [row for row in rows[1:] if row[0] == "CARD-03"]
    assert received[1] == "AM 88-384 art. 1 al. 1" and received[3] == "'=2+2"
    ws = sheet(client.get(reverse("cards:exceptions"), {"_export": "xlsx"}, HTTP_ACCEPT_LANGUAGE="en"))
    assert [cell.value for cell in ws[1]] == ["Requirement", "Article", "Date", "Subject", "Flag"]
    assert "'=2+2" in column(ws, "Subject")
