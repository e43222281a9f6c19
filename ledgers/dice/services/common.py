"""What the dice services share: who signs, the service register lines, locking and anomalies."""

import datetime
from collections.abc import Sequence
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from ledgers.core.authz import roles_of
from ledgers.core.errors import RuleViolation
from ledgers.core.models import Establishment, TableSession
from ledgers.core.roles import Role
from ledgers.incidents.categories import DICE_ANOMALY
from ledgers.incidents.models import Incident
from ledgers.incidents.services import incident_open
from ledgers.registers.models import Entry, Register
from ledgers.registers.selectors import current_register, opening_role
from ledgers.registers.services import display_name, entry_append

from ..models import Die
from ..registers import SERVICE_KIND
from ..rules import DICE_GAME

# Who changes dice during play: MC the chef de table (DICE-12, 000 art. 6.2), FR the table's staff.
SWAP_ROLES = {
    "MC": (Role.CHEF_TABLE, Role.INSPECTEUR, Role.SOUS_DIRECTEUR),
    "FR": (Role.CHEF_TABLE, Role.DIRECTEUR_RESPONSABLE, Role.COMITE),
}


def _local(est: Establishment, moment: datetime.datetime) -> datetime.datetime:
    return est.localtime(moment)


def _signatory(user: AbstractBaseUser, est: Establishment, allowed: Sequence[str]) -> str | None:
    """The role among ``allowed`` in which ``user`` signs here, or None."""
    held = roles_of(user, est)
    return next((str(role) for role in allowed if role in held), None)


def _signature(user: AbstractBaseUser, role: str) -> str:
    return f"{display_name(user)} — {Role(role).label}"


def service_register(est: Establishment) -> Register:
    """The open volume of the dice-in-service register (MC REG-05, FR REG-08). Under MC, SET-26
    (AMB-36, default on) requires it to be coté et paraphé by the Commissaire du Gouvernement."""
    register = current_register(est, SERVICE_KIND[est.jurisdiction].code)
    if est.jurisdiction == "MC" and (est.setting("SET-26") or {}).get("dice_service_paraphe"):
        if opening_role(register) != Role.COMMISSAIRE:
            raise RuleViolation(
                "REG-05",
                _(
                    "Le registre des dés en service doit être coté et paraphé par le "
                    "Commissaire du Gouvernement (réglage SET-26)."
                ),
            )
    return register


def _service_write(register: Register, *, actor: AbstractBaseUser, role: str, payload: dict) -> Entry:
    """Every line of the dice-in-service register is written here, in the volume ``service_register`` gives."""
    return entry_append(register=register, actor=actor, role=role, payload=payload)


def _service_entry(
    register: Register,
    session: TableSession,
    *,
    actor: AbstractBaseUser,
    role: str,
    event: str,
    dice: list[str],
    at: datetime.datetime,
    **extra: Any,
) -> Entry:
    """One line of the dice-in-service register: date, séance, table and time always (DICE-09, DICE-22)."""
    est = session.seance.establishment
    payload = {
        "event": event,
        "date": session.seance.date.isoformat(),
        "seance": str(session.seance.get_period_display()),
        "table": session.table.number,
        "time": _local(est, at).strftime("%H:%M"),
        "dice": dice,
        "detail": "",
        "signatures": [],
        "observations": "",
        **extra,
    }
    return _service_write(register, actor=actor, role=role, payload=payload)


def _require_dice_table(session: TableSession) -> None:
    jurisdiction = session.seance.establishment.jurisdiction
    if session.table.game != DICE_GAME[jurisdiction]:
        raise ValidationError(
            {
                "session": _("La table %(table)s n'est pas une table de %(game)s.")
                % {"table": session.table, "game": DICE_GAME[jurisdiction]}
            }
        )


def _locked_dice(dice: Sequence[Die]) -> list[Die]:
    ids = [die.pk for die in dice]
    if len(set(ids)) != len(ids):
        raise ValidationError(_("Un même dé est cité deux fois."))
    return list(Die.objects.select_for_update(of=("self",)).filter(pk__in=ids).order_by("pair__number", "serial"))


def _serials(dice: Sequence[Die]) -> list[str]:
    return [die.serial for die in dice]


def _anomaly(
    *,
    est: Establishment,
    actor: AbstractBaseUser,
    dice: Sequence[Die],
    description: str,
    session: TableSession | None = None,
    circumstances: str = "",
) -> Incident:
    """A dice anomaly (INC-09): the dice concerned are quarantined until the incident is closed."""
    return incident_open(
        establishment=est,
        category=DICE_ANOMALY.code,
        actor=actor,
        subjects=list(dice),
        table_session=session,
        description=description,
        circumstances=circumstances,
    )
