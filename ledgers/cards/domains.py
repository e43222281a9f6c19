"""The card domain as the shared custody layer sees it: its objects, registers, depots and the
requirement IDs the shared services cite for cards."""

from collections.abc import Sequence

from django.contrib.contenttypes.models import ContentType
from django.core.exceptions import ValidationError
from django.db.models import Min, QuerySet
from django.utils.translation import gettext_lazy as _

from ledgers.core.errors import RuleViolation
from ledgers.core.models import Establishment, LocationKind
from ledgers.custody.domains import CustodyDomain, custody_domain
from ledgers.custody.models import DestructionSession
from ledgers.custody.registers import CARNET_19, COMPTABILITE_ANNEXE, PRISE_EN_CHARGE
from ledgers.incidents.categories import CARD_ANOMALY
from ledgers.incidents.models import Incident
from ledgers.incidents.selectors import open_incidents_for

from .models import CardEvent, CardUnit, Category


def rule_id(establishment: Establishment, mc: str, fr: str) -> str:
    """The requirement of the establishment's jurisdiction: the MC row or its FR counterpart."""
    return mc if establishment.jurisdiction == "MC" else fr


def intake_register(establishment: Establishment, category: str) -> tuple[str, str]:
    """MC: one registre de prise en charge per category of cards (CARD-04); FR: the "cartes"
    section of the carnet modèle 19 (CARD-26, REG-06)."""
    if establishment.jurisdiction == "MC":
        return PRISE_EN_CHARGE.code, f"cards-{category}"
    return CARNET_19.code, "cartes"


def first_service(establishment: Establishment) -> QuerySet:
    """Each unit's first issue to a table."""
    issues = CardEvent.objects.filter(establishment=establishment, kind=CardEvent.Kind.ISSUE)
    return issues.values("unit").annotate(first=Min("at"))


def categories() -> list[tuple[str, str]]:
    return list(Category.choices)


def destruction_checks(session: DestructionSession, items: Sequence[CardUnit]) -> None:
    """Used decks stay complete until destroyed, unless a closed card-anomaly incident accounts
    for the missing card (CARD-09 / CARD-30); a unit under an open incident is kept for the
    examination (marked: CARD-17 / CARD-39; otherwise quarantined: CARD-19 / CARD-38)."""
    est = session.establishment
    for unit in items:
        if unit.parent_id:
            raise ValidationError(_("Un jeu d'un sixain est détruit avec son sixain."))
        if open_incidents_for(unit).exists():
            code = rule_id(est, "CARD-17", "CARD-39") if unit.status == "marked" else rule_id(est, "CARD-19", "CARD-38")
            raise RuleViolation(
                code,
                _(
                    "%(unit)s fait l'objet d'un incident ouvert : il est conservé pour examen "
                    "jusqu'à la clôture de l'incident."
                )
                % {"unit": unit},
            )
        incomplete = not unit.complete or any(not deck.complete for deck in unit.decks())
        if incomplete and not _accounted_for(unit):
            raise RuleViolation(
                rule_id(est, "CARD-09", "CARD-30"),
                _(
                    "%(unit)s est incomplet : il ne peut être détruit que rattaché à un incident d'anomalie de cartes "
                    "clos."
                )
                % {"unit": unit},
            )


def _accounted_for(unit: CardUnit) -> bool:
    ct = ContentType.objects.get_for_model(CardUnit)
    ids = [unit.pk, *unit.members.values_list("pk", flat=True)]
    return Incident.objects.filter(
        category=CARD_ANOMALY.code,
        status=Incident.Status.CLOSED,
        subjects__content_type=ct,
        subjects__object_id__in=ids,
    ).exists()


CARDS = custody_domain(
    CustodyDomain(
        code="cards",
        label=_("Cartes"),
        item_model="cards.CardUnit",
        rules={
            "supplier_approval": {"FR": "CARD-32"},
            "order_visa": {"MC": "CARD-07", "FR": "CARD-33"},
            "order_quantity": {"MC": "CARD-07"},
            "intake": {"MC": "CARD-03", "FR": "CARD-26"},
            "transfer": {"MC": "CARD-05"},
            "location": {"MC": "CARD-08", "FR": "CARD-28"},
            "out_of_use_location": {"MC": "CARD-17", "FR": "CARD-39"},
            "destruction_notice": {"MC": "CARD-11"},
            "destruction_witness": {"FR": "CARD-31"},
            "destruction_method": {"FR": "CARD-31"},
        },
        intake_register=intake_register,
        depot_kinds={
            "MC": frozenset({LocationKind.DEPOT_PRINCIPAL, LocationKind.DEPOT_ANNEXE, LocationKind.DCC}),
            "FR": frozenset({LocationKind.CARD_CABINET}),
        },
        annex_kind=COMPTABILITE_ANNEXE.code,
        destruction_checks=destruction_checks,
        categories=categories,
        stock_filter={"parent__isnull": True},
        first_service=first_service,
    )
)
