"""Dice as a custody domain: the shared services (suppliers, purchase orders, intake, depot
transfers, verification, destruction) enforce the dice rules with these requirement IDs."""

from collections.abc import Sequence

from django.db.models import Min, QuerySet
from django.utils.translation import gettext_lazy as _

from ledgers.core.errors import RuleViolation
from ledgers.core.models import Establishment, LocationKind
from ledgers.custody.domains import CustodyDomain, custody_domain
from ledgers.custody.models import WITHDRAWN_STATUSES, DestructionSession
from ledgers.incidents.selectors import has_open_incident

from .models import AllocatedDie
from .rules import rule

CATEGORY = "des"  # one category of dice; the intake registers' qualifier and section


def intake_register(establishment: Establishment, category: str) -> tuple[str, str]:
    # MC: the dice intake register (DICE-03, REG-02); FR: the dice section of modèle 19 (DICE-17).
    if establishment.jurisdiction == "MC":
        return "prise_en_charge", CATEGORY
    return "carnet_19", CATEGORY


def categories() -> list[tuple[str, str]]:
    return [(CATEGORY, str(_("Dés")))]


def check_destroyable(establishment: Establishment, dice: Sequence) -> None:
    """Only used or damaged dice are destroyed (DICE-07, DICE-19), never one under an open
    incident: it is quarantined until the incident is closed (INC-09)."""
    code = rule("destruction", establishment.jurisdiction)
    for die in dice:
        if die.status not in WITHDRAWN_STATUSES:
            raise RuleViolation(
                code,
                _("Le dé n° %(die)s n'est ni usagé ni abîmé : il ne peut être détruit.") % {"die": die.designation},
            )
        if has_open_incident(die):
            raise RuleViolation(
                "INC-09",
                _("Le dé n° %(die)s fait l'objet d'un incident ouvert : il est en quarantaine.")
                % {"die": die.designation},
            )


def destruction_checks(session: DestructionSession, dice: Sequence) -> None:
    est = session.establishment
    check_destroyable(est, dice)
    if est.jurisdiction == "FR":
        # The police officer checks that the dice are neither loaded nor tampered with (DICE-19).
        checks = session.checks or {}
        if not isinstance(checks.get("loaded"), bool) or not isinstance(checks.get("tampered"), bool):
            raise RuleViolation(
                "DICE-19",
                _(
                    "Le résultat du contrôle (dés plombés, dés pipés) par le fonctionnaire "
                    "de police doit être consigné."
                ),
            )
        if checks["loaded"] or checks["tampered"]:
            raise RuleViolation(
                "DICE-19", _("Des dés plombés ou pipés ne sont pas détruits : un incident doit être ouvert.")
            )


def first_service(establishment: Establishment) -> QuerySet:
    """Each die's first allocation to a table."""
    lines = AllocatedDie.objects.filter(allocation__establishment=establishment)
    return lines.values("die").annotate(first=Min("allocation__recorded_at"))


DICE = custody_domain(
    CustodyDomain(
        code="dice",
        label=_("Dés"),
        item_model="dice.Die",
        rules={
            "supplier_approval": {"FR": "DICE-15"},
            "order_visa": {"FR": "DICE-16"},
            "intake": {"MC": "DICE-03", "FR": "DICE-17"},
            "transfer": {"MC": "DICE-04"},
            "location": {"MC": "DICE-06", "FR": "DICE-18"},
            "destruction_notice": {"MC": "DICE-07"},
            "destruction_inspector": {"MC": "DICE-07"},
            "destruction_witness": {"FR": "DICE-19"},
            "destruction_method": {"FR": "DICE-19"},
        },
        intake_register=intake_register,
        # MC: the main and annex card depots (art. 1.1, DICE-06); FR: the card cabinet (art. 39, DICE-18).
        depot_kinds={
            "MC": frozenset({LocationKind.DEPOT_PRINCIPAL, LocationKind.DEPOT_ANNEXE}),
            "FR": frozenset({LocationKind.CARD_CABINET}),
        },
        annex_kind="comptabilite_annexe",
        destruction_checks=destruction_checks,
        categories=categories,
        first_service=first_service,
    )
)
