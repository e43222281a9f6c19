"""FR poker: the rake taken on each pot of a table-partie (art. 57-2, 57-4-3, 56-1)."""

from decimal import Decimal

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ledgers.core import amounts
from ledgers.core.authz import require_role
from ledgers.core.models import TableSession
from ledgers.core.readable import euros
from ledgers.core.roles import Role
from ledgers.core.services import table_session_locked
from ledgers.registers.models import Entry
from ledgers.registers.services import display_name, entry_write, register_language

from .. import rules, selectors
from ..models import PotRake
from ..registers import RETENUES_POTS
from .table_cagnottes import require_in_service

# The croupier takes the rake at the table, under the chef de table (art. 56-1: "le croupier").
RAKE_TAKERS = (Role.CROUPIER, Role.CHEF_TABLE)


def rake_row(game: str) -> str:
    """The catalogue row of a poker game's rake: texas hold'em 57-2, omaha 4 high 57-4-3."""
    return "COUNT-19" if game == "omaha" else "COUNT-18"


def pot_rake_entry(pot: PotRake, *, role: str) -> Entry:
    """The pot's line in the relevé des retenues par pot."""
    session = pot.table_session
    est = session.seance.establishment
    with register_language():
        payload = {
            "date": session.seance.date.isoformat(),
            "seance": str(session.seance),
            "table": session.table.number,
            "table_session": session.pk,
            "pot_number": pot.number,
            "time": est.localtime(pot.taken_at).strftime("%H:%M:%S"),
            "pot": str(pot.pot),
            "cave": str(pot.cave),
            "rate": f"{pot.rate_percent} %",
            "allowed": str(pot.allowed),
            "taken": str(pot.taken),
            "gain": str(pot.gain),
            "flags": pot.flags,
            "signed_by": f"{display_name(pot.taken_by)} ({Role(role).label})",
        }
    return entry_write(establishment=est, kind=RETENUES_POTS.code, actor=pot.taken_by, role=role, payload=payload)


@transaction.atomic
def pot_rake_record(
    *,
    session: TableSession,
    pot: Decimal,
    actor: AbstractBaseUser,
    cave: Decimal | None = None,
    taken: Decimal | None = None,
) -> PotRake:
    """One pot of a poker table-partie: the rake due is the posted rate of the pot, rounded up to
    the next half euro and capped by the partie's buy-in (COUNT-18, COUNT-19, SET-16, SET-17); it
    goes into the table's own cagnotte (COUNT-17, COUNT-19). The rake taken is the rake due unless
    the croupier says otherwise; a rake taken that differs from it is recorded and flagged. The
    buy-in is the partie's: given with its first pot, the same for every later one."""
    session = table_session_locked(session)
    est, table = session.seance.establishment, session.table
    if est.jurisdiction != "FR" or table.game not in selectors.RAKE_GAMES:
        raise ValidationError(_("La retenue par pot est celle des tables de poker françaises."))
    role = require_role(actor, est, RAKE_TAKERS)
    if session.status != TableSession.Status.OPEN:
        raise ValidationError(_("Les pots s'inscrivent pendant la partie."))
    code = rake_row(table.game)
    require_in_service(table)
    rate, order = selectors.rake_terms(est, table.game)
    first = PotRake.objects.filter(table_session=session).order_by("number").first()
    if first is not None:
        if cave is not None and amounts.money(cave) != first.cave:
            raise ValidationError(
                {"cave": _("La cave initiale de cette partie est %(cave)s €.") % {"cave": euros(first.cave)}}
            )
        cave = first.cave
    elif cave is None:
        raise ValidationError({"cave": _("Indiquez la cave initiale pratiquée à cette table.")})
    pot, cave = amounts.money(pot), amounts.money(cave)
    if pot <= 0:
        raise ValidationError({"pot": _("Le montant du pot est positif.")})
    allowed = rules.rake(pot=pot, cave=cave, rate_percent=rate, order=order)
    taken = allowed if taken is None else amounts.money(taken)
    if taken > pot:
        raise ValidationError({"taken": _("La retenue ne peut dépasser le pot.")})
    flags: list[str] = []
    if taken != allowed:
        with register_language():
            message = (
                _("%(code)s : retenue opérée %(taken)s € au-dessus de la retenue due %(allowed)s €.")
                if taken > allowed
                else _("%(code)s : retenue opérée %(taken)s € au-dessous de la retenue due %(allowed)s €.")
            )
            flags.append(str(message % {"code": code, "taken": taken, "allowed": allowed}))
    number = (PotRake.objects.filter(table_session=session).aggregate(n=Max("number"))["n"] or 0) + 1
    record = PotRake.objects.create(
        table_session=session,
        number=number,
        taken_at=timezone.now(),
        pot=pot,
        cave=cave,
        rate_percent=rate,
        allowed=allowed,
        taken=taken,
        gain=pot - taken,
        flags=flags,
        taken_by=actor,
    )
    pot_rake_entry(record, role=role)
    return record
