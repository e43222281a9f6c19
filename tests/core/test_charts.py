"""The directorate's and the regulator's charts: drawn on the server as SVG (nothing fetched), each
beside the table of its numbers, which exports as CSV like any list; others are refused the page."""

import datetime

from django.urls import reverse
from django.utils import timezone

from ledgers.core.charts import Chart, bar_svg, charts_of
from ledgers.incidents.services import incident_open
from tests.factories import open_register
from tests.spreadsheets import csv_rows


def test_a_chart_is_an_svg_of_its_table_with_signed_bars():
    chart = Chart("ecarts", "Écarts", "SLOT-01", ["Machine", "Écart"], [["001", 12], ["002", -5], ["003", 0]])
    svg = str(bar_svg(chart))
    assert svg.startswith("<svg") and 'role="img"' in svg and "<title" in svg
    assert svg.count("<rect") == 3 + 1  # a bar per row, a legend swatch
    assert "002 — Écart : -5" in svg and "http" not in svg.replace("http://www.w3.org/2000/svg", "")


def test_inc_01_the_director_sees_the_incidents_per_week_and_exports_their_numbers(client, mc, user_in):
    open_register(mc, "incidents")
    inspector, director = user_in(mc, "inspecteur"), user_in(mc, "directeur_jeux")
    incident_open(establishment=mc, category="game", description="Coup contesté", actor=inspector)
    incident_open(
        establishment=mc,
        category="game",
        description="Coup contesté",
        actor=inspector,
        found_at=timezone.now() - datetime.timedelta(days=14),
    )
    client.force_login(director)
    page = client.get(reverse("charts")).content.decode()
    assert "Incidents par catégorie et par semaine" in page and "<svg" in page
    assert 'data-export="incidents-par-semaine"' in page
    rows = csv_rows(client.get(reverse("charts"), {"_export": "csv", "_list": "incidents-par-semaine"}))
    assert rows[0] == ["Semaine du", "Incident de jeu"] and len(rows) == 9
    assert sum(int(row[1]) for row in rows[1:]) == 2
    keys = csv_rows(client.get(reverse("charts"), {"_export": "csv", "_list": "cles-rendues-en-retard"}))
    assert keys[0][0] == "Semaine du" and len(keys) == 9


def test_the_charts_are_the_directorate_s_and_the_regulator_s(client, mc, user_in):
    client.force_login(user_in(mc, "scj"))
    assert client.get(reverse("charts")).status_code == 200
    client.force_login(user_in(mc, "croupier"))
    assert client.get(reverse("charts")).status_code == 403


def test_the_home_lists_each_chart_by_its_title_with_a_link_to_it(client, mc, user_in):
    client.force_login(user_in(mc, "directeur_jeux"))
    home = client.get(reverse("dashboard")).content.decode()
    for kind in charts_of(mc):
        assert f'<a href="{reverse("charts")}#{kind.code}">{kind.title}</a>' in home


def test_a_chart_page_shows_the_month_asked_and_links_its_printed_report(client, mc, user_in):
    client.force_login(user_in(mc, "directeur_jeux"))
    page = client.get(reverse("charts"), {"mois": "2026-03"}).content.decode()
    assert 'value="2026-03"' in page and f"{reverse('reports:monthly')}?mois=2026-03" in page
    assert 'data-export="consommation-et-destruction"' in page and "mars 2026" in page
    assert "ecarts-compteurs-machines" not in page  # no slot machines: no slot chart
