"""The cashier's floor: the avance offered on the home in one click (or refused beforehand with the
rule that stands in the way), and the denomination grid that posts the nomenclature the service
reads, with or without the page's script."""

from decimal import Decimal

from ledgers.cash.models import TableFloat
from ledgers.core.roles import Role
from tests.factories import DEFAULT_PASSWORD


def test_COUNT_01_the_cashier_home_offers_each_avance_or_says_which_rule_waits(client, mco):
    seance = mco.seance()
    fixed = mco.session("BJ1", seance=seance, open_=False)
    unfixed = mco.session("CF1", seance=seance, open_=False)
    client.force_login(mco[Role.CAISSIER])
    html = spaced(client.get("/").content.decode())
    assert f'href="/caisses/tables/{fixed.pk}/avance/"' in html
    assert f"/caisses/tables/{unfixed.pk}/avance/" not in html
    assert "somme mise en banque de la table CF1" in html and "COUNT-01, AM 88-384 art. 14" in html


def test_the_grid_shows_the_fixed_sum_and_posts_the_quantities(client, mco):
    session = mco.session("BJ1", open_=False)
    client.force_login(mco[Role.CAISSIER])
    page = spaced(client.get(f"/caisses/tables/{session.pk}/avance/").content.decode())
    assert "50 000,00" in page and 'name="breakdown__plaque__10000"' in page
    assert 'name="breakdown__billet__100"' not in page  # a float takes no banknotes
    data = {
        "breakdown": "",
        "breakdown__plaque__10000": "4",
        "breakdown__plaque__1000": "10",
        "receiver_username": mco[Role.CHEF_TABLE].username,
        "receiver_password": "pas le bon",
    }
    refused = spaced(client.post(f"/caisses/tables/{session.pk}/avance/", data).content.decode())
    # The form comes back with the quantities typed and their total.
    assert 'name="breakdown__plaque__1000" id="id_breakdown_plaque_1000" value="10"' in refused
    assert "50 000,00" in refused.split("denominations-total")[1][:80]
    data["receiver_password"] = DEFAULT_PASSWORD
    assert client.post(f"/caisses/tables/{session.pk}/avance/", data).status_code == 302
    recorded = TableFloat.objects.get()
    assert recorded.amount == Decimal("50000.00")
    assert {(line["kind"], line["value"], line["quantity"]) for line in recorded.breakdown} == {
        ("plaque", "10000.00", 4),
        ("plaque", "1000.00", 10),
    }


def spaced(html: str) -> str:
    """The page with the no-break spaces of French amounts as plain spaces."""
    return html.replace("\N{NO-BREAK SPACE}", " ").replace("\N{NARROW NO-BREAK SPACE}", " ")
