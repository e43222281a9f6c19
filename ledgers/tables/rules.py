"""The staffing, seat and stake rules of Section 7 GAMES, per jurisdiction and game, as data.

A game without an entry has no rule of that kind in the texts: anything is recorded, nothing is
refused. Amounts are euros; multiples apply to the table minimum.
"""

import functools
from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal

from django.db import models
from django.utils.translation import gettext_lazy as _

from ledgers.core.models import GamingTable
from ledgers.core.roles import Role


class Position(models.TextChoices):
    CROUPIER = "croupier", _("Croupier")
    TAILLEUR = "tailleur", _("Croupier tailleur")
    PAYEUR = "payeur", _("Croupier payeur")
    CONTROLEUR = "controleur", _("Croupier contrôleur")
    BOUT_DE_TABLE = "bout_de_table", _("Bout de table")
    CHEF_TABLE = "chef_table", _("Chef de table")
    CHEF_PARTIE = "chef_partie", _("Chef de partie")
    INSPECTEUR = "inspecteur", _("Inspecteur")
    CHANGEUR = "changeur", _("Changeur")
    CARTIER = "cartier", _("Cartier")
    VALET_DE_PIED = "valet_de_pied", _("Valet de pied")


P = Position


@dataclass(frozen=True)
class Staffing:
    """A composition the text fixes: position → (minimum, maximum) persons at once."""

    code: str
    positions: dict[str, tuple[int, int]]
    label: str = ""
    applies: Callable[[int], bool] = field(default=lambda seats: True)  # by the table's seats


def _small(*sizes: int) -> Callable[[int], bool]:
    return lambda seats: seats in sizes


# Variants in order: the first that applies to the table's seats is the table's composition.
STAFFING: dict[tuple[str, str], tuple[Staffing, ...]] = {
    ("MC", "blackjack"): (Staffing("GAME-02", {P.CROUPIER: (1, 1), P.CHEF_TABLE: (1, 1)}),),
    ("MC", "blackjack_one_deck"): (Staffing("GAME-10", {P.CROUPIER: (1, 1), P.CHEF_TABLE: (1, 1)}),),
    ("MC", "punto_banco"): (
        Staffing("GAME-13", {P.CROUPIER: (1, 1), P.CHEF_TABLE: (1, 1)}, "7 / 9", _small(7, 9)),
        Staffing("GAME-13", {P.CHEF_TABLE: (1, 2), P.INSPECTEUR: (1, 1), P.TAILLEUR: (1, 1), P.PAYEUR: (2, 2)}),
    ),
    ("MC", "craps"): (Staffing("GAME-17", {P.CHEF_TABLE: (1, 1), P.CROUPIER: (3, 3)}),),
    ("MC", "roulette"): (Staffing("GAME-19", {P.CHEF_TABLE: (1, 1), P.CROUPIER: (2, 2), P.BOUT_DE_TABLE: (1, 1)}),),
    # Two croupiers, or one with a chip-sorting machine.
    ("MC", "roulette_americaine"): (Staffing("GAME-21", {P.CHEF_TABLE: (1, 1), P.CROUPIER: (1, 2)}),),
    ("MC", "grande_roue"): (Staffing("GAME-22", {P.CROUPIER: (1, 1)}),),
    ("MC", "trente_quarante"): (
        Staffing("GAME-23", {P.CROUPIER: (1, 1), P.CHEF_TABLE: (1, 1)}, "mini", lambda seats: seats <= 7),
        Staffing("GAME-23", {P.CHEF_TABLE: (1, 1), P.BOUT_DE_TABLE: (0, 1), P.CONTROLEUR: (1, 1), P.TAILLEUR: (1, 1)}),
    ),
    ("MC", "chemin_de_fer"): (Staffing("GAME-27", {P.INSPECTEUR: (1, 1), P.CROUPIER: (1, 1), P.CHANGEUR: (1, 2)}),),
    ("MC", "banque_tout_va"): (
        Staffing("GAME-31", {P.INSPECTEUR: (1, 2), P.CROUPIER: (1, 1), P.CHANGEUR: (1, 2), P.CARTIER: (1, 1)}),
    ),
    ("FR", "punto_banco"): (
        Staffing("GAME-15", {P.CROUPIER: (1, 1), P.CHEF_TABLE: (1, 1), P.CHEF_PARTIE: (1, 1)}, "7", _small(7)),
        Staffing("GAME-15", {P.CHEF_TABLE: (1, 1), P.TAILLEUR: (1, 1), P.PAYEUR: (2, 2), P.CHEF_PARTIE: (1, 1)}),
    ),
    ("FR", "rampo"): (Staffing("GAME-18", {P.CHEF_TABLE: (1, 1), P.CROUPIER: (1, 1)}),),
    ("FR", "ultimate_holdem"): (Staffing("GAME-32", {P.CHEF_TABLE: (1, 1), P.CROUPIER: (1, 1)}),),
    ("FR", "three_card_poker"): (Staffing("GAME-34", {P.CHEF_TABLE: (1, 1), P.TAILLEUR: (1, 1)}),),
    ("FR", "roue_chance"): (Staffing("GAME-36", {P.CROUPIER: (1, 1)}),),
    ("FR", "chemin_de_fer"): (Staffing("GAME-42", {P.CROUPIER: (1, 1), P.CHANGEUR: (1, 1)}),),
    ("FR", "baccara_deux_tableaux"): (Staffing("GAME-42", {P.CROUPIER: (1, 1), P.CHANGEUR: (1, 1)}),),
}

