"""What the texts fix for dice (AM 88-384 art. 2 and 6 for Monaco craps; arrêté of 14 May 2007
art. 55-22 and 55-22-1 for French rampo), and the requirement each rule cites per jurisdiction."""

from decimal import Decimal

from django.utils.translation import gettext_lazy as _

# The dice game each jurisdiction's texts regulate.
DICE_GAME = {"MC": "craps", "FR": "rampo"}

MC_DICE_PER_SEANCE = 5  # "cinq dés neufs" (DICE-08)
FR_PAIRS_PER_SEANCE = 2  # "deux paires de dés" (DICE-20)
FR_SIDE_MM = (Decimal("20"), Decimal("25"))  # "de 20 à 25 mm de côté" (DICE-13)

# Receipt inspection: what the die must be; a failed point refuses the die (DICE-01, DICE-13).
CHECKLIST = {
    "transparent": _("matière transparente"),
    "polished": _("surface polie"),
    "sharp_edges": _("bords tranchants (ni polis ni biseautés)"),
    "sharp_corners": _("angles vifs (coins non arrondis)"),
    "flush_spots": _("points marqués à ras (non concaves)"),
}

# rule → {jurisdiction: catalogue ID}
RULES: dict[str, dict[str, str]] = {
    "shape": {"MC": "DICE-01", "FR": "DICE-13"},
    "marks": {"MC": "DICE-02", "FR": "DICE-13"},
    "receipt_fields": {"MC": "DICE-02", "FR": "DICE-17"},
    "allocation": {"MC": "DICE-08", "FR": "DICE-20"},
    "one_table": {"MC": "DICE-09", "FR": "DICE-20"},
    "signature": {"MC": "DICE-10", "FR": "DICE-23"},
    "end_check": {"MC": "DICE-11", "FR": "DICE-25"},
    "end_results": {"MC": "DICE-11", "FR": "DICE-24"},
    "swap": {"MC": "DICE-12", "FR": "DICE-26"},
    "destruction": {"MC": "DICE-07", "FR": "DICE-19"},
}


def rule(name: str, jurisdiction: str) -> str:
    return RULES[name][jurisdiction]
