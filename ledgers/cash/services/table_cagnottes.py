"""FR: each cercle table has its own cagnotte bearing the table's number (art. 56-1, 57-2; COUNT-17
for texas hold'em and omaha, COUNT-42 for baccara and écarté), recorded in the table's carnet
modèle 11. Table numbers are unique in an establishment, so a cagnotte numbered like its table is
never shared with another table."""

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ledgers.core.authz import require_role
from ledgers.core.errors import RuleViolation
from ledgers.core.games import GAMES, POKER_GAMES, Family
from ledgers.core.models import GamingTable
from ledgers.core.roles import Role
from ledgers.registers.services import display_name, register_language

from ..models import TableCagnotte
from .common import _cagnotte_write

# Who puts a cercle table's cagnotte into service.
CAGNOTTE_KEEPERS = (Role.DIRECTEUR_RESPONSABLE, Role.COMITE)


def keeps_own_cagnotte(jurisdiction: str, game: str) -> bool:
    """A FR cercle table's levies go into its own cagnotte: baccara and écarté (56-1), texas hold'em
    and omaha (57-2, 57-4-3), every cercle game of the catalogue being one of them (AMB-57)."""
    return jurisdiction == "FR" and GAMES[game].family == Family.CERCLE


def requirement_of(table: GamingTable) -> str:
    # COUNT-17, COUNT-19 for the poker games; baccara and écarté: COUNT-42
    if table.game in POKER_GAMES:
        return "COUNT-19" if table.game == "omaha" else "COUNT-17"
    return "COUNT-42"


def require_in_service(table: GamingTable) -> None:
    """The levies of a FR cercle table go into its own cagnotte: none is taken or counted while the
    table has none in service (art. 56-1, 57-2, 57-4-3)."""
    if not TableCagnotte.objects.filter(table=table).exists():
        raise RuleViolation(
            requirement_of(table),
            _("La table %(table)s n'a pas de cagnotte en service : la retenue est opérée au profit de sa cagnotte.")
            % {"table": table.number},
        )


def table_cagnotte_check(*, table: GamingTable, number: str) -> None:
    """A cagnotte of its own for a French cercle table, bearing the table's number (COUNT-17,
    COUNT-19, COUNT-42). Writes nothing."""
    if not keeps_own_cagnotte(table.establishment.jurisdiction, table.game):
        raise ValidationError(_("La cagnotte numérotée comme sa table est celle d'une table de cercle française."))
    number = number.strip()
    if number != table.number:
        raise RuleViolation(
            requirement_of(table),
            _("La cagnotte porte le même numéro que sa table (%(table)s), non %(number)s.")
            % {"table": table.number, "number": number or "—"},
        )


@transaction.atomic
def table_cagnotte_record(
    *, table: GamingTable, number: str, actor: AbstractBaseUser, source: str = ""
) -> TableCagnotte:
    """Put a cercle table's cagnotte into service: its number is the table's. ``source``: a
    cagnotte already in service taken over from paper cites the paper register and page."""
    est = table.establishment
    table_cagnotte_check(table=table, number=number)
    role = require_role(actor, est, CAGNOTTE_KEEPERS)
    number = number.strip()
    cagnotte = TableCagnotte.objects.create(table=table, number=number, recorded_by=actor, recorded_at=timezone.now())
    with register_language():
        certification = str(_("Cagnotte n° %(number)s mise en service") % {"number": number})
        payload = {
            "date": est.localtime(cagnotte.recorded_at).date().isoformat(),
            "seance": "",
            "table": table.number,
            "certification": " — ".join(filter(None, [certification, source])),
            "signed_by": f"{display_name(actor)} ({Role(role).label})",
        }
    _cagnotte_write(table, actor=actor, role=role, payload=payload)
    return cagnotte