# Footmen per room: at most one per N open tables of these games (or fraction of N tables).
FOOTMEN: dict[tuple[str, str], tuple[str, int, bool]] = {
    # (jurisdiction, game) → (rule, N, fraction counts)
    ("FR", "punto_banco"): ("GAME-15", 2, False),
    ("FR", "chemin_de_fer"): ("GAME-42", 4, True),
    ("FR", "baccara_deux_tableaux"): ("GAME-42", 4, True),
}

# Reliefs: the dealing croupier is relieved only between two decks / hands. "flag": allowed and
# reported (BJ One Deck, 004 art. 1); "refuse": the text forbids it (55-20, 55-21).
RELIEF: dict[tuple[str, str], tuple[str, str]] = {
    ("MC", "blackjack_one_deck"): ("GAME-10", "flag"),
    ("FR", "ultimate_holdem"): ("GAME-32", "refuse"),
    ("FR", "three_card_poker"): ("GAME-34", "refuse"),
}
DEALERS = (P.CROUPIER, P.TAILLEUR)


@dataclass(frozen=True)
class Seats:
    code: str
    minimum: int = 1
    maximum: int | None = None


# MC blackjack: the spots marked on the layout (the table's seats), no maximum: nothing to refuse,
# the seats are written with the limits in the table-parties register.
SEATS: dict[tuple[str, str], Seats] = {
    ("FR", "blackjack"): Seats("GAME-06", maximum=7),
    ("FR", "punto_banco"): Seats("GAME-16", maximum=16),
    ("FR", "ultimate_holdem"): Seats("GAME-32", maximum=7),
    ("FR", "three_card_poker"): Seats("GAME-34", minimum=5, maximum=7),
    ("FR", "rampo"): Seats("GAME-18", maximum=8),
    ("FR", "roue_chance"): Seats("GAME-36", maximum=12),
}


# A partie begins only with this many seated players (000 art. 11.1).
MIN_PLAYERS: dict[tuple[str, str], tuple[str, int]] = {("MC", "chemin_de_fer"): ("GAME-26", 4)}


@dataclass(frozen=True)
class Limits:
    """What the texts say of a game's stakes.

    ``floor``: the minimum is never below it. ``authorised``: the minimum is fixed by the arrêté
    d'autorisation (AUTH-04, SET-08). ``multiples``: the maximum is exactly one of these × the
    minimum. ``bets``: amount per kind of bet, at most these × the minimum (None: no bound).
    ``agreement``: fixed in agreement with the Administration, whose reference is required.
    ``no_aggregate``: no table-wide maximum. ``pay_tables``: the side bet's pay table, chosen for the
    whole partie. ``notified``: a bet amount that the authority must have been told of (the reference
    of the notification is then required). ``change``: after opening, "display" = allowed once the
    table display shows it, "locked" = not before the next séance."""

    code: str
    floor: Decimal | None = None
    authorised: bool = False
    multiples: tuple[int, ...] = ()
    bets: dict[str, int | None] = field(default_factory=dict)
    agreement: bool = False
    no_aggregate: bool = False
    pay_tables: tuple[str, ...] = ()
    notified: str = ""
    change: str = "free"


