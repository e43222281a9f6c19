"""The slot room's staffing for each gaming day (FR-2007 art. 68-27, SLOT-50).

The casino employs in the slot room at least a cashier and assigns a comité member to the control of
the games; above SET-43 (75) machines in operation a mechanic is present too; at most SET-43, the
routine maintenance may be done by an entrance employee or the cashier trained beforehand (the
project has no entrance-controller role: the slot gaming employee stands for him). "Tous ces
personnels doivent être agréés par le ministre de l'intérieur": each person named, the comité member
included, holds a valid ministerial approval (``StaffApproval``, kind "slot staff") on the day.

The staffing is written before the room opens, in the slot cash-desk register (``slot_caisse``); the
séance of a casino with machines in operation opens only with the day's staffing and its minimum
presences (a ``core.hooks.on_seance_opening`` check).
"""

import datetime
from collections.abc import Mapping

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ledgers.core.authz import role_named_by_text, roles_of, save_audited
from ledgers.core.errors import RuleViolation
from ledgers.core.models import Establishment
from ledgers.core.prepared import Bound
from ledgers.core.roles import Role
from ledgers.registers.services import display_name
from ledgers.registers.written import reserve_written

from .. import selectors
from ..models import SlotStaffing
from .cashdesk import ASSIGN_ROLES, _entry
from .interventions import _approval

ARTICLE = _(
    "La salle des machines emploie au moins un caissier et un membre du comité de direction "
    "affecté au contrôle des jeux ; au-delà de %(n)s machines, un mécanicien est aussi présent."
)
COMITE_ROLES = (Role.COMITE, Role.DIRECTEUR_RESPONSABLE)
CASHIER_ROLES = (Role.CAISSIER, Role.CAISSIER_PRINCIPAL)
# At most SET-43 machines: an entrance employee (the slot gaming employee here) or the cashier,
# trained beforehand, may do the routine maintenance instead of a mechanic.
TRAINED_ROLES = (Role.EMPLOYE_JEUX, *CASHIER_ROLES)


def fleet_threshold(est: Establishment) -> int:
    return est.setting("SET-43") or 75


def staffing_of(est: Establishment, date: datetime.date) -> SlotStaffing | None:
    return SlotStaffing.objects.filter(establishment=est, date=date).first()


def staffing_counts(est: Establishment | Bound, date: datetime.date | Bound) -> dict[str, QuerySet]:
    """FR: what to count (with the dashboard's other counts, in one query) to know whether the day's
    staffing is missing: the machines in operation and the day's staffing."""
    return {"installed": selectors.installed(est), "staffed": SlotStaffing.objects.filter(establishment=est, date=date)}


def staffing_missing(counted: Mapping[str, int]) -> bool:
    """FR: machines are in operation and the day has no staffing yet (the dashboard's reminder),
    from the counts of ``staffing_counts``."""
    return counted.get("installed", 0) > 0 and not counted.get("staffed", 0)


def _person(est: Establishment, user: AbstractBaseUser | None, roles: tuple[str, ...], what: object) -> str:
    role = next((str(r) for r in roles if user is not None and r in roles_of(user, est)), None)
    if role is None:
        raise RuleViolation("SLOT-50", _("%(what)s n'a pas cette qualité dans l'établissement.") % {"what": what})
    return role


@transaction.atomic
def staffing_record(
    *,
    establishment: Establishment,
    date: datetime.date,
    comite: AbstractBaseUser,
    cashier: AbstractBaseUser,
    actor: AbstractBaseUser,
    maintainer: AbstractBaseUser | None = None,
    training: str = "",
) -> SlotStaffing:
    """The day's slot-room staffing (SLOT-50): who holds each post, each with a valid ministerial
    approval on the day; above SET-43 machines a mechanic, at most SET-43 the mechanic or a trained
    employee (his training recorded), or nobody for maintenance."""
    est = establishment
    if est.jurisdiction != "FR":
        raise ValidationError(_("Le personnel de la salle des machines (art. 68-27) concerne les casinos français."))
    role = role_named_by_text(
        actor,
        est,
        ASSIGN_ROLES["FR"],
        "SLOT-50",
        _("Le personnel de la salle des machines est désigné par la direction du casino."),
    )
    if SlotStaffing.objects.filter(establishment=est, date=date).exists():
        raise ValidationError(_("Le personnel de la salle des machines est déjà inscrit pour cette journée."))
    machines, threshold = selectors.installed_count(est), fleet_threshold(est)
    comite_role = _person(est, comite, COMITE_ROLES, _("Le membre du comité de direction"))
    cashier_role = _person(est, cashier, CASHIER_ROLES, _("Le caissier"))
    training = training.strip()
    maintainer_role = ""
    if maintainer is None and machines > threshold:
        raise RuleViolation("SLOT-50", ARTICLE % {"n": threshold})
    if maintainer is not None:
        held = roles_of(maintainer, est)
        if Role.MECANICIEN in held:
            maintainer_role = str(Role.MECANICIEN)
        elif machines > threshold:
            raise RuleViolation(
                "SLOT-50",
                _("Au-delà de %(n)s machines, l'entretien et le dépannage courants sont assurés par un mécanicien.")
                % {"n": threshold},
            )
        else:
            maintainer_role = _person(est, maintainer, TRAINED_ROLES, _("L'employé chargé de l'entretien"))
            if not training:
                raise RuleViolation(
                    "SLOT-50",
                    _(
                        "L'employé chargé de l'entretien et du dépannage courants y est "
                        "préalablement formé : inscrivez sa formation."
                    ),
                )
    approvals = {
        key: _approval(est, user, user_role, date)
        for key, user, user_role in (
            ("comite", comite, comite_role),
            ("cashier", cashier, cashier_role),
            ("maintainer", maintainer, maintainer_role),
        )
        if user is not None
    }
    now = timezone.now()
    names = [
        f"{_('comité')} {display_name(comite)} ({approvals['comite'].reference})",
        f"{_('caissier')} {display_name(cashier)} ({approvals['cashier'].reference})",
    ]
    if maintainer is not None:
        names.append(
            f"{_('entretien')} {display_name(maintainer)} ({approvals['maintainer'].reference})"
            + (f" — {_('formation')} {training}" if training else "")
        )
    key = reserve_written(SlotStaffing)  # the row keeps its entry, which names it
    entry = _entry(
        est,
        actor=actor,
        role=role,
        event=_("Personnel de la salle des machines"),
        at=now,
        detail=f"{_('journée du')} {date:%d/%m/%Y} — {machines} {_('machines')} — " + " ; ".join(names),
    )
    return save_audited(
        SlotStaffing(
            pk=key,
            establishment=est,
            date=date,
            machines=machines,
            comite=comite,
            comite_approval=approvals["comite"],
            cashier=cashier,
            cashier_approval=approvals["cashier"],
            maintainer=maintainer,
            maintainer_role=maintainer_role,
            maintainer_approval=approvals.get("maintainer"),
            training=training,
            recorded_at=now,
            recorded_by=actor,
            entry=entry,
        ),
        actor=actor,
        reason="inscription",
    )
