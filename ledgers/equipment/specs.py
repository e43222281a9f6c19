"""What the texts say each piece of equipment is, and which games use it.

The specification of a wheel is recorded when it is registered and validated against the text
before it is put into service (WHEEL-01, WHEEL-03, WHEEL-04, WHEEL-05, WHEEL-07).
"""

from collections.abc import Mapping
from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from ledgers.core.errors import RuleViolation
from ledgers.core.roles import Role

from .models import WheelKind

# Games whose wheel is that kind of equipment.
WHEEL_FOR_GAME: dict[str, str] = {
    "roulette": WheelKind.ROULETTE_EUROPEENNE,
    "roulette_americaine": WheelKind.ROULETTE_AMERICAINE,
    "boule": WheelKind.BOULE,
    "grande_roue": WheelKind.GRANDE_ROUE,
    "roue_chance": WheelKind.ROUE_CHANCE,
}

# Pre-séance checks: MC every wheel of arts. 3.1–3.4 (WHEEL-06, REG-12), by the maintenance staff
# with an inspecteur; FR the roue de la chance (WHEEL-08, REG-11), by a comité member with the
# croupier. (requirement, the two roles that sign)
CHECK_RULES: dict[str, dict[str, tuple[str, tuple[str, str]]]] = {
    "MC": {
        game: ("WHEEL-06", (Role.ENTRETIEN, Role.INSPECTEUR))
        for game in ("roulette", "roulette_americaine", "boule", "grande_roue")
    },
    "FR": {"roue_chance": ("WHEEL-08", (Role.COMITE, Role.CROUPIER))},
}

# MC: the European roulette cylinder is covered with a lid locked with a key at each end of partie
# (art. 3.1: WHEEL-02, KEY-08).
LID_GAMES = {"MC": frozenset({"roulette"}), "FR": frozenset()}

# MC roulette (art. 8.1) and boule (art. 10.1): the croupiers launch the ball in turn following an
# ordre de roulement set by the Direction des Jeux, none of them specialising in it (WHEEL-09).
ROTATION_GAMES = {"MC": frozenset({"roulette", "boule"}), "FR": frozenset()}
ROSTER_SETTERS = (Role.DIRECTEUR_JEUX, Role.SOUS_DIRECTEUR)
# Only croupiers are put in the order (at boule the chefs de partie never launch); a launcher
# recorded from the rest of the table staff is outside the order, and flagged.
ROSTER_MEMBERS = (Role.CROUPIER,)
LAUNCH_STAFF = (Role.CROUPIER, Role.CHEF_TABLE, Role.CHEF_PARTIE)
# Who writes the launch and relief log at the table: the chef de table (at boule, the chef de partie).
LAUNCH_LOG_KEEPERS = (Role.CHEF_TABLE, Role.CHEF_PARTIE)

# FR sabots (art. 58, 57-13, 55-4): the carnet where the allocation is recorded (by its register
# kind's code) and its column (the carnet d'avances' "sabot" column, or modèle 11's column 3), the
# approval requirement of the sabot model and the rule that names the allocators.
SHOE_GAMES_FR: dict[str, dict[str, str]] = {
    "punto_banco": {"carnet": "carnet_avances", "column": "sabot", "approval": "SHOE-04", "allocators": "SHOE-05"},
    "blackjack": {"carnet": "carnet_avances", "column": "sabot", "approval": "SHOE-07", "allocators": "SHOE-12"},
    "chemin_de_fer": {"carnet": "carnet_cagnottes", "column": "col3", "approval": "SHOE-08", "allocators": "SHOE-12"},
    "baccara_deux_tableaux": {
        "carnet": "carnet_cagnottes",
        "column": "col3",
        "approval": "SHOE-08",
        "allocators": "SHOE-12",
    },
}
# Punto banco (57-13): directeur responsable, comité member or employé responsable. Baccara and
# blackjack (art. 58): "le directeur ou un employé responsable"; a comité member is allowed by
# default and flagged (AMB-49, setting "comite_allocates").
PUNTO_BANCO_ALLOCATORS = (Role.DIRECTEUR_RESPONSABLE, Role.COMITE, Role.EMPLOYE_RESPONSABLE)
ART_58_ALLOCATORS = (Role.DIRECTEUR_RESPONSABLE, Role.EMPLOYE_RESPONSABLE)