LIMITS: dict[tuple[str, str], Limits] = {
    # Lucky ladies (55-4 5°): pay table A or B for the whole partie, with the side bet's limits.
    ("FR", "blackjack"): Limits(
        "GAME-08", pay_tables=("A", "B"), bets={"lucky_ladies_min": None, "lucky_ladies_max": None}
    ),
    # The MC authority links (000 art. 10.2, 11.9): the boule limits' agreement with the
    # Administration and the chemin de fer garage threshold notified to the autorité concédante; their
    # references are required (GAME-25, GAME-28), kept on the limits record and in the table-parties
    # register, which keeps the record AUTH-05 asks for.
    ("MC", "boule"): Limits("GAME-25", agreement=True, no_aggregate=True),
    ("FR", "rampo"): Limits("GAME-18", authorised=True, bets={"numbers": 40, "colours": 200}),
    ("FR", "ultimate_holdem"): Limits("GAME-33", authorised=True, multiples=(10, 20, 30), change="display"),
    ("FR", "three_card_poker"): Limits(
        "GAME-35", floor=Decimal(1), authorised=True, multiples=(10, 20, 25, 50, 100), change="display"
    ),
    ("FR", "roue_chance"): Limits(
        "GAME-37",
        authorised=True,
        change="locked",
        bets={"orange": 100, "green": 50, "blue": 25, "red": 12, "violet": 10, "white_black": 5},
    ),
    # The bancos: a maximum per table fixed by the Direction (SET-24); a garage allowed below it only
    # once the autorité concédante is told from which banco (000 art. 11.8, 11.9).
    ("MC", "chemin_de_fer"): Limits("GAME-28", bets={"banco_max": None, "garage_from": None}, notified="garage_from"),
    # The casino fixes the minimum and maximum of the initial stake or bancos (chemin de fer) and of
    # the banks (à deux tableaux, banque limitée).
    ("FR", "chemin_de_fer"): Limits("GAME-41", floor=Decimal(1), bets={"banco_min": None, "banco_max": None}),
    ("FR", "baccara_deux_tableaux"): Limits("GAME-41", floor=Decimal(1), bets={"bank_min": None, "bank_max": None}),
}

# Séances a day at most, per game (GAME-30: banque à tout va, afternoon and evening).
SEANCES_PER_DAY = {("MC", "banque_tout_va"): ("GAME-30", 2)}

# Games whose minimum the directeur responsable may raise at the opening of the tables (GAME-38):
# that is the text's own option, not a change of the minimum stakes to declare (AUTH-01).
RAISED_AT_OPENING = {("FR", "roue_chance")}
BET_LABELS = {
    "numbers": _("numéros"),
    "colours": _("couleurs"),
    "orange": _("orange"),
    "green": _("vert"),
    "blue": _("bleu"),
    "red": _("rouge"),
    "violet": _("violet"),
    "white_black": _("blanc ou noir"),
    "lucky_ladies_min": _("lucky ladies, minimum"),
    "lucky_ladies_max": _("lucky ladies, maximum"),
    "banco_min": _("banco, minimum"),
    "banco_max": _("banco, maximum"),
    "garage_from": _("garage à partir de"),
    "bank_min": _("banque, minimum"),
    "bank_max": _("banque, maximum"),
}

# Who fixes the limits at opening: FR the directeur responsable (55-20-1, 55-21-1, 55-22-2, 46-1,
# art. 58); MC the direction des jeux (000 art. 10.2).
LIMIT_SETTERS = {"MC": (Role.DIRECTEUR_JEUX, Role.SOUS_DIRECTEUR), "FR": (Role.DIRECTEUR_RESPONSABLE,)}


def staffing_for(table: GamingTable, seats: int | None = None) -> Staffing | None:
    return staffing_of(table.establishment.jurisdiction, table.game, seats or table.seats)


@functools.cache  # the texts' compositions are fixed: the flags ask it of every partie of 90 days
def staffing_of(jurisdiction: str, game: str, seats: int) -> Staffing | None:
    """The composition the text fixes for a table of ``game`` with ``seats`` seats, if any."""
    return next((v for v in STAFFING.get((jurisdiction, game), ()) if v.applies(seats)), None)


def staffed_games(jurisdiction: str) -> set[str]:
    """The games for which the texts of ``jurisdiction`` fix a composition (for some seats)."""
    return {game for (where, game) in STAFFING if where == jurisdiction}
