"""FR art. 37: at cercle tables seated players change through a changeur who stands before the
croupier with a cash box holding a sum fixed by the directeur responsable; that sum is written in
the table's carnet modèle 11 (COUNT-28). Only the table's changeur, once his box is written, writes
ravitaillement bons at it (services.slip_write)."""

from collections.abc import Iterable
from decimal import Decimal

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ledgers.core import amounts
from ledgers.core.authz import require_role, role_named_by_text
from ledgers.core.errors import RuleViolation
from ledgers.core.games import Family
from ledgers.core.models import Establishment, GamingTable, TableSession
from ledgers.core.readable import euros
from ledgers.core.roles import Role
from ledgers.registers.services import display_name, register_language

from .. import breakdowns
from ..models import ChangeurFloat, ChangeurFloatFix
from ..registers import CARNET_CAGNOTTES
from .cagnottes import _cagnotte_entry


def _cercle_fr(table: GamingTable) -> None:
    if table.establishment.jurisdiction != "FR" or table.game_info.family != Family.CERCLE:
        raise ValidationError(_("La caisse du changeur est celle d'une table de cercle française."))


def fixed_amount(table: GamingTable) -> Decimal | None:
    fix = table.changeur_float_fixes.order_by("-fixed_at").first()
    return fix.amount if fix else None


def changeur_fixer_role(actor: AbstractBaseUser, est: Establishment) -> str:
    """The role in which ``actor`` fixes the sum of a changeur's cash box, else COUNT-28's refusal."""
    return role_named_by_text(
        actor,
        est,
        (Role.DIRECTEUR_RESPONSABLE,),
        "COUNT-28",
        _("La somme de la caisse du changeur est fixée par le directeur responsable."),
    )


@transaction.atomic
def changeur_float_fix(*, table: GamingTable, amount: Decimal, actor: AbstractBaseUser) -> ChangeurFloatFix:
    """The directeur responsable fixes the sum of the changeur's cash box at a cercle table."""
    _cercle_fr(table)
    changeur_fixer_role(actor, table.establishment)
    amount = amounts.money(amount)
    if amount <= 0:
        raise ValidationError({"amount": _("Un montant positif.")})
    return ChangeurFloatFix.objects.create(table=table, amount=amount, fixed_by=actor, fixed_at=timezone.now())


@transaction.atomic
def changeur_float_record(
    *, session: TableSession, changeur: AbstractBaseUser, breakdown: Iterable[dict], actor: AbstractBaseUser
) -> ChangeurFloat:
    """The changeur's cash box of a table-partie, of the sum fixed by the directeur responsable,
    written in the table's carnet modèle 11 before he changes (COUNT-28)."""
    session = (
        TableSession.objects.select_for_update().select_related("seance__establishment", "table").get(pk=session.pk)
    )
    table, est = session.table, session.seance.establishment
    _cercle_fr(table)
    role = require_role(actor, est, CARNET_CAGNOTTES.record_roles)
    role_named_by_text(
        changeur,
        est,
        (Role.CHANGEUR,),
        "COUNT-28",
        _("Le change à la table est fait par un employé chargé exclusivement de cette fonction : le changeur."),
    )
    if session.status == TableSession.Status.CLOSED:
        raise ValidationError(_("La partie de cette table est terminée."))
    if ChangeurFloat.objects.filter(table_session=session, changeur=changeur).exists():
        raise ValidationError(_("La caisse de ce changeur est déjà inscrite pour cette partie."))
    lines = breakdowns.clean_breakdown(breakdown)
    amount = breakdowns.breakdown_total(lines)
    fixed = fixed_amount(table)
    if fixed is None or amount != fixed:
        raise RuleViolation(
            "COUNT-28",
            _(
                "La caisse du changeur contient la somme fixée par le directeur responsable "
                "(%(fixed)s €), non %(amount)s €."
            )
            % {"fixed": euros(fixed) if fixed is not None else "—", "amount": euros(amount)},
        )
    box = ChangeurFloat.objects.create(
        table_session=session,
        changeur=changeur,
        amount=amount,
        breakdown=lines,
        recorded_by=actor,
        recorded_at=timezone.now(),
    )
    with register_language():
        payload = {
            "col3": {"names": display_name(changeur)},
            "certification": str(
                _("Caisse du changeur %(name)s : %(amount)s € (%(breakdown)s)")
                % {"name": display_name(changeur), "amount": amount, "breakdown": breakdowns.breakdown_text(lines)}
            ),
        }
    _cagnotte_entry(session, actor=actor, role=role, payload=payload)
    return box
