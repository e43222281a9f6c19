"""Incident categories: which requirement each follows and whom it must be reported to.

Domain apps declare the categories they raise (``incident_category``) in their ``rules.py``.
``notices`` maps a jurisdiction to the recipients (role codes) whose information time must be
recorded before the incident can be closed.
"""

from dataclasses import dataclass, field

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from ledgers.core.registry import CodeRegistry
from ledgers.core.roles import Role


@dataclass(frozen=True)
class Category:
    code: str
    label: str | Promise
    requirement: dict[str, str]  # jurisdiction → catalogue ID
    notices: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # MC: the direction des jeux decides every game incident and informs the SCJ (INC-01).
    decision_required: dict[str, bool] = field(default_factory=lambda: {"MC": True, "FR": False})
    # The channels a required notice must use, per jurisdiction (none: any), e.g. a written report.
    notice_channels: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # The establishment setting holding the delay (minutes after the incident is found) within which
    # the required notices are due, per jurisdiction: a later or still missing notice is flagged,
    # not refused (e.g. INC-16, "sans délai" when urgent).
    notice_delay_setting: dict[str, str] = field(default_factory=dict)


CATEGORIES: CodeRegistry[Category] = CodeRegistry("incident category")
incident_category = CATEGORIES.declare
get_category = CATEGORIES.get


def category_choices() -> list[tuple[str, str]]:
    return [(c.code, str(c.label)) for c in CATEGORIES]


GAME_INCIDENT = incident_category(
    Category(
        code="game",
        label=_("Incident de jeu"),
        requirement={"MC": "INC-01", "FR": "INC-01"},
        notices={"MC": (Role.SCJ,)},
    )
)
CARD_ANOMALY = incident_category(
    Category(
        code="card_anomaly",
        label=_("Anomalie de cartes (carte manquante, en surnombre, marquée ou étrangère)"),
        requirement={"MC": "INC-02", "FR": "INC-13"},
        notices={"MC": (Role.INSPECTEUR, Role.DIRECTEUR_JEUX, Role.SCJ), "FR": (Role.POLICE,)},
    )
)
CUSTODY_CHECK = incident_category(
    Category(
        code="custody_check",
        label=_("Anomalie de garde (bande de contrôle, destruction, vérification du stock)"),
        requirement={"MC": "INC-11", "FR": "INC-14"},
        notices={"MC": (Role.DIRECTEUR_JEUX, Role.SCJ), "FR": (Role.POLICE,)},
    )
)
DICE_ANOMALY = incident_category(
    Category(
        code="dice_anomaly",
        label=_("Anomalie de dés (dé manquant, mesure non conforme, dé pipé ou cassé)"),
        requirement={"MC": "INC-09", "FR": "INC-09"},
        notices={"MC": (Role.SOUS_DIRECTEUR, Role.SCJ), "FR": (Role.POLICE,)},
    )
)
SHUFFLER_MALFUNCTION = incident_category(
    Category(
        code="shuffler_malfunction",
        label=_("Dysfonctionnement d'un mélangeur"),
        requirement={"MC": "INC-07", "FR": "INC-07"},
        notices={"MC": (Role.INSPECTEUR,)},
    )
)
EQUIPMENT_CHECK = incident_category(
    Category(
        code="equipment_check",
        label=_("Vérification de matériel non conforme"),
        requirement={"MC": "INC-08", "FR": "INC-08"},
        notices={"MC": (Role.INSPECTEUR,)},
    )
)
