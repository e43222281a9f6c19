"""What the custody services share: the Direction and authority roles, the domain's rule IDs and refusals."""

from collections.abc import Sequence

from django.utils.functional import Promise

from ledgers.core.errors import RuleViolation
from ledgers.core.models import Establishment
from ledgers.core.roles import Role
from ledgers.registers.services import register_language

from ..domains import CustodyDomain
from ..models import (
    TrackedItem,
)

DIRECTION = {"MC": (Role.DIRECTEUR_JEUX, Role.SOUS_DIRECTEUR), "FR": (Role.DIRECTEUR_RESPONSABLE, Role.COMITE)}


AUTHORITY = {"MC": (Role.SCJ,), "FR": (Role.POLICE,)}


def _french(text: Promise | str | object, **params) -> str:
    """Text for a register entry: in the registers' language, whatever the user's."""
    with register_language():
        return str(text) % params if params else str(text)


def _rule(domain: CustodyDomain, name: str, est: Establishment) -> str | None:
    return domain.rule(name, est.jurisdiction)


def _refuse(domain: CustodyDomain, name: str, est: Establishment, message) -> None:
    code = _rule(domain, name, est)
    if code is None:  # the rule does not exist in this jurisdiction
        return
    raise RuleViolation(code, message)


def _serials(items: Sequence[TrackedItem]) -> list[str]:
    return [item.serial for item in items]
