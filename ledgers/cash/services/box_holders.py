"""FR art. 42 as amended by 003 art. 17: a contrepartie table's cash box is put at the disposal of
its chef de table or, where there is none, of the gaming employee in charge of that
responsibility, who then acts for the box and its carnet d'avances (COUNT-13). The designation is
written in the table's carnet d'avances; services.float_record accepts the box's receipt only from
the chef de table or the employee designated for that table-partie."""

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ledgers.core.authz import refusal_of, require_role, role_named_by_text
from ledgers.core.errors import RuleViolation
from ledgers.core.games import Family
from ledgers.core.models import Establishment, TableSession
from ledgers.core.roles import Role
from ledgers.registers.services import display_name, register_language
from ledgers.tables.rules import Position
from ledgers.tables.selectors import on_duty

from ..models import BoxHolderDesignation
from .common import _carnet_entry
from .floats import FLOAT_SIGNERS

# Gaming employees who may hold a box where there is no chef de table.
BOX_HOLDERS = (Role.CHEF_PARTIE, Role.EMPLOYE_RESPONSABLE, Role.CROUPIER)


def box_designator_role(actor: AbstractBaseUser, est: Establishment) -> str:
    """The role in which ``actor`` designates a box's holder: the Direction that signs the avance."""
    return require_role(actor, est, FLOAT_SIGNERS["FR"])


def _check_no_chef_de_table(session: TableSession) -> None:
    if on_duty(session, Position.CHEF_TABLE).exists():
        raise RuleViolation("COUNT-13", _("Un chef de table est en poste : la caisse est à sa disposition."))


def box_holder_refusal(session: TableSession, actor: AbstractBaseUser) -> RuleViolation | PermissionDenied | None:
    """Why ``actor`` may not designate this table-partie's box holder now (the refusals
    ``box_holder_designate`` gives whoever is named), None when they may: asked before the link
    and the form are offered."""
    est = session.seance.establishment
    return refusal_of(lambda: box_designator_role(actor, est)) or refusal_of(lambda: _check_no_chef_de_table(session))


@transaction.atomic
def box_holder_designate(
    *, session: TableSession, employee: AbstractBaseUser, actor: AbstractBaseUser
) -> BoxHolderDesignation:
    """Designate, for a table-partie without chef de table, the employee in charge of its box."""
    session = (
        TableSession.objects.select_for_update().select_related("seance__establishment", "table").get(pk=session.pk)
    )
    est = session.seance.establishment
    if est.jurisdiction != "FR" or session.table.game_info.family != Family.CONTREPARTIE:
        raise ValidationError(_("La caisse d'une table de contrepartie française."))
    role = box_designator_role(actor, est)
    employee_role = role_named_by_text(
        employee,
        est,
        BOX_HOLDERS,
        "COUNT-13",
        _("La caisse est confiée à un employé de jeux chargé de cette responsabilité."),
    )
    if session.status == TableSession.Status.CLOSED:
        raise ValidationError(_("La partie de cette table est terminée."))
    _check_no_chef_de_table(session)
    if BoxHolderDesignation.objects.filter(table_session=session).exists():
        raise ValidationError(_("L'employé chargé de cette caisse est déjà désigné pour la partie."))
    designation = BoxHolderDesignation.objects.create(
        table_session=session, employee=employee, designated_by=actor, designated_at=timezone.now()
    )
    with register_language():
        payload = {
            "event": str(_("Désignation de l'employé chargé de la caisse")),
            "breakdown": f"{display_name(employee)} ({Role(employee_role).label})",
            "amount": "",
        }
    _carnet_entry(session, actor=actor, role=role, payload=payload)
    return designation
