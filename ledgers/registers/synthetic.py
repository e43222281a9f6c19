"""Synthetic register entries for volume seeding and benchmarks (``manage.py seed_volume``).

Each payload has the shape the domain services write for the register's kind: serial numbers,
table numbers, séances, times of facts, lists of units or checked points, names with their role,
flags that are usually empty and short observations that are usually absent, so that a printed
page holds as many entries as a real one. A kind this module does not know gets, column by
column, the value of the same key in the kinds it knows, else a short phrase. The values are
French (accents included, so that volumes exercise UTF-8 throughout) and depend only on ``n``:
the same call gives the same payload.
"""

import datetime
import random
from collections.abc import Callable, Iterator
from typing import Any

from .kinds import RegisterKind
from .services import EVENT_AT_FORMAT

PEOPLE = (
    "Jean Martin",
    "Sophie Bérard",
    "Luc Grimaldi",
    "Anaïs Lefèvre",
    "Marc Rossi",
    "Élodie Caron",
    "Paul Dumas",
    "Chloé Fabre",
    "Henri Garnier",
    "Inès Moreau",
)
ROLES = ("Cartier", "Croupier", "Chef de table", "Inspecteur", "Sous-directeur des jeux", "Technicien")
TABLES = ("BJ1", "BJ2", "BJ3", "PB1", "PB2", "R1", "R2", "R3", "CF1", "TQ1", "UTH1", "3CP1")
SEANCES = ("matinée", "après-midi", "soirée")
SUPPLIERS = ("Cartes de France SA", "Grimaud", "Fournier", "Dés de Monte-Carlo")
PLACES = ("Dépôt principal", "Dépôt annexe", "Dépôt Central des Cartes", "Armoire « dépôt des cartes »")
CATEGORIES = ("sixain", "huitain", "jeu")
COLOURS = ("rouge", "bleu", "vert", "noir")
SUBJECTS = (
    "Ouverture de table",
    "Fermeture de table",
    "Contrôle",
    "Observation",
    "Incident",
    "Relève",
    "Visite du SCJ",
)
OBSERVATIONS = (
    "Rien à signaler.",
    "Carte abîmée remplacée depuis le sixain désigné.",
    "Client informé, incident réglé par le chef de table.",
    "Plombs intacts, numéros d'ordre concordants.",
    "Écart de 0,50 € régularisé à la caisse.",
    "Présence de l'agent du Service de Contrôle des Jeux.",
)
WHEEL_POINTS = (
    "Niveau du cylindre",
    "Rotation libre",
    "Cases et frettes",
    "Bille conforme",
    "Scellés intacts",
    "Couvercle et serrure",
)

Value = Callable[[random.Random, int, datetime.datetime], Any]


def _pick(choices: tuple) -> Value:
    return lambda r, n, t: r.choice(choices)


def _rarely(value: Value, share: float = 0.15) -> Value:
    """``value`` for a small share of the entries, empty otherwise (flags, observations)."""
    return lambda r, n, t: value(r, n, t) if r.random() < share else ""


def _person(r: random.Random, n: int, t: datetime.datetime) -> str:
    return r.choice(PEOPLE)


def _signed(r: random.Random, n: int, t: datetime.datetime) -> str:
    return f"{r.choice(PEOPLE)} — {r.choice(ROLES)}"


def _serials(r: random.Random, n: int, t: datetime.datetime, *, most: int = 4) -> list[str]:
    first = 100000 + n * 7 % 900000
    return [f"S{first + i}" for i in range(r.randint(1, most))]


def _decks(r: random.Random, n: int, t: datetime.datetime) -> list[str]:
    return [f"S{100000 + n}-{i} {COLOURS[(i - 1) // 3]}" for i in range(1, 7)] if r.random() < 0.4 else []


def _flags(r: random.Random, n: int, t: datetime.datetime) -> list[str]:
    return ["CARD-12 : partie ouverte sans contrôle des jeux"] if r.random() < 0.05 else []


def _dice(r: random.Random, n: int, t: datetime.datetime) -> list[str]:
    return [f"D{n % 900 + i} ({r.choice(COLOURS)}, MC)" for i in range(5)]


def _points(r: random.Random, n: int, t: datetime.datetime) -> list[str]:
    return r.sample(WHEEL_POINTS, r.randint(2, 4))


