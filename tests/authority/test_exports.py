"""The prior declarations and the approved bankers exported in CSV (French) and XLSX (English),
typed text that a spreadsheet would run as a formula kept as text; the links left out."""

import datetime

from django.urls import reverse
from django.utils import timezone

from ledgers.authority import services
from ledgers.authority.models import Declaration
from ledgers.custody.domains import get_domain
from ledgers.custody.services import supplier_register
from tests.factories import open_register
from tests.spreadsheets import column, csv_rows, sheet


def test_declarations_export_with_localised_headers_and_neutralised_cells(client, fro):
    open_register(fro.est, "declarations_prealables")
    open_register(fro.est, "informations_autorites")  # each recipient a line (AUTH-06)
    sent = timezone.localdate()
    services.declaration_record(
        establishment=fro.est,
        actor=fro.directeur_responsable,
        operation="6",
        details="=1+1",
        sent_on=sent,
        recipients=Declaration.Recipient.values,
        proof="LRAR 1A 234 567 8901 2",
        implementation_date=sent + datetime.timedelta(days=15),
    )
    client.force_login(fro.directeur_responsable)
    page = client.get(reverse("authority:declarations")).content.decode()
    assert "_export=csv" in page and "_export=xlsx" in page and "Inscrire la suite" in page
    assert "=1+1" not in page  # the detail is in the files only
    rows = csv_rows(client.get(reverse("authority:declarations"), {"_export": "csv"}))
    assert rows[0] == ["N°", "Opération", "Envoyée le", "Mise en œuvre le", "Suite", "Détail"]
    assert rows[1][0] == "1" and rows[1][4] == "Sans suite enregistrée" and rows[1][5] == "'=1+1"
    ws = sheet(client.get(reverse("authority:declarations"), {"_export": "xlsx"}, HTTP_ACCEPT_LANGUAGE="en"))
    assert column(ws, "Detail") == ["'=1+1"] and column(ws, "Follow-up")[0].startswith("No follow-up")


def test_bankers_export_with_localised_headers_and_neutralised_cells(client, mco):
    open_register(mco.est, "banquiers_agrees")
    services.banker_approve(
        establishment=mco.est,
        actor=mco.directeur_jeux,
        full_name="@SUM(1)",
        birth_date=datetime.date(1970, 5, 1),
        identity_document="Passeport 12AB34",
        approved_on=timezone.localdate(),
    )
    client.force_login(mco.directeur_jeux)
    page = client.get(reverse("authority:bankers")).content.decode()
    assert "_export=xlsx" in page and "Retirer l&#x27;agrément" in page
    rows = csv_rows(client.get(reverse("authority:bankers"), {"_export": "csv"}))
    assert rows[0] == ["N°", "Nom et prénoms", "Agréé le", "Agréé par", "Agrément retiré le"]
    assert rows[1][1] == "'@SUM(1)" and rows[1][4] == ""
    ws = sheet(client.get(reverse("authority:bankers"), {"_export": "xlsx"}, HTTP_ACCEPT_LANGUAGE="en"))
    assert column(ws, "Full name") == ["'@SUM(1)"]


def test_approvals_export_with_localised_headers_and_neutralised_cells(client, fro):
    open_register(fro.est, "materiel_jeu")
    open_register(fro.est, "bons_commande", "cards")  # where a maker and its approval are written
    supplier_register(
        establishment=fro.est,
        domain=get_domain("cards"),
        name="Cartamundi",
        actor=fro.directeur_responsable,
        approval_reference="=1+1",
        approval_issuer="Ministre de l'intérieur",
        approved_until=timezone.localdate() + datetime.timedelta(days=400),
    )
    client.force_login(fro.directeur_responsable)
    page = client.get(reverse("authority:approvals")).content.decode()
    assert "_export=csv" in page and "_export=xlsx" in page
    rows = csv_rows(client.get(reverse("authority:approvals"), {"_export": "csv"}))
    assert rows[0] == ["Agrément", "Objet", "Référence de l'agrément", "Autorité d'agrément", "Du", "Au", "Statut"]
    [row] = [row for row in rows[1:] if row[1] == "Cartamundi (Cartes)"]
    assert row[2] == "'=1+1" and row[6] == "En vigueur"
    ws = sheet(client.get(reverse("authority:approvals"), {"_export": "xlsx"}, HTTP_ACCEPT_LANGUAGE="en"))
    assert [cell.value for cell in ws[1]][:3] == ["Approval", "Subject", "Approval reference"]
    assert "'=1+1" in column(ws, "Approval reference")


def test_police_registers_export_each_register_with_formulas_as_text(client, fro, police_registers):
    services.observation_record(
        establishment=fro.est,
        actor=fro.police,
        visited_at=timezone.now(),
        agents="@Brigadier Martin",
        operations="Contrôle de l'armoire des cartes",
        nature="injunction",
        text='=HYPERLINK("http://x")',
    )
    services.liaison_ask(establishment=fro.est, actor=fro.directeur_responsable, subject="+Armoire", question="Q")
    client.force_login(fro.chef_police)
    page = client.get(reverse("authority:police")).content.decode()
    assert "_list=observations" in page and "_list=liaison" in page
    rows = csv_rows(client.get(reverse("authority:police"), {"_export": "csv", "_list": "observations"}))
    assert rows[0][:4] == ["N°", "Visite", "Agents", "Nature"] and len(rows) == 2
    assert rows[1][2] == "'@Brigadier Martin" and rows[1][4] == '\'=HYPERLINK("http://x")'
    ws = sheet(
        client.get(reverse("authority:police"), {"_export": "xlsx", "_list": "liaison"}, HTTP_ACCEPT_LANGUAGE="en")
    )
    assert column(ws, "Subject") == ["'+Armoire"] and column(ws, "Question") == ["Q"]
    assert client.get(reverse("authority:police"), {"_export": "csv", "_list": "other"}).status_code == 404