# FR art. 40-1 B and C: what the croupier sets on the shuffler's display before play.
SHUFFLER_DISPLAY_FR = {"blackjack": ("SHUF-14", "black jack 6 jeux"), "punto_banco": ("SHUF-15", "6 jeux")}
SHUFFLER_DECKS_FR = 6
# FR art. 40-1 A: poker games with a shuffler use one red and one blue plastic approved deck
# (SHUF-12; ultimate hold'em also SHUF-10: two decks of different back colours).
SHUFFLER_POKER_FR = frozenset({"stud_poker", "texas_holdem", "ultimate_holdem"})
# MC SHUF-07: with a shuffler-dealer at these games, a pause is recorded with the cover fitted.
PAUSE_GAMES_MC = frozenset({"blackjack", "trente_quarante", "punto_banco"})

BOULE_COLOURS = {
    "1": "noir",
    "3": "noir",
    "6": "noir",
    "8": "noir",
    "2": "rouge",
    "4": "rouge",
    "7": "rouge",
    "9": "rouge",
    "5": "jaune",
}
GRANDE_ROUE_SEGMENTS = {"joker_noir": 1, "joker_jaune": 1, "20": 2, "10": 4, "5": 7, "2": 15, "1": 24}
ROUE_CHANCE_SEGMENTS = {"orange": 24, "vert": 12, "bleu": 8, "rouge": 4, "violet": 2, "blanc": 1, "noir": 1}

# The name of each characteristic a wheel's specification records, as forms and pages show it.
SPEC_LABELS = {
    "pockets": _("Cases"),
    "zeros": _("Zéros"),
    "obstacles": _("Obstacles"),
    "numbers": _("Numéros"),
    "rows": _("Rangées"),
    "colours": _("Couleurs des numéros"),
    "segments": _("Cases par sorte"),
}


def spec_items(spec: Mapping[str, Any]) -> list[tuple[str, Any]]:
    """A wheel's recorded specification as (label, value), in the order of ``SPEC_LABELS``."""
    order = list(SPEC_LABELS)
    ranked = sorted(spec, key=lambda key: order.index(key) if key in order else len(order))
    return [(SPEC_LABELS.get(key, key), spec[key]) for key in ranked]


# The specification the texts describe, offered as the starting point of a new record.
TEXT_SPECS: dict[str, dict[str, Any]] = {
    WheelKind.ROULETTE_EUROPEENNE: {"pockets": 37, "zeros": ["0"], "obstacles": 7},
    WheelKind.ROULETTE_AMERICAINE: {"pockets": 38, "zeros": ["0", "00"], "obstacles": 8},
    WheelKind.BOULE: {"numbers": 9, "rows": 2, "colours": BOULE_COLOURS},
    WheelKind.GRANDE_ROUE: {"segments": GRANDE_ROUE_SEGMENTS},
    WheelKind.ROUE_CHANCE: {"segments": ROUE_CHANCE_SEGMENTS},
}
# Kinds whose wheel exists in a jurisdiction's game catalogue.
KINDS_BY_JURISDICTION = {
    "MC": frozenset(WheelKind) - {WheelKind.ROUE_CHANCE},
    "FR": frozenset(WheelKind) - {WheelKind.GRANDE_ROUE},
}


def _int(spec: Mapping[str, Any], key: str) -> int:
    value = spec.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValidationError({key: _("Nombre entier attendu.")})
    return value


def _counts(spec: Mapping[str, Any]) -> dict[str, int]:
    segments = spec.get("segments")
    if not isinstance(segments, dict) or not segments:
        raise ValidationError({"segments": _("Indiquez le nombre de cases de chaque sorte.")})
    for label, count in segments.items():
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise ValidationError({"segments": _("« %(label)s » : nombre entier attendu.") % {"label": label}})
    return {str(label): count for label, count in segments.items()}


