"""The URLs of a pattern reversed once are those ``reverse`` gives for each row's arguments."""

import pytest
from django.urls import reverse
from django.utils import translation

from ledgers.core.addresses import Addresses


@pytest.mark.parametrize(
    ("name", "rows"),
    [
        ("registers:entry", [("MONTECARLO-MAINCOURANTE-001", 1), ("NICE-CAISSE-012", 987654321)]),
        ("registers:detail", [("NICE-CAISSE-012",), ("un registre é 2 % ~:@",)]),
        ("seance-table", [(1,), (42,)]),
    ],
)
def test_each_rows_url_is_the_reversed_one(name, rows):
    for language in ("fr", "en"):
        with translation.override(language):
            addresses = Addresses(name, len(rows[0]))
            assert [addresses(*row) for row in rows] == [reverse(name, args=row) for row in rows]
