"""Poker rake (COUNT-18, COUNT-19; SET-16, SET-17; AMB-24), table-driven on the text's figures."""

from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError

from ledgers.cash import rules, selectors

D = Decimal

# (game, cave initiale, pot, rake): texas hold'em 4 %, omaha 2 %, rounded up to the next half
# euro, capped at 15 / 10 / 5 / 3 / 1 % of the buy-in from 500 / 1 000 / 5 000 / 10 000 / 50 000 €.
CASES = [
    ("texas_holdem", "500", "237", "9.50"),  # 9.48 → 9.50, below the 75 € cap
    ("texas_holdem", "500", "3000", "75.00"),  # 120 → capped at 15 % of 500
    ("texas_holdem", "200", "1234", "49.50"),  # no cap below 500 € (catalogue example)
    ("texas_holdem", "499.99", "10000", "400.00"),  # still no cap just under 500 €
    ("texas_holdem", "1000", "3000", "100.00"),  # 10 % of 1 000
    ("texas_holdem", "5000", "10000", "250.00"),  # 5 % of 5 000
    ("texas_holdem", "4999", "20000", "499.90"),  # the bands are not monotonic (AMB-24)
    ("texas_holdem", "10000", "20000", "300.00"),  # 3 % of 10 000
    ("texas_holdem", "50000", "100000", "500.00"),  # 1 % of 50 000
    ("omaha", "500", "237", "5.00"),  # 2 % : 4.74 → 5.00
    ("omaha", "500", "5000", "75.00"),  # 100 → capped
    ("omaha", "1000", "1010", "20.50"),  # 20.20 → 20.50
]


@pytest.mark.parametrize(("game", "cave", "pot", "expected"), CASES)
def test_count_18_count_19_rake_on_the_texts_figures(fro, game, cave, pot, expected):
    assert selectors.rake_for(fro.est, game=game, pot=D(pot), cave=D(cave))["rake"] == expected


def test_count_18_cap_applied_after_the_round_up_by_default_amb_24():
    # Cave 555 € → cap 83.25 €: rounding first keeps the cap, capping first rounds it up.
    assert rules.rake(pot=D(3000), cave=D(555), rate_percent=D(4)) == D("83.25")
    assert rules.rake(pot=D(3000), cave=D(555), rate_percent=D(4), order=rules.ROUND_LAST) == D("83.50")


def test_count_18_a_recorded_rake_above_the_allowed_amount_is_flagged(fro):
    assert selectors.rake_for(fro.est, game="texas_holdem", pot=D(237), cave=D(500), recorded=D("10"))["over"]
    assert not selectors.rake_for(fro.est, game="texas_holdem", pot=D(237), cave=D(500), recorded=D("9.50"))["over"]


def test_amb_25_no_rake_configured_in_monaco(mco):
    with pytest.raises(ValidationError):
        selectors.rake_for(mco.est, game="texas_holdem", pot=D(100), cave=D(500))


def test_rake_calculator_page_and_api_for_the_croupier_and_the_count(fro, client):
    client.force_login(fro.director)
    page = client.get("/caisses/cagnotte-poker/", {"game": "texas_holdem", "cave": "500", "pot": "3000"})
    assert page.status_code == 200 and "75.00" in page.content.decode()
    answer = client.get("/api/v1/cash/rake/", {"game": "omaha", "cave": "500", "pot": "237", "recorded": "6"})
    assert answer.status_code == 200 and answer.json()["rake"] == "5.00" and answer.json()["over"] is True
