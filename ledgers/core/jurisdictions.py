"""Jurisdiction profiles: the authorities each jurisdiction names and the settings (SET-xx)
the texts leave to the operator, with their defaults. An establishment overrides a setting in
``Establishment.options``."""

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.db import models
from django.utils.translation import gettext_lazy as _

from .catalogue import REQUIREMENTS, Requirement
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
            # destruction_period_days: the operator's destruction periodicity (CARD-10 flag);
            # scj_notice_minutes: the least notice the SCJ gets before a destruction (CARD-11,
            # DICE-07; the text sets none, AMB-37): a day, time enough for an agent to attend.
            "SET-05": {"scj_notice_minutes": 1440, "issue_lead_minutes": 60, "destruction_period_days": 30},
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
                "blackjack": ("continuous",),
                "trente_quarante": ("continuous",),
                "punto_banco": ("batch", "continuous"),
                "blackjack_one_deck": ("batch",),
            },
            "SET-47": (Role.DIRECTEUR_JEUX,),
            # Roulette and boule launchers (WHEEL-09, art. 8.1, 10.1; the catalogue leaves the
            # threshold to a setting without a SET number): a turn is flagged as specialisation when
            # the same croupier launches more than ``max_consecutive`` turns in a row, or more than
            # ``max_share_percent`` % of the table-partie's turns (rounded up to a whole turn) once it
            # has ``min_turns`` turns. A key set to None switches its check off.
            "WHEEL-09": {"max_consecutive": 2, "max_share_percent": 50, "min_turns": 4},
            # Keys (ledgers.keys.policy). SET-35: the card depots' keys are not regulated in Monaco
            # (KEY-10, BP). SET-36: slot key custody, art. 20.1 and 23-1 (KEY-02 to KEY-05): home,
            # holders, who hands them over, what they leave for (purpose kinds).
            "SET-35": {"holders": (Role.CARTIER, Role.SOUS_DIRECTEUR, Role.DIRECTEUR_JEUX), "copies": None},
            "SET-36": {
                "machine_door": {
                    "code": "KEY-04",
                    "home": "coffre",
                    "holders": (Role.MECANICIEN, Role.SUPERVISEUR),
                    "givers": (Role.SUPERVISEUR,),
                    "giver_code": "KEY-05",
                    "purposes": ("intervention", "releve"),
                },
                "socle": {
                    "code": "KEY-02",
                    "home": "caisse_centrale",
                    "holders": (Role.SUPERVISEUR, Role.MECANICIEN, Role.EMPLOYE_JEUX),
                    "givers": (Role.CAISSIER_PRINCIPAL, Role.CAISSIER),
                    "purposes": ("releve",),
                },
                "bill_release": {
                    "code": "KEY-02",
                    "home": "caisse_centrale",
                    "holders": (Role.SUPERVISEUR, Role.MECANICIEN, Role.EMPLOYE_JEUX),
                    "givers": (Role.CAISSIER_PRINCIPAL, Role.CAISSIER),
                    "purposes": ("releve",),
                },
                "bill_content": {
                    "code": "KEY-03",
                    "home": "comptabilite",
                    "holders": (),
                    "givers": (Role.COMPTABILITE,),
                    "purposes": ("count",),
                },
            },
            # Best-practice key checks (switchable): bill-box keys refused to slot-floor roles (KEY-03);
            # dual control: lock type → (people releasing, "same" people or "first" one taking back).
            "KEY-BP": {"KEY-03": True, "dual_control": {"bill_content": (2, "same"), "*": (1, "first")}},
            # Table staffing and limits (ledgers.tables): authorised minimum stakes per game (game →
            # euros; none in the MC texts), and the most tables one chef de table supervises per game
            # (blackjack: "several", no number).
            "SET-08": {},
            "SET-10": {},
            # Retention (not stated in the MC texts; best practice as FR: the current period and the
            # ten before) counted in calendar years, MC having no gaming season (SET-39, SET-40).
            "SET-39": {"periods": 10},
            "SET-40": {"month": 1, "day": 1},
            # Table cash (ledgers.cash): SET-06 the somme mise en banque per table number, fixed by the
            # Direction des Jeux (float_amount_fix); SET-16 no poker rake in the MC corpus (AMB-25).
            "SET-06": {},
            "SET-16": {},
            # Slots: the threshold grading the drop-reconciliation differences, a preset of
            # ledgers.slots.rules or {"amount", "percent"}, chosen by the Direction (SLOT-11; the
            # texts fix no figure, so none by default: every difference is flagged, none graded).
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
            Role.CHEF_POLICE: _("Chef du service territorial de police judiciaire"),
            Role.CONTROLE_INTERIEUR: _("Fonctionnaire du ministère de l'intérieur chargé du contrôle"),
            Role.AGENT_VERIFICATEUR: _("Agent vérificateur"),
            Role.COMPTABLE_TRESOR: _("Comptable du Trésor, chef de poste"),
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
                for game in (
                    "stud_poker",
                    "blackjack",
                    "punto_banco",
                    "texas_holdem",
                    "bataille",
                    "ultimate_holdem",
                    "three_card_poker",
                )
            },
            "SET-47": (Role.DIRECTEUR_RESPONSABLE, Role.COMITE),
            # Baccara and blackjack sabot allocation by a comité member: allowed, and flagged (AMB-49).
            "AMB-49": {"comite_allocates": True},
            # Keys (ledgers.keys.policy). SET-35: the card cabinet's single key (art. 39, 58: KEY-11).
            # SET-36: slot keys, art. 68-14 (KEY-13 to KEY-16): holders, who hands them over, purposes.
            "SET-35": {"holders": (Role.DIRECTEUR_RESPONSABLE, Role.COMITE), "copies": 1},
            "SET-36": {
                "upper": {
                    "code": "KEY-13",
                    "holders": (Role.DIRECTEUR_RESPONSABLE, Role.COMITE),
                    "givers": (Role.DIRECTEUR_RESPONSABLE, Role.COMITE),
                    "purposes": ("intervention", "releve", "count"),
                },
                "lower": {
                    "code": "KEY-13",
                    "holders": (Role.DIRECTEUR_RESPONSABLE, Role.COMITE),
                    "givers": (Role.DIRECTEUR_RESPONSABLE, Role.COMITE),
                    "purposes": ("intervention", "releve", "count"),
                },
                "bill_content": {
                    "code": "KEY-14",
                    "holders": (Role.CAISSIER, Role.CAISSIER_PRINCIPAL),
                    "givers": (Role.CAISSIER, Role.CAISSIER_PRINCIPAL),
                    "purposes": ("count",),
                },
                "reset": {
                    "code": "KEY-15",
                    "holders": (Role.COMITE,),
                    "givers": (Role.COMITE,),
                    "purposes": ("intervention",),
                },
                "logic_board": {
                    "code": "KEY-16",
                    "holders": (Role.TECHNICIEN_SFM, Role.POLICE, Role.CHEF_POLICE),
                    "givers": (Role.TECHNICIEN_SFM, Role.POLICE, Role.CHEF_POLICE),
                    "purposes": ("intervention",),
                },
            },
            # Best-practice key checks (switchable): one key ID for one lock type (KEY-12); the upper-part
            # opening rule in every casino, whatever its fleet (AMB-51); dual control as in Monaco.
            "KEY-BP": {"KEY-12": True, "AMB-51": True, "dual_control": {"*": (1, "first")}},
            # Table staffing and limits (ledgers.tables): the minimum stakes of the arrêté d'autorisation
            # per game (game → euros, AUTH-04; configure the establishment's), and the most tables one
            # chef de table controls (55-20, 55-21).
            "SET-08": {},
            "SET-10": {"ultimate_holdem": 2, "three_card_poker": 2},
            # Who cotes and paraphs, by official form number: the art. 69 registers and carnets are
            # coted and paraphed by the Interior ministry's control officials, not the police (REG-26).
            "SET-26": {
                "by_form": {
                    form: (Role.CONTROLE_INTERIEUR,)
                    for form in (
                        "modèle 10",
                        "modèle 10 bis",
                        "modèle 11",
                        "modèle 11 ter",
                        "modèle 11 quater",
                        "modèle 12",
                        "modèle 29",
                        "modèle 32",
                        "modèle 33",
                        "modèle 35",
                    )
                }
            },
            # Registre spécial d'observations: the follow-up is due within 8 calendar days of the
            # visit (art. 92, AMB-52); the roles that may write it besides the directeur responsable.
            "SET-41": {"days": 8, "replacements": ()},
            # Retention: the current gaming season and the ten before, without exception (art. 80,
            # AMB-53); the season, also the financial year, starts on 1 November (art. 75).
            "SET-39": {"periods": 10},
            "SET-40": {"month": 11, "day": 1},
            # Prior declarations (003 art. 7, 9 bis): sent at least 15 days before implementation (AUTH-01).
            "SET-28": {"days": 15},
            # Table cash (ledgers.cash): SET-07 overrides of the art. 49 multiples (the text's table is
            # ledgers.cash.rules.ART_49_MULTIPLES); SET-16 rake rates in % (57-2, 57-4-3); SET-17 the cap
            # applied after the round-up (AMB-24).
            "SET-07": {},
            "SET-16": {"texas_holdem": "4", "omaha": "2"},
            "SET-17": "cap_last",
            # SET-44: the count-room route, off until the police's validation is recorded
            # ({"reference", "service", "validated_on"}, count_room_validation_record).
            "SET-44": None,
            # SET-45: the census of plaques, chips and payment cards at the start and in the middle of
            # each season (art. 81), as (month, day): by default 1 November and 1 May.
            "SET-45": {"start": (11, 1), "middle": (5, 1)},
            # Slots: police notice lead before a planned move (SLOT-33: "before", no delay stated);
            # SFM visit interval in days of operation (SET-38); the slot fleet threshold (SET-43); the
            # social-contribution threshold (SET-19, an external figure: None until configured).
            # The drop-reconciliation grading threshold (SLOT-11): none until the Direction chooses.
            "SLOT-33": {"notice_lead_minutes": 0},
            "SET-37": 8,  # TITO validity: days after the issue day (68-22-1, AMB-52)
            "SET-38": 120,
            "SET-43": 75,
            "SET-19": None,
            # INC-16: an urgent SFM anomaly is reported to the police "sans délai"; the text fixes no
            # figure: minutes after the anomaly beyond which the information is flagged (1 hour, the
            # project's default, to confirm with the police service).
            "INC-16": 60,
            # COUNT-22: the cashier enters the BBJ retenue "immédiatement" after the count; the text
            # fixes no figure: minutes after the end of the partie beyond which the entry is flagged
            # (30, the project's default, to confirm).
            "COUNT-22": 30,
        },
    ),
}


def requirements_of(codes: Iterable[str], jurisdiction: str) -> list[tuple[str, Requirement]]:
    """The catalogue rows among ``codes`` that bind ``jurisdiction``: a form both jurisdictions
    share cites its reader's texts only."""
    return [(code, REQUIREMENTS[code]) for code in codes if jurisdiction in REQUIREMENTS[code].jurisdiction.split("/")]
