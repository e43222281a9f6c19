"""The game catalogue, in code: what each game is, where it is played, and what equipment it uses.

Domain apps add their own per-game rules (decks, dice, wheels) keyed by these codes.
"""

from dataclasses import dataclass

from django.db import models
from django.utils.translation import gettext_lazy as _


class Family(models.TextChoices):
    CONTREPARTIE = "contrepartie", _("Jeu de contrepartie")
    CERCLE = "cercle", _("Jeu de cercle")


class Equipment(models.TextChoices):
    CARDS = "cards", _("Cartes")
    DICE = "dice", _("Dés")
    WHEEL = "wheel", _("Cylindre ou roue")


@dataclass(frozen=True)
class Game:
    code: str
    label: str
    family: str
    jurisdictions: tuple[str, ...]
    equipment: tuple[str, ...]


_C, _D, _W = Equipment.CARDS, Equipment.DICE, Equipment.WHEEL
_GAMES = [
    Game("blackjack", _("Black-jack"), Family.CONTREPARTIE, ("MC", "FR"), (_C,)),
    Game("blackjack_one_deck", _("Black Jack One Deck"), Family.CONTREPARTIE, ("MC",), (_C,)),
    Game("punto_banco", _("Punto banco"), Family.CONTREPARTIE, ("MC", "FR"), (_C,)),
    Game("trente_quarante", _("Trente et quarante"), Family.CONTREPARTIE, ("MC", "FR"), (_C,)),
    Game("chemin_de_fer", _("Baccara chemin de fer"), Family.CERCLE, ("MC", "FR"), (_C,)),
    Game("banque_tout_va", _("Baccara banque à tout va"), Family.CERCLE, ("MC",), (_C,)),
    Game("baccara_deux_tableaux", _("Baccara à deux tableaux"), Family.CERCLE, ("MC", "FR"), (_C,)),
    Game("ultimate_holdem", _("Ultimate Texas hold'em poker"), Family.CONTREPARTIE, ("MC", "FR"), (_C,)),
    Game("three_card_poker", _("Poker trois cartes"), Family.CONTREPARTIE, ("MC", "FR"), (_C,)),
    Game("stud_poker", _("Stud poker"), Family.CONTREPARTIE, ("MC", "FR"), (_C,)),
    Game("texas_holdem", _("Texas hold'em poker"), Family.CERCLE, ("MC", "FR"), (_C,)),
    Game("bataille", _("Bataille"), Family.CONTREPARTIE, ("MC", "FR"), (_C,)),
    Game("craps", _("Craps"), Family.CONTREPARTIE, ("MC", "FR"), (_D,)),
    Game("rampo", _("Rampo"), Family.CONTREPARTIE, ("FR",), (_D,)),
    Game("roulette", _("Roulette européenne"), Family.CONTREPARTIE, ("MC", "FR"), (_W,)),
    Game("roulette_americaine", _("Roulette américaine"), Family.CONTREPARTIE, ("MC", "FR"), (_W,)),
    Game("boule", _("Boule"), Family.CONTREPARTIE, ("MC", "FR"), (_W,)),
    Game("grande_roue", _("Grande roue"), Family.CONTREPARTIE, ("MC",), (_W,)),
    Game("roue_chance", _("Roue de la chance"), Family.CONTREPARTIE, ("FR",), (_W,)),
]
GAMES: dict[str, Game] = {g.code: g for g in _GAMES}
# The poker games of FR 57-2 and 57-4-3 (texas hold'em, omaha 4 high): their own cagnotte per table,
# and the only games whose tables a declared tournament may add (AUTH-01 7°).
POKER_GAMES = frozenset({"texas_holdem", "omaha"})
GAME_CHOICES = [(g.code, g.label) for g in _GAMES]


def games_for(jurisdiction: str) -> list[Game]:
    return [g for g in _GAMES if jurisdiction in g.jurisdictions]
