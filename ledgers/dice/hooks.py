"""A craps (MC) or rampo (FR) table opens only with its signed dice allocation, and closes only
once its dice have been checked."""

from django.utils.translation import gettext_lazy as _

from ledgers.core.errors import RuleViolation
from ledgers.core.hooks import on_table_closing, on_table_opening
from ledgers.core.models import TableSession

from .models import DiceCheck
from .rules import rule
from .selectors import is_dice_session, regular_allocation


@on_table_opening
def signed_allocation_before_opening(session: TableSession) -> None:
    if not is_dice_session(session):
        return
    if regular_allocation(session) is None:  # an allocation exists only once signed
        raise RuleViolation(
            rule("signature", session.table.establishment.jurisdiction),
            _("La table %(table)s ne peut ouvrir sans sa dotation en dés signée pour la séance.")
            % {"table": session.table.number},
        )


@on_table_closing
def dice_checked_before_closing(session: TableSession) -> None:
    if not is_dice_session(session) or regular_allocation(session) is None:
        return
    if not DiceCheck.objects.filter(table_session=session).exists():
        raise RuleViolation(
            rule("end_check", session.table.establishment.jurisdiction),
            _("La partie de la table %(table)s ne peut être close sans le contrôle des dés de fin de séance.")
            % {"table": session.table.number},
        )
