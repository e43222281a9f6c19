"""The month's report: the charts of the month drawn into the PDF with the numbers they are drawn
from, in the reader's language; for the directorate and the regulator only."""

from django.urls import reverse

from ledgers.incidents.services import incident_open
from ledgers.registers.printing import document
from ledgers.registers.printing.blocks import BODY_HEIGHT, Table, drawing, title
from tests.factories import open_register
from tests.registers.printed import page_texts


def test_inc_01_the_monthly_report_draws_each_chart_above_its_numbers(client, mc, user_in):
    open_register(mc, "incidents")
    incident_open(establishment=mc, category="game", description="Coup contesté", actor=user_in(mc, "inspecteur"))
    client.force_login(user_in(mc, "directeur_jeux"))
    month = mc.localtime().date()
    response = client.get(reverse("reports:monthly"), {"mois": f"{month:%Y-%m}"})
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    pdf = b"".join(response.streaming_content)
    text = "\n".join(page_texts(pdf))
    assert "Rapport du mois de" in text and "Incidents par catégorie et par semaine — INC-01" in text
    assert "Clés remises et rendues en retard, par semaine — KEY-05" in text
    assert "Cartes et dés : mis en service et détruits, par mois — REG-24" in text
    # The legend drawn under the bars and the header of the table: each series named twice.
    assert text.count("Incident de jeu") >= 2 and text.count("Rendues en retard ou encore dehors") >= 2
    assert b"/Subtype /Image" not in pdf  # drawn as vectors, not pasted as a picture


def test_the_monthly_report_reads_in_english_and_is_the_directorate_s(client, mc, user_in):
    client.force_login(user_in(mc, "scj"))
    client.cookies["django_language"] = "en"
    text = "\n".join(page_texts(b"".join(client.get(reverse("reports:monthly")).streaming_content)))
    assert "Report for the month of" in text and "Incidents per category and week" in text
    client.force_login(user_in(mc, "croupier"))
    assert client.get(reverse("reports:monthly")).status_code == 403


def test_a_section_s_title_ends_the_table_before_it():
    """A table's header repeats on the pages its rows run on, not above the next section's title."""
    table = Table.build([("Semaine du", None, 1.0), ("Remises", None, 1.0)])
    picture = drawing([("line", 0, 0, 100, 0)], 100, BODY_HEIGHT - 40)  # too tall to follow the rows
    blocks = [title("Premier"), table.head(), *table.rows(["12 octobre", "0"]), title("Second"), picture]
    pages = list(document._paginate(blocks, None))
    assert [[kind for kind, *_ in page] for page in pages] == [["title", "thead", "row"], ["title", "drawing"]]
