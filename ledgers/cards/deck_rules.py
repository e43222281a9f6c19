"""Which cards each game takes, per jurisdiction (SET-02 decks per game, SET-03 freshness).

Keyed by (jurisdiction, game code of ``ledgers.core.games``). Where the texts leave the number
of decks to the Direction (MC blackjack, punto banco…), the default below can be changed per
establishment in ``Establishment.options["SET-02"] = {"blackjack": 6, "punto_banco": [8, 6]}``.
A table session receives exactly one of the rule's compositions, checked on the decks present
at the table after the issue.
"""

from dataclasses import dataclass

from django.db import models
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from ledgers.core.games import GAMES, Equipment
from ledgers.core.models import Establishment


class Freshness(models.TextChoices):
    NEW = "new", _("Cartes neuves à chaque séance")
    PERFECT = "perfect", _("Cartes en parfait état au début de la séance")
    REUSE = "reuse", _("Réutilisables jusqu'à ce qu'elles ne soient plus parfaites")


@dataclass(frozen=True)
class Composition:
    decks: int
    colours: tuple[int, ...] = ()  # (3, 3): three decks of one back colour and three of another

    def __str__(self) -> str:
        text = ngettext("%(n)s jeu", "%(n)s jeux", self.decks) % {"n": self.decks}
        if self.colours:
            text += " (" + " + ".join(str(n) for n in self.colours) + ")"
        return text


@dataclass(frozen=True)
class DeckRule:
    requirement: str
    compositions: tuple[Composition, ...]  # empty: the texts fix no number
    freshness: str
    whole_sixain: bool = False  # the decks are one complete sixain
    plain_back: bool = False
    direction_fixed: bool = False  # SET-02: the Direction fixes the number
    note: str | Promise = ""

    @property
    def freshness_label(self) -> str:
        return str(Freshness(self.freshness).label)

    def describe(self) -> str:
        if not self.compositions:
            return str(_("nombre de jeux non fixé par les textes"))
        text = str(_(" ou ")).join(str(c) for c in self.compositions)
        if self.whole_sixain:
            text += str(_(", un sixain complet"))
        return text


C = Composition
_NEW, _PERFECT, _REUSE = Freshness.NEW, Freshness.PERFECT, Freshness.REUSE

DECK_RULES: dict[tuple[str, str], DeckRule] = {
    # Monaco, AM 88-384 and AM 2006-371
    ("MC", "blackjack"): DeckRule(
        "GAME-01", (C(6),), _PERFECT, direction_fixed=True, note=_("Nombre fixé par la Direction (art. 5.1).")
    ),
    ("MC", "blackjack_one_deck"): DeckRule(
        "GAME-09", (C(1),), _NEW, note=_("Un jeu neuf à chaque séance (AM 2006-371 art. 1).")
    ),
    ("MC", "punto_banco"): DeckRule(
        "GAME-12",
        (C(8), C(6)),
        _PERFECT,
        direction_fixed=True,
        note=_("Nombre fixé par la Direction ; six jeux avec un mélangeur distributeur."),
    ),
    ("MC", "trente_quarante"): DeckRule("GAME-23", (C(6),), _PERFECT),
    ("MC", "chemin_de_fer"): DeckRule("GAME-26", (C(6, (3, 3)),), _PERFECT),
    ("MC", "banque_tout_va"): DeckRule(
        "GAME-30",
        (C(6, (3, 3)),),
        _NEW,
        whole_sixain=True,
        note=_("Un sixain complet de cartes neuves à chaque séance (art. 12.1)."),
    ),
    ("MC", "baccara_deux_tableaux"): DeckRule("CARD-01", (C(6, (3, 3)),), _PERFECT, direction_fixed=True),
    ("MC", "ultimate_holdem"): DeckRule("CARD-01", (C(1),), _PERFECT, direction_fixed=True),
    ("MC", "three_card_poker"): DeckRule("CARD-01", (C(1),), _PERFECT, direction_fixed=True),
    ("MC", "stud_poker"): DeckRule("CARD-01", (C(1),), _PERFECT, direction_fixed=True),
    ("MC", "texas_holdem"): DeckRule("CARD-01", (C(1), C(2)), _PERFECT, direction_fixed=True),
    ("MC", "bataille"): DeckRule("CARD-01", (C(6),), _PERFECT, direction_fixed=True),
    # France, arrêté du 14 mai 2007
    ("FR", "blackjack"): DeckRule("GAME-05", (C(6, (3, 3)),), _PERFECT, whole_sixain=True, plain_back=True),
    ("FR", "punto_banco"): DeckRule("GAME-14", (C(6, (3, 3)),), _REUSE, whole_sixain=True, plain_back=True),
    ("FR", "ultimate_holdem"): DeckRule(
        "GAME-32",
        (C(1), C(2, (1, 1))),
        _PERFECT,
        note=_("Deux jeux, un rouge et un bleu, avec un mélangeur (art. 40-1 A)."),
    ),
    ("FR", "three_card_poker"): DeckRule("GAME-34", (C(1),), _NEW),
    ("FR", "chemin_de_fer"): DeckRule("GAME-39", (C(6, (3, 3)),), _REUSE, whole_sixain=True),
    ("FR", "baccara_deux_tableaux"): DeckRule(
        "GAME-40",
        (C(3, (2, 1)), C(6, (3, 3))),
        _NEW,
        note=_("Banque limitée : 3 jeux (2 + 1) ; banque ouverte : 6 (3 + 3)."),
    ),
    ("FR", "trente_quarante"): DeckRule("CARD-39", (), _PERFECT),
    ("FR", "stud_poker"): DeckRule("CARD-39", (), _PERFECT),
    ("FR", "texas_holdem"): DeckRule(
        "CARD-39", (), _PERFECT, note=_("Avec un mélangeur : deux jeux plastifiés, un rouge et un bleu.")
    ),
    ("FR", "bataille"): DeckRule("CARD-39", (), _PERFECT),
}


def takes_cards(game: str) -> bool:
    return Equipment.CARDS in GAMES[game].equipment


def rule_for(establishment: Establishment, game: str) -> DeckRule | None:
    """The game's rule in this establishment, with the Direction's number of decks (SET-02)."""
    rule = DECK_RULES.get((establishment.jurisdiction, game))
    if rule is None or not rule.direction_fixed:
        return rule
    fixed = (establishment.setting("SET-02") or {}).get(game)
    if fixed is None:
        return rule
    numbers = fixed if isinstance(fixed, list | tuple) else [fixed]
    return DeckRule(
        rule.requirement,
        tuple(C(int(n)) for n in numbers),
        rule.freshness,
        rule.whole_sixain,
        rule.plain_back,
        rule.direction_fixed,
        rule.note,
    )


def rules_table(establishment: Establishment) -> list[tuple[str, DeckRule]]:
    """(game label, rule) of every card game of the establishment's jurisdiction."""
    rows = []
    for code, game in GAMES.items():
        rule = rule_for(establishment, code)
        if rule is not None:
            rows.append((str(game.label), rule))
    return rows
