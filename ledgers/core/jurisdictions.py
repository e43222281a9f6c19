"""Jurisdiction profiles: the authorities each jurisdiction names and the settings (SET-xx)
the texts leave to the operator, with their defaults. An establishment overrides a setting in
``Establishment.options``."""

from dataclasses import dataclass, field
from typing import Any

from django.db import models
from django.utils.translation import gettext_lazy as _

from .roles import Role


class Jurisdiction(models.TextChoices):
    MC = "MC", _("Principauté de Monaco")
    FR = "FR", _("France")


@dataclass(frozen=True)
class Profile:
    code: str
    # The authority that cotes and paraphs the intake registers, and the one that visas them.
    paraphing_role: str
    visa_roles: tuple[str, ...]
    authority_names: dict[str, Any]
    settings: dict[str, Any] = field(default_factory=dict)


PROFILES: dict[str, Profile] = {
    Jurisdiction.MC: Profile(
        code="MC",
        paraphing_role=Role.COMMISSAIRE,
        visa_roles=(Role.SCJ, Role.COMMISSAIRE),
        authority_names={
            Role.COMMISSAIRE: _("Commissaire du Gouvernement"),
            Role.SCJ: _("Service de Contrôle des Jeux"),
        },
        settings={
            "SET-04": "restrictive",  # PAE decks: punto banco in super privé salons only
            # destruction_period_days: the operator's destruction periodicity (CARD-10 flag)
            "SET-05": {"scj_notice_minutes": 0, "issue_lead_minutes": 60, "destruction_period_days": 30},
            # AMB-08: a supplementary dice allocation during the séance ("flag": allowed and
            # reported; "refuse": refused).
            "SET-12": {"supplementary": "flag"},
            "SET-13": "any_table",
            "SET-15": {"allocation": (Role.SOUS_DIRECTEUR,), "end_check": (Role.SOUS_DIRECTEUR,)},
            "SET-20": 1,
            "SET-26": {"annex_ledger_paraphe": False, "dice_service_paraphe": True},
            "SET-31": (Role.INSPECTEUR,),  # holders of the roulette lid keys (AMB-39)
            # Shuffler eligibility, game → machine types (SHUF-08): "batch" mélangeur,
            # "continuous" mélangeur distributeur.
            "SET-34": {
                "blackjack": ("continuous",), "trente_quarante": ("continuous",),
                "punto_banco": ("batch", "continuous"), "blackjack_one_deck": ("batch",),
            },
            "SET-47": (Role.DIRECTEUR_JEUX,),
            # Roulette and boule launchers (WHEEL-09, art. 8.1, 10.1; the catalogue leaves the
            # threshold to a setting without a SET number): a turn is flagged as specialisation when
            # the same croupier launches more than ``max_consecutive`` turns in a row, or more than
            # ``max_share_percent`` % of the table-partie's turns (rounded up to a whole turn) once it
            # has ``min_turns`` turns. A key left out switches its check off.
            "WHEEL-09": {"max_consecutive": 2, "max_share_percent": 50, "min_turns": 4},
            # Slots: the drop-reconciliation threshold, a preset of ledgers.slots.rules or
            # {"amount", "percent"} (SLOT-11; the texts fix no figure).
            "SLOT-11": {"preset": "MC"},
            # The Secrétariat Général's copy of the slot files is flagged when older (SLOT-08, BP).
            "SLOT-08": {"max_age_days": 30},
        },
    ),
    Jurisdiction.FR: Profile(
        code="FR",
        paraphing_role=Role.POLICE,
        visa_roles=(Role.POLICE,),
        authority_names={
            Role.POLICE: _("Service territorial de police judiciaire (police des jeux)"),
        },
        settings={
            "SET-05": {"issue_lead_minutes": 60},
            "SET-13": "any_table",
            "SET-14": None,  # {"max_pairs": n, "reference": ministerial decision}: configure it
            "SET-15": {
                "allocation": (Role.DIRECTEUR_RESPONSABLE, Role.COMITE),
                "end_check": (Role.DIRECTEUR_RESPONSABLE, Role.COMITE),
                "end_check_table": (Role.CHEF_TABLE,),
            },
            "SET-20": 1,
            # Shuffler eligibility (art. 40-1 as amended; three-card poker through 55-21): SHUF-09.
            "SET-34": {
                game: ("batch", "continuous")
                for game in ("stud_poker", "blackjack", "punto_banco", "texas_holdem", "bataille", "ultimate_holdem",
                             "three_card_poker")
            },
            "SET-47": (Role.DIRECTEUR_RESPONSABLE, Role.COMITE),
            # Baccara and blackjack sabot allocation by a comité member: allowed, and flagged (AMB-49).
            "AMB-49": {"comite_allocates": True},
            # Slots: drop-reconciliation threshold (SLOT-11); police notice lead before a planned
            # move (SLOT-33: "before", no delay stated); SFM visit interval in days of operation
            # (SET-38); the slot fleet threshold (SET-43); the social-contribution threshold (SET-19,
            # an external figure: None until configured).
            "SLOT-11": {"preset": "FR"},
            "SLOT-33": {"notice_lead_minutes": 0},
            "SET-38": 120,
            "SET-43": 75,
            "SET-19": None,
        },
    ),
}
