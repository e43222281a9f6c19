"""Controls after use (CARD-14, CARD-37)."""

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ledgers.core.authz import require_role
from ledgers.core.errors import RuleViolation
from ledgers.core.models import Establishment, TableSession
from ledgers.custody.models import (
    WITHDRAWN_STATUSES,
    ItemStatus,
)

from .. import selectors
from ..domains import rule_id
from ..models import (
    CardUnit,
    Condition,
)
from .common import (
    DEPOT_CONTROLLERS,
    TABLE_STAFF,
    Kind,
    _Act,
    _anomaly,
    _findings,
    _live_session,
    _lock,
    _person,
    _set,
    _to_main_depot,
    _write,
    best_practice,
)

# Who controls the cards after the partie: MC the cartier at the depot, FR the table staff.
POST_CONTROLLERS = {"MC": DEPOT_CONTROLLERS["MC"], "FR": TABLE_STAFF}


@transaction.atomic
def cards_post_control(
    *,
    unit: CardUnit,
    actor: AbstractBaseUser,
    complete: bool,
    order_restored: bool,
    marks_found: bool,
    marks_description: str = "",
    notes: str = "",
) -> CardUnit:
    """After the partie the decks are put back in the manufacturer's order and examined for marks:
    MC by the cartiers in the depot once returned (CARD-14), FR at the table before they go back
    to the cabinet (CARD-37). Marks or a missing card quarantine the unit and open an incident."""
    est = unit.establishment
    if est.jurisdiction == "MC":
        role = require_role(actor, est, POST_CONTROLLERS["MC"])
        (unit,) = _lock([unit], est)
        if unit.status != ItemStatus.AWAITING_CONTROL:
            raise ValidationError({"unit": _("%(unit)s n'attend pas de contrôle après séance.") % {"unit": unit}})
        session = selectors.last_event(unit, (Kind.RETURN,))
        session = session.table_session if session else None
    else:
        role = require_role(actor, est, POST_CONTROLLERS["FR"])
        (unit,) = _lock([unit], est)
        session = _live_session(unit, est, "CARD-14", "CARD-37")
    return _control(
        unit,
        est,
        Kind.POST_CONTROL,
        actor,
        role,
        session,
        complete=complete,
        order_restored=order_restored,
        marks_found=marks_found,
        marks_description=marks_description,
        notes=notes,
    )


@transaction.atomic
def cards_first_control(
    *,
    unit: CardUnit,
    actor: AbstractBaseUser,
    complete: bool,
    order_restored: bool,
    marks_found: bool,
    marks_description: str = "",
    notes: str = "",
) -> CardUnit:
    """First control by a cartier of a deck that is not new, in the depot, before it is issued
    (CARD-14; in FR a best practice)."""
    est = unit.establishment
    role = require_role(actor, est, DEPOT_CONTROLLERS[est.jurisdiction])
    (unit,) = _lock([unit], est)
    if unit.table_session_id or unit.status not in (ItemStatus.IN_STOCK, ItemStatus.AWAITING_CONTROL):
        raise RuleViolation(rule_id(est, "CARD-08", "CARD-28"), _("%(unit)s n'est pas en dépôt.") % {"unit": unit})
    if all(d.is_new for d in unit.decks()):
        raise ValidationError({"unit": _("Les jeux neufs sont contrôlés à table, au décachetage.")})
    return _control(
        unit,
        est,
        Kind.FIRST_CONTROL,
        actor,
        role,
        None,
        complete=complete,
        order_restored=order_restored,
        marks_found=marks_found,
        marks_description=marks_description,
        notes=notes,
    )


def _control(
    unit: CardUnit,
    est: Establishment,
    kind: str,
    actor: AbstractBaseUser,
    role: str,
    session: TableSession | None,
    *,
    complete: bool,
    order_restored: bool,
    marks_found: bool,
    marks_description: str,
    notes: str,
) -> CardUnit:
    if marks_found and not marks_description.strip():
        raise ValidationError({"marks_description": _("Décrivez les marques constatées.")})
    ok = complete and order_restored and not marks_found
    now = timezone.now()
    changes: dict = {
        "complete": unit.complete and complete,
        "completeness_checked_at": now,
        "completeness_checked_by": actor,
    }
    if marks_found:
        changes.update(
            status=ItemStatus.MARKED,
            condition=Condition.IMPERFECT,
            withdrawn_at=now,
            withdrawal_reason=marks_description.strip(),
        )
    elif not complete:
        changes.update(
            status=ItemStatus.OUT_OF_USE,
            condition=Condition.IMPERFECT,
            withdrawn_at=now,
            withdrawal_reason=str(_("jeu incomplet")),
        )
    elif unit.status == ItemStatus.AWAITING_CONTROL:
        changes["status"] = ItemStatus.IN_STOCK
    _set(unit, actor=actor, reason=str(Kind(kind).label), **changes)
    flags, incident = [], None
    if not ok:
        findings = _findings(complete, order_restored, marks_found, marks_description.strip())
        incident = _anomaly(
            est,
            actor=actor,
            units=[unit],
            session=session,
            text=str(_("%(op)s de %(u)s : %(f)s.") % {"op": Kind(kind).label, "u": unit, "f": findings}),
            circumstances=notes,
        )
    if best_practice(est, "CARD-16") and selectors.unreconciled_exchanges(unit).exists():
        flags.append({"code": "CARD-16", "text": str(_("cartes échangées non rapprochées"))})
    if not unit.table_session_id and unit.status in WITHDRAWN_STATUSES:
        _to_main_depot([unit], est, actor)
    _write(
        _Act(
            est,
            kind,
            actor,
            role,
            [unit],
            session,
            result=_findings(complete, order_restored, marks_found, marks_description.strip()),
            persons=[_person(actor, role)],
            flags=flags,
            incident=incident,
            ok=ok,
            details={
                "complete": complete,
                "order_restored": order_restored,
                "marks_found": marks_found,
                "marks": marks_description.strip(),
                "notes": notes.strip(),
            },
        )
    )
    return unit