def clean_spec(kind: str, spec: Mapping[str, Any]) -> dict[str, Any]:
    """The shape of a specification (bad input, not a rule): the fields its kind records."""
    if kind in (WheelKind.ROULETTE_EUROPEENNE, WheelKind.ROULETTE_AMERICAINE):
        zeros = spec.get("zeros")
        if not isinstance(zeros, list) or not all(isinstance(z, str) for z in zeros):
            raise ValidationError({"zeros": _("Indiquez les zéros du cylindre (0, 00).")})
        return {
            "pockets": _int(spec, "pockets"),
            "zeros": [z.strip() for z in zeros],
            "obstacles": _int(spec, "obstacles"),
        }
    if kind == WheelKind.BOULE:
        colours = spec.get("colours")
        if not isinstance(colours, dict):
            raise ValidationError({"colours": _("Indiquez la couleur de chaque numéro.")})
        return {
            "numbers": _int(spec, "numbers"),
            "rows": _int(spec, "rows"),
            "colours": {str(k).strip(): str(v).strip().lower() for k, v in colours.items()},
        }
    if kind in (WheelKind.GRANDE_ROUE, WheelKind.ROUE_CHANCE):
        return {"segments": _counts(spec)}
    raise ValidationError({"kind": _("Type d'appareil inconnu.")})


def _describe(counts: Mapping[str, int]) -> str:
    return ", ".join(f"{label} × {n}" for label, n in counts.items())


def validate_spec(kind: str, spec: Mapping[str, Any], jurisdiction: str) -> None:
    """Refuse to put into service equipment whose recorded specification differs from the text."""
    if jurisdiction == "MC" and kind == WheelKind.ROULETTE_EUROPEENNE:
        if spec["pockets"] != 37 or spec["zeros"] != ["0"] or spec["obstacles"] != 7:
            raise RuleViolation(
                "WHEEL-01",
                _(
                    "Roulette européenne : 37 cases (36 numéros et un seul zéro) et exactement 7 obstacles "
                    "(relevé : %(p)s cases, zéros %(z)s, %(o)s obstacles)."
                )
                % {"p": spec["pockets"], "z": "/".join(spec["zeros"]) or "—", "o": spec["obstacles"]},
            )
    elif jurisdiction == "MC" and kind == WheelKind.ROULETTE_AMERICAINE:
        if spec["pockets"] != 38 or sorted(spec["zeros"]) != ["0", "00"] or spec["obstacles"] < 7:
            raise RuleViolation(
                "WHEEL-03",
                _(
                    "Roulette américaine : 38 cases avec un zéro et un double zéro, et au moins 7 obstacles "
                    "(relevé : %(p)s cases, zéros %(z)s, %(o)s obstacles)."
                )
                % {"p": spec["pockets"], "z": "/".join(spec["zeros"]) or "—", "o": spec["obstacles"]},
            )
    elif jurisdiction == "MC" and kind == WheelKind.BOULE:
        if spec["numbers"] != 9 or spec["rows"] not in (2, 4) or spec["colours"] != BOULE_COLOURS:
            raise RuleViolation(
                "WHEEL-04",
                _(
                    "Boule : seuls les plateaux à 9 numéros sont autorisés, sur deux ou quatre rangées ; 1, 3, 6 et 8 "
                    "noirs, 2, 4, 7 et 9 rouges, 5 jaune."
                ),
            )
    elif jurisdiction == "MC" and kind == WheelKind.GRANDE_ROUE:
        if spec["segments"] != GRANDE_ROUE_SEGMENTS:
            raise RuleViolation(
                "WHEEL-05",
                _(
                    "Grande roue : 54 cases — 1 joker noir, 1 joker jaune, 2 × 20, 4 × 10, 7 × 5, 15 × 2, 24 × 1 "
                    "(relevé : %(got)s ; total %(total)s)."
                )
                % {"got": _describe(spec["segments"]), "total": sum(spec["segments"].values())},
            )
    elif jurisdiction == "FR" and kind == WheelKind.ROUE_CHANCE and spec["segments"] != ROUE_CHANCE_SEGMENTS:
        raise RuleViolation(
            "WHEEL-07",
            _(
                "Roue de la chance : 52 segments — 24 orange, 12 verts, 8 bleus, 4 rouges, 2 violets, 1 blanc, 1 noir "
                "(relevé : %(got)s ; total %(total)s)."
            )
            % {"got": _describe(spec["segments"]), "total": sum(spec["segments"].values())},
        )


def normalise_display(text: str) -> str:
    """What the croupier read on the shuffler's screen, compared without case, quotes or extra spaces."""
    return " ".join(text.replace("«", " ").replace("»", " ").replace('"', " ").lower().split())
