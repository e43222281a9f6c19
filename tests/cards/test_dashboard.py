"""The card panels of the dashboard, with the Django client."""

from django.urls import reverse
from django.utils.html import escape

from ledgers.cards import services
from tests.cards.conftest import World

INSPECTOR = escape("File de l'inspecteur")


def dashboard(client, user) -> str:
    client.force_login(user)
    return client.get(reverse("dashboard")).content.decode()


def line(label: str, count: int) -> str:
    return f'>{label}</a></td><td class="num">{count}</td>'


def test_cartier_panel_counts_units_out_awaiting_control_and_destruction(client, mcw: World):
    (out, back, old) = mcw.receive(mcw.spec(), mcw.spec(), mcw.spec())
    mcw.open_table("blackjack", out)
    mcw.issue(mcw.session("chemin_de_fer"), back)
    mcw.give_back(back)
    services.cards_withdraw(units=[old], status="damaged", reason="pliées", actor=mcw.cartier)
    page = dashboard(client, mcw.cartier)
    assert "Journée du cartier" in page and reverse("cards:day") in page
    assert line("Cartes en service aux tables", 1) in page
    assert line("En attente de contrôle", 1) in page
    assert line("En attente de destruction", 1) in page
    assert INSPECTOR not in page
    assert "Journée du cartier" not in dashboard(client, mcw.croupier)


def test_key_holder_panel_in_france(client, frw: World):
    (old,) = frw.receive()
    services.cards_withdraw(units=[old], status="out_of_use", reason="usé", actor=frw.keeper)
    page = dashboard(client, frw.keeper)
    assert line("En attente de destruction", 1) in page and line("Cartes en service aux tables", 0) in page
    assert "Journée du cartier" not in dashboard(client, frw.employe_responsable)


def test_inspecteur_panel_counts_returns_exchanges_and_card_incidents(client, mcw: World):
    (table_sixain, spare, odd) = mcw.receive(mcw.spec(), mcw.spec(), mcw.spec())
    services.cards_replacement_designate(seance=mcw.seance, room=mcw.room, unit=spare, actor=mcw.inspecteur)
    mcw.open_table("blackjack", table_sixain)
    services.cards_exchange(
        table_unit=table_sixain.members.first(),
        replacement_unit=spare.members.first(),
        card="Dame de cœur",
        croupier="M. C",
        shown_both_sides=True,
        actor=mcw.inspecteur,
    )
    services.cards_anomaly_report(
        units=[odd], anomaly="marked", cards="Valet de trèfle", circumstances="contrôle", actor=mcw.cartier
    )
    page = dashboard(client, mcw.inspecteur)
    assert INSPECTOR in page and reverse("cards:inspector") in page
    assert line("Rentrées à surveiller", 1) in page
    assert line("Échanges de cartes à rapprocher", 1) in page
    assert line("Incidents de cartes ouverts", 1) in page
    assert INSPECTOR not in dashboard(client, mcw.cartier)
