"""The texts' figures and computations, without the database: art. 49 multiples (SET-07), the
poker rake (SET-16, SET-17), nomenclatures of chips and plaques, the gaming season (SET-40) and
amounts written in words."""

import datetime
from decimal import ROUND_DOWN, Decimal

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from ledgers.core.amounts import CENT, round_up_half_euro
from ledgers.core.roles import Role
from ledgers.incidents.categories import Category, incident_category

# Trente et quarante: a stake insured against the refait pays 1 % of itself (000 art. 9, GAME-24).
REFAIT_PREMIUM_RATE = Decimal("0.01")

# A cagnotte whose count differs from its computation: FR col. 9 ≠ col. 8 (art. 71, INC-17); MC a
# difference at the ticket-book check opens a game incident decided by the Direction (COUNT-08, INC-01).
CAGNOTTE_DIFFERENCE = incident_category(
    Category(
        code="cagnotte_difference",
        label=_("Écart de cagnotte (comptée ≠ calculée)"),
        requirement={"MC": "INC-01", "FR": "INC-17"},
        notices={"MC": (Role.SCJ,)},
    )
)
# The BBJ cagnotte differs from the certified computer statement (art. 56-3-1, INC-10).
BBJ_DIFFERENCE = incident_category(
    Category(
        code="bbj_difference",
        label=_("Écart entre la cagnotte du bad beat jackpot et le relevé certifié"),
        requirement={"MC": "INC-10", "FR": "INC-10"},
    )
)
# The BBJ system stops on a technical breakdown: the judicial police is informed without delay (art. 56-3-2, INC-15).
BBJ_BREAKDOWN = incident_category(
    Category(
        code="bbj_breakdown",
        label=_("Panne technique du bad beat jackpot"),
        requirement={"FR": "INC-15"},
        notices={"FR": (Role.POLICE,)},
    )
)

# FR art. 49 (003 art. 23; 55-20, 55-21-1): minimum avance = multiple × minimum stake practised
# (COUNT-12, SET-07). Keys are the game codes of ledgers.core.games; roulette anglaise and
# vingt-trois are in the text although no table of theirs exists in the game catalogue yet.
# An establishment may override one (AMB-47) in options["SET-07"].
ART_49_MULTIPLES: dict[str, int] = {
    "roulette": 15_000,
    "trente_quarante": 20_000,
    "roulette_americaine": 15_000,
    "blackjack": 3_000,
    "craps": 15_000,
    "roulette_anglaise": 15_000,
    "punto_banco": 3_000,
    "stud_poker": 3_000,
    "texas_holdem": 3_000,
    "boule": 4_000,
    "vingt_trois": 10_000,
    "bataille": 3_000,
    "roue_chance": 5_000,
    "ultimate_holdem": 5_000,
    "three_card_poker": 3_000,
    "rampo": 15_000,
}
# Boule, vingt-trois and roue de la chance: one uniform avance for all the boxes (art. 42, COUNT-14).
BOULE_GROUP = frozenset({"boule", "vingt_trois", "roue_chance"})

# Rake caps by initial buy-in, "à partir de" read as ≥ (COUNT-18, AMB-24): no cap below 500 €.
RAKE_CAPS: tuple[tuple[Decimal, Decimal], ...] = (
    (Decimal(50_000), Decimal("0.01")),
    (Decimal(10_000), Decimal("0.03")),
    (Decimal(5_000), Decimal("0.05")),
    (Decimal(1_000), Decimal("0.10")),
    (Decimal(500), Decimal("0.15")),
)
CAP_LAST, ROUND_LAST = "cap_last", "round_last"  # SET-17


def rake_cap(cave: Decimal) -> Decimal | None:
    for threshold, share in RAKE_CAPS:
        if cave >= threshold:
            return (cave * share).quantize(CENT)
    return None


def rake(*, pot: Decimal, cave: Decimal, rate_percent: Decimal, order: str = CAP_LAST) -> Decimal:
    """The rake of one pot (COUNT-18, COUNT-19): rate × pot rounded up to the next half euro,
    capped by the buy-in tier; SET-17 says whether the cap applies after the rounding (default)
    or before it (AMB-24)."""
    raw = pot * rate_percent / 100
    cap = rake_cap(cave)
    if order == ROUND_LAST:
        return round_up_half_euro(raw if cap is None else min(raw, cap))
    rounded = round_up_half_euro(raw)
    return rounded if cap is None else min(rounded, cap)


def season_start(day: datetime.date) -> datetime.date:
    """First day of the gaming season (financial year) containing ``day``: 1 November (SET-40)."""
    return datetime.date(day.year if day.month >= 11 else day.year - 1, 11, 1)


def season_sheet(month: int) -> int:
    """The modèle 13 sheet number of a month: November = 1 … October = 12 (COUNT-57)."""
    return (month - 11) % 12 + 1


# SET-42 (AMB-50): the Minister of the Interior is told of a BBJ final stop at least 48 hours before it.
BBJ_FINAL_STOP_NOTICE = datetime.timedelta(hours=48)


def bbj_split(amount: Decimal, players: int) -> list[Decimal]:
    """The payment bons of a BBJ won (art. 56-3, COUNT-44): 50 % to the losing player who wins it,
    the other 50 % in equal shares among all the players present, him included; the winner's bon
    first. Shares are rounded down to the cent and the cents left go to the main prize, so that
    the bons add up to the jackpot."""
    if players < 2:
        raise ValidationError(_("Un bad beat jackpot se gagne face à au moins un autre joueur."))
    half = (amount / 2).quantize(CENT, rounding=ROUND_DOWN)
    share = ((amount - half) / players).quantize(CENT, rounding=ROUND_DOWN)
    return [amount - share * (players - 1), *([share] * (players - 1))]


def season_end(day: datetime.date) -> datetime.date:
    """31 October closing the gaming season containing ``day`` (SET-40)."""
    return datetime.date(season_start(day).year + 1, 10, 31)
