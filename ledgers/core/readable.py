"""Stored text as people read it, on pages, printed registers and exports alike.

Register payloads are written once and never change: they keep dates as ISO strings ("2026-10-27"),
amounts as decimal strings ("37000.00") and amounts written into a text ("40 × 1000.00 €"). What
the reader sees is made at display time, in the reader's language: the entry itself stays as
sealed by its hash. A text made for the reader at once (a refusal, a page) writes its amounts with
``euros`` or ``money``."""

import re
from collections.abc import Callable
from datetime import date, datetime
from decimal import Decimal

from django.utils import formats

ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?")
DECIMAL = re.compile(r"-?\d+\.\d+")
# An amount written into a text by a service: "1000.00 €", never a number of a sentence's own.
AMOUNT_IN_TEXT = re.compile(r"(?<![\d.,])(-?\d+\.\d{2})(?=\s?€)")


def number(value: Decimal | float | int) -> str:
    """A number in the active language, grouped, with the decimals it was stored with."""
    places = max(0, -value.as_tuple().exponent) if isinstance(value, Decimal) else None
    return formats.number_format(value, places, use_l10n=True, force_grouping=True)


def euros(value: Decimal | float | int | str) -> str:
    """An amount in euros as the reader writes it, to the cent, grouped ("70 000,00" in French,
    "70,000.00" in English), without the sign: the sentence it goes into places "€" as its
    language does. Refusals, pages, printed documents and exports all write amounts with it."""
    return formats.number_format(Decimal(str(value)), 2, use_l10n=True, force_grouping=True)


def money(value: Decimal | float | int | str) -> str:
    """An amount with its euro sign, kept on its line: "70 000,00 €"."""
    return f"{euros(value)}\N{NO-BREAK SPACE}€"


def readable_text(
    text: str,
    *,
    as_date: Callable[[date], str],
    as_datetime: Callable[[datetime, bool], str],
) -> str:
    """``text`` with an ISO date or time in the reader's format (``as_datetime`` is told whether the
    seconds were written), a decimal as the reader writes numbers, and amounts written into it
    likewise; any other text as it is."""
    if text[4:5] == "-" and ISO_DATE.fullmatch(text):
        try:
            parsed = datetime.fromisoformat(text)
        except ValueError:
            return text
        return as_date(parsed.date()) if len(text) == 10 else as_datetime(parsed, len(text) > 16)
    if DECIMAL.fullmatch(text):
        return number(Decimal(text))
    if "€" in text:
        return AMOUNT_IN_TEXT.sub(lambda match: number(Decimal(match.group(1))), text)
    return text
