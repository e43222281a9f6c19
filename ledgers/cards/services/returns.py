"""Return to the depot (CARD-18, CARD-37), stock verification and withdrawal."""

from collections.abc import Sequence

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ledgers.core.authz import require_role, require_roles
from ledgers.core.errors import RuleViolation
from ledgers.core.models import Establishment, Location
from ledgers.core.roles import Role
from ledgers.custody import services as custody
from ledgers.custody.models import (
    GONE_STATUSES,
    WITHDRAWN_STATUSES,
    ItemStatus,
    StockVerification,
)
from ledgers.registers.services import display_name

from ..domains import CARDS, rule_id
from ..models import (
    CardUnit,
    Condition,
)
from .common import (
    KEEPERS,
    WITHDRAWERS,
    Kind,
    _Act,
    _cabinet_opener,
    _lock,
    _opened_by,
    _person,
    _post_controlled,
    _refuse_mc,
    _set,
    _to_main_depot,
    _write,
    best_practice,
)


@transaction.atomic
def cards_return(
    *,
    units: Sequence[CardUnit],
    to_location: Location,
    actor: AbstractBaseUser,
    returned_by: str,
    inspecteur: AbstractBaseUser | None = None,
) -> list[CardUnit]:
    """Put the cards back in a depot at the end of the partie. MC: under the surveillance of the
    inspecteur de service, who countersigns (``inspecteur``, authenticated by the caller; CARD-18).
    FR: after the post-partie control, by the key holder who opens the cabinet (CARD-37)."""
    est = to_location.establishment
    checks = [(actor, KEEPERS[est.jurisdiction])] + ([(inspecteur, (Role.INSPECTEUR,))] if inspecteur else [])
    role, *countersigning = require_roles(est, checks)
    if not returned_by.strip():
        raise ValidationError({"returned_by": _("Indiquez les employés qui rapportent les cartes.")})
    persons = [_person(actor, role), str(_("rapporté par %(n)s") % {"n": returned_by.strip()})]
    if inspecteur is not None:
        persons.append(_person(inspecteur, countersigning[0]))
    elif best_practice(est, "CARD-18"):
        _refuse_mc(
            est,
            "CARD-18",
            _("La rentrée des cartes se fait sous la surveillance de l'inspecteur de service, qui la contresigne."),
        )
    fr = est.jurisdiction == "FR"
    units = _lock(units, est, **({"post_controlled": _post_controlled()} if fr else {}))
    sessions = {u.table_session_id for u in units}
    if None in sessions:
        raise RuleViolation(
            rule_id(est, "CARD-08", "CARD-28"), _("Seules des cartes en service à une table peuvent être rentrées.")
        )
    if len(sessions) != 1:
        raise ValidationError({"units": _("Rentrez les cartes d'une table à la fois.")})
    session = units[0].table_session
    for unit in units:
        if unit.parent_id and unit.parent.table_session_id == session.pk:
            raise ValidationError({"units": _("%(unit)s se rentre avec son sixain.") % {"unit": unit}})
        if fr and not unit.post_controlled:
            raise RuleViolation(
                "CARD-37",
                _(
                    "%(unit)s doit être remis dans l'ordre du fabricant et examiné (contrôle "
                    "après la partie) avant de retourner à l'armoire."
                )
                % {"unit": unit},
            )
        if not unit.parent_id:
            custody.check_location(CARDS, to_location, unit)  # CARD-08/28; withdrawn: main depot, CARD-17
    opener = _cabinet_opener(est, to_location)
    back = ItemStatus.AWAITING_CONTROL if est.jurisdiction == "MC" else ItemStatus.IN_STOCK
    for unit in units:
        status = unit.status if unit.status in WITHDRAWN_STATUSES else back
        location = None if unit.parent_id else to_location
        _set(
            unit,
            actor=actor,
            reason="rentrée au dépôt",
            status=status,
            table_session=None,
            location=location,
            pae=False,
        )
    act = _Act(
        est,
        Kind.RETURN,
        actor,
        role,
        units,
        session,
        result=str(_("rentré au %(loc)s") % {"loc": to_location}),
        persons=persons,
        ok=True,
        details={
            "returned_by": returned_by.strip(),
            "to": to_location.name,
            "inspecteur": display_name(inspecteur) if inspecteur else "",
        },
    )
    _opened_by(act, opener)
    _write(act)
    return units


@transaction.atomic
def cards_stock_verification(
    *,
    establishment: Establishment,
    counted: dict[tuple[int | None, str], int],
    actor: AbstractBaseUser,
    opened_by: str = "",
    remarks: str = "",
) -> StockVerification:
    """The authority's verification of the card stock at any time (CARD-06, CARD-29). FR: the
    cabinet is opened by the holder of its single key, named on the record (KEY-11); MC: who
    opened the depot, as stated."""
    opener = _cabinet_opener(establishment, None)
    return custody.stock_verification_record(
        domain=CARDS,
        establishment=establishment,
        counted=counted,
        actor=actor,
        opened_by=display_name(opener) if opener is not None else opened_by,
        remarks=remarks,
    )


@transaction.atomic
def cards_withdraw(
    *,
    units: Sequence[CardUnit],
    status: str,
    reason: str,
    actor: AbstractBaseUser,
) -> list[CardUnit]:
    """Declare units out of use, marked or damaged: they can no longer be issued and go to the
    main depot (MC, CARD-17) / stay in the card cabinet (FR, CARD-39) until destroyed."""
    est = units[0].establishment if units else None
    if est is None:
        raise ValidationError({"units": _("Choisissez au moins une unité de cartes.")})
    role = require_role(actor, est, WITHDRAWERS[est.jurisdiction])
    if status not in WITHDRAWN_STATUSES:
        raise ValidationError({"status": _("Statut de retrait inconnu.")})
    if not reason.strip():
        raise ValidationError({"reason": _("Le motif du retrait est obligatoire.")})
    units = _lock(units, est)
    for unit in units:
        if unit.parent_id:
            raise ValidationError(
                {
                    "units": _(
                        "%(unit)s appartient à un sixain : c'est le sixain entier qui est retiré (il reste "
                        "complet jusqu'à sa destruction)."
                    )
                    % {"unit": unit}
                }
            )
        if unit.table_session_id or unit.status in GONE_STATUSES:
            raise RuleViolation(rule_id(est, "CARD-08", "CARD-28"), _("%(unit)s n'est pas en dépôt.") % {"unit": unit})
    now = timezone.now()
    for unit in units:
        _set(
            unit,
            actor=actor,
            reason="retrait",
            status=status,
            condition=Condition.IMPERFECT,
            withdrawn_at=now,
            withdrawal_reason=reason.strip(),
        )
    _to_main_depot(units, est, actor)
    _write(
        _Act(
            est,
            Kind.WITHDRAWAL,
            actor,
            role,
            units,
            result=f"{ItemStatus(status).label} — {reason.strip()}",
            persons=[_person(actor, role)],
            details={"status": status, "reason": reason.strip()},
        )
    )
    return units
