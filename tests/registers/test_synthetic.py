"""Synthetic entries (``seed_volume``, benchmarks) have the shape real ones have, per kind."""

import datetime

import pytest
from django.utils import translation

from ledgers.core.models import Establishment
from ledgers.registers.kinds import all_kinds
from ledgers.registers.printing.blocks import BODY_HEIGHT, Table
from ledgers.registers.printing.formats import Formatter, author_width, lookup
from ledgers.registers.synthetic import synthetic_payload, synthetic_payloads

START = datetime.datetime(2025, 3, 14, 20, 0)


def entries_per_page(kind, count: int = 300) -> float:
    """How many synthetic entries of ``kind`` a printed page holds, as the register prints them."""
    fmt = Formatter(Establishment(code="x", name="x", jurisdiction="MC", timezone="Europe/Monaco"), "fr")
    table = Table.build(
        [
            ("N°", 40.0, 0),
            ("Inscrit le", 84.0, 0),
            *((str(c.label), None, c.width) for c in kind.columns),
            ("Inscrit par", author_width(kind.columns), 0),
        ]
    )
    height = 0.0
    for payload in synthetic_payloads(kind, count, start=START):
        cells = [
            "1234",
            "14/03/2025 20:00:00",
            *(fmt.value(lookup(payload, c.key)) for c in kind.columns),
            "Jean Martin — Inspecteur",
        ]
        height += sum(block.height for block in table.rows(cells))
    return BODY_HEIGHT * count / height


@pytest.mark.parametrize("kind", all_kinds(), ids=lambda kind: kind.code)
def test_synthetic_entries_fill_every_column_and_a_page_holds_as_many_as_a_real_one(kind):
    payload = synthetic_payload(kind, 7, start=START)
    for column in kind.columns:
        assert lookup(payload, column.key) is not None, column.key
    assert synthetic_payload(kind, 7, start=START) == payload  # same n, same payload
    with translation.override("fr"):
        assert entries_per_page(kind) >= 10  # sentences in every column printed 4 to 9 a page
