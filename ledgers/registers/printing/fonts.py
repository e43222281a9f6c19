"""The fonts every printed document embeds.

DejaVu Sans Condensed (vendored beside this module with its licence, so that a fresh machine
prints without any system font package) covers every French character, the euro sign and the
typographic quotes; reportlab embeds only the glyphs a document uses.
"""

from functools import cache
from pathlib import Path

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

FONT_DIR = Path(__file__).resolve().parent / "fonts"

REGULAR = "LedgerSans"
BOLD = "LedgerSans-Bold"
ITALIC = "LedgerSans-Oblique"

_FILES = {
    REGULAR: "DejaVuSansCondensed.ttf",
    BOLD: "DejaVuSansCondensed-Bold.ttf",
    ITALIC: "DejaVuSansCondensed-Oblique.ttf",
}


@cache
def register_fonts() -> None:
    for name, filename in _FILES.items():
        pdfmetrics.registerFont(TTFont(name, str(FONT_DIR / filename)))