# By payload key, for every kind (the services use the same keys for the same things).
KEYS: dict[str, Value] = {
    "event_at": lambda r, n, t: t.strftime(EVENT_AT_FORMAT),
    "at": lambda r, n, t: t.strftime("%d/%m/%Y %H:%M"),
    "date": lambda r, n, t: t.date().isoformat(),
    "time": lambda r, n, t: t.strftime("%H:%M"),
    "since": lambda r, n, t: t.strftime("%H:%M"),
    "seance": _pick(SEANCES),
    "table": _pick(TABLES),
    "subject": _pick(SUBJECTS),
    "text": lambda r, n, t: r.choice(OBSERVATIONS),
    "movement": _pick(("IN", "OUT", "TRANSFER", "ISSUE", "RETURN")),
    "category": _pick(CATEGORIES),
    "quantity": lambda r, n, t: r.randint(1, 6),
    "serials": _serials,
    "units": lambda r, n, t: _serials(r, n, t, most=2),
    "details": _decks,
    "supplier": _pick(SUPPLIERS),
    "order": lambda r, n, t: f"BC {t.year}-{n % 200:03d}",
    "reason": _rarely(_pick(("usure", "carte marquée", "fin de séance"))),
    "operation": _pick(("Sortie pour une table", "Contrôle à la table", "Rentrée au dépôt", "Descellement")),
    "result": _pick(("conforme", "1 jeu(x) — CARD-12", "complet, ordre intact")),
    "persons": lambda r, n, t: f"{_signed(r, n, t)}, reçu par {r.choice(PEOPLE)}",
    "flags": _flags,
    "from": _pick(PLACES),
    "to": _pick(PLACES),
    "quantities": lambda r, n, t: [f"{r.choice(CATEGORIES)} × {r.randint(1, 12)}"],
    "received_by": _person,
    "handled_by": _person,
    "signed_by": _person,
    "technician": _person,
    "inspecteur": _person,
    "croupier": _person,
    "launcher": _person,
    "comite": _person,
    "allocated_by": _signed,
    "role": _pick(ROLES),
    "event": _pick(("Remise à la table", "Contrôle de fin de partie", "Réception", "Retrait", "Affectation")),
    "dice": _dice,
    "detail": _rarely(lambda r, n, t: r.choice(OBSERVATIONS)),
    "signatures": lambda r, n, t: [_signed(r, n, t)],
    "observations": _rarely(lambda r, n, t: r.choice(OBSERVATIONS)),
    "incident": lambda r, n, t: n,
    "notice": _rarely(lambda r, n, t: f"SCJ informé à {t:%H:%M}", 0.5),
    "lines": lambda r, n, t: [f"{c} × {r.randint(2, 40)}" for c in r.sample(CATEGORIES, r.randint(1, 2))],
    "visa": lambda r, n, t: f"Vu — {r.choice(PEOPLE)}",
    "number": lambda r, n, t: str(1 + n % 40),
    "sabot": lambda r, n, t: str(1 + n % 40),
    "names": lambda r, n, t: ", ".join(r.sample(PEOPLE, 2)),
    "wheel": lambda r, n, t: f"Cylindre n° {1 + n % 6}",
    "points": _points,
    "equipment": lambda r, n, t: f"Sabot n° {1 + n % 40} (Shuffle Master)",
}
# Where a kind uses a key its own way.
KIND_KEYS: dict[tuple[str, str], Value] = {
    ("roulement_lanceurs", "order"): lambda r, n, t: [f"{i}. {p}" for i, p in enumerate(r.sample(PEOPLE, 4), 1)],
    ("materiel_jeu", "details"): _rarely(lambda r, n, t: r.choice(OBSERVATIONS), 0.5),
    ("incidents", "category"): _pick(("Anomalie de cartes", "Contrôle de garde", "Matériel de jeu")),
    ("incidents", "event"): _pick(("Ouverture", "Clôture", "Avis à l'autorité")),
    ("main_courante_roue", "result"): _pick(("17 rouge", "0", "32 rouge", "11 noir")),
    ("carnet_cagnottes", "col2"): lambda r, n, t: t.strftime("%H:%M"),
    ("carnet_cagnottes", "col8"): lambda r, n, t: f"{r.randint(200, 4000)}.00",
    ("carnet_cagnottes", "col9"): lambda r, n, t: f"{r.randint(200, 4000)}.00",
    ("carnet_cagnottes", "col10"): _rarely(lambda r, n, t: f"{r.randint(1, 50)}.00"),
    ("carnet_cagnottes", "col11"): _rarely(lambda r, n, t: f"{r.randint(1, 50)}.00"),
    ("carnet_cagnottes", "col13"): lambda r, n, t: str(1000 + n % 9000),
    ("carnet_cagnottes", "col15"): lambda r, n, t: f"{r.randint(200, 4000)}.00",
    ("retenues_pots", "pot_number"): lambda r, n, t: 1 + n % 60,
    ("retenues_pots", "pot"): lambda r, n, t: f"{r.randint(20, 900)}.00",
    ("retenues_pots", "cave"): lambda r, n, t: f"{r.choice((100, 200, 500))}.00",
    ("retenues_pots", "rate"): _pick(("5 %", "10 %")),
    ("retenues_pots", "allowed"): lambda r, n, t: f"{r.randint(1, 45)}.00",
    ("retenues_pots", "taken"): lambda r, n, t: f"{r.randint(1, 45)}.00",
    ("retenues_pots", "gain"): lambda r, n, t: f"{r.randint(20, 850)}.00",
}


def _fallback(r: random.Random, n: int, t: datetime.datetime) -> str:
    return r.choice(SUBJECTS)


MINUTE = datetime.timedelta(minutes=1)


def synthetic_payload(
    kind: RegisterKind, n: int, *, start: datetime.datetime, every: datetime.timedelta = MINUTE
) -> dict[str, Any]:
    """Payload number ``n`` for a register of ``kind``, its fact ``n`` times ``every`` (a minute)
    after ``start`` (local time); one value per column, dotted keys nested."""
    moment = start + n * every
    r = random.Random(n)
    payload: dict[str, Any] = {}
    for column in kind.columns:
        *parents, leaf = column.key.split(".")
        node = payload
        for part in parents:
            node = node.setdefault(part, {})
        value = KIND_KEYS.get((kind.code, column.key)) or KEYS.get(leaf, _fallback)
        node[leaf] = value(r, n, moment)
    return payload


def synthetic_payloads(kind: RegisterKind, count: int, *, start: datetime.datetime) -> Iterator[dict[str, Any]]:
    return (synthetic_payload(kind, n, start=start) for n in range(1, count + 1))
