"""The sabots as a custody domain: kept in depots, taken to the tables and back, inventoried in the
intake registers, destroyed through the shared services (SHOE-01 to SHOE-03, SHOE-09 to SHOE-11)."""

from collections.abc import Sequence

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from ledgers.core.errors import RuleViolation
from ledgers.core.models import Establishment, LocationKind
from ledgers.custody.domains import CustodyDomain, custody_domain
from ledgers.custody.models import WITHDRAWN_STATUSES, DestructionSession

SHOE_CATEGORY = "sabot"
# MC: the sabots' own volume of the registre de prise en charge; FR: the pages of carnet modèle 19
# reserved to the sabot inventory (SHOE-11, REG-06). Same qualifier in both.
SHOE_SECTION = "sabots"


def _intake_register(establishment: Establishment, category: str) -> tuple[str, str]:
    return ("carnet_19" if establishment.jurisdiction == "FR" else "prise_en_charge", SHOE_SECTION)


def _destruction_checks(session: DestructionSession, items: Sequence) -> None:
    """Only sabots declared out of use are destroyed or neutralised (SHOE-03)."""
    for shoe in items:
        if shoe.status not in WITHDRAWN_STATUSES:
            message = _("Le %(shoe)s n'a pas été déclaré hors d'usage : il ne peut être détruit.") % {"shoe": shoe}
            if session.establishment.jurisdiction == "MC":
                raise RuleViolation("SHOE-03", message)
            raise ValidationError(message)


SHOES = custody_domain(
    CustodyDomain(
        code="shoes",
        label=_("Sabots"),
        item_model="equipment.Shoe",
        rules={
            "intake": {"MC": "SHOE-01", "FR": "SHOE-11"},
            "transfer": {"MC": "SHOE-02"},
            "location": {"MC": "SHOE-02", "FR": "SHOE-09"},
            "out_of_use_location": {"MC": "SHOE-03"},
            "issue": {"MC": "SHOE-02", "FR": "SHOE-09"},
            "withdrawn_issue": {"MC": "SHOE-03"},
            "return": {"MC": "SHOE-02", "FR": "SHOE-09"},
            "destruction_notice": {"MC": "SHOE-03"},
        },
        intake_register=_intake_register,
        depot_kinds={
            "MC": frozenset({LocationKind.DEPOT_PRINCIPAL, LocationKind.DEPOT_ANNEXE}),
            "FR": frozenset({LocationKind.CARD_CABINET, LocationKind.SHOE_CABINET}),
        },
        annex_kind="comptabilite_annexe",
        destruction_checks=_destruction_checks,
        categories=lambda: [(SHOE_CATEGORY, str(_("Sabots")))],
    )
)
