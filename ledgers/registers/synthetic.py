"""Synthetic register entries for volume seeding and benchmarks (``manage.py seed_volume``).

Each payload fills the columns of the register's kind with values of the shape a real entry
has there: times of facts as the services write them (local "AAAA-MM-JJ HH:MM"), dates as ISO
strings, amounts as decimal strings, counts as integers and French text elsewhere (accents
included, so that the volume exercises UTF-8 throughout).
"""

import datetime
from collections.abc import Iterator
from typing import Any

from .kinds import RegisterKind
from .services import EVENT_AT_FORMAT

SUBJECTS = (
    "Ouverture de la table",
    "Fermeture de la table",
    "Remise des cartes au cartier",
    "Contrôle des dés en fin de séance",
    "Observation de l'inspecteur",
    "Échange de plaques à la caisse",
    "Visite du Service de Contrôle des Jeux",
)
TEXTS = (
    "Rien à signaler ; séance conforme au règlement intérieur.",
    "Jeu de 52 cartes contrôlé et remis sous scellé n° {n}.",
    "Incident mineur réglé par le chef de partie, client informé.",
    "Sabot n° {n} vérifié : plombs intacts, numéros d'ordre concordants.",
    "Écart de caisse de 0,50 € constaté puis régularisé.",
)
AMOUNT_WORDS = ("amount", "montant", "total", "avance", "encaisse", "solde", "price", "prix", "value", "valeur")
COUNT_WORDS = ("count", "nombre", "qty", "quantity", "quantite", "units", "unites", "decks", "jeux", "pairs", "paires")


def _value(leaf: str, n: int, moment: datetime.datetime) -> Any:
    if leaf.endswith("_at") or leaf in ("at", "heure", "time"):
        return moment.strftime(EVENT_AT_FORMAT)
    if leaf.endswith("date") or leaf == "day":
        return moment.date().isoformat()
    if any(word in leaf for word in AMOUNT_WORDS):
        return f"{(n * 3761) % 100000}.{n % 100:02d}"
    if any(word in leaf for word in COUNT_WORDS):
        return 1 + n % 12
    if leaf in ("subject", "objet", "motif", "reason"):
        return SUBJECTS[n % len(SUBJECTS)]
    return TEXTS[n % len(TEXTS)].format(n=n)


def synthetic_payload(kind: RegisterKind, n: int, *, start: datetime.datetime) -> dict[str, Any]:
    """Payload number ``n`` for a register of ``kind``, its fact ``n`` minutes after ``start``
    (local time); one column key each, dotted keys nested."""
    moment = start + datetime.timedelta(minutes=n)
    payload: dict[str, Any] = {}
    for column in kind.columns:
        *parents, leaf = column.key.split(".")
        node = payload
        for part in parents:
            node = node.setdefault(part, {})
        node[leaf] = _value(leaf, n, moment)
    return payload


def synthetic_payloads(kind: RegisterKind, count: int, *, start: datetime.datetime) -> Iterator[dict[str, Any]]:
    return (synthetic_payload(kind, n, start=start) for n in range(1, count + 1))
