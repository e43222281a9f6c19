"""The roles the slot services check and the register lines they append."""

import datetime
from typing import Any

from django.contrib.auth.models import AbstractBaseUser

from ledgers.core.models import Establishment
from ledgers.core.roles import DIRECTORATE, Role
from ledgers.registers.kinds import RegisterKind
from ledgers.registers.models import Entry, Register
from ledgers.registers.selectors import current_register
from ledgers.registers.services import (
    display_name,
    entry_append,
    register_language,
)

from ..models import (
    Machine,
)
from ..registers import MACHINE_FICHE

# Who keeps the inventory: MC the Directeur de l'exploitation (SLOT-08) or the Direction; FR the
# directeur responsable or a comité member (they sign the fiche modèle 34, SLOT-52).
INVENTORY_ROLES = {
    "MC": (Role.DIRECTEUR_EXPLOITATION, *DIRECTORATE),
    "FR": (Role.DIRECTEUR_RESPONSABLE, Role.COMITE),
}


# Who opens a machine: MC the mechanic alone, identified on the monitoring system (SLOT-14); FR
# the casino mechanic, the employee in charge where ≤ 75 machines run (SET-43), or the SFM (68-30).
INTERVENTION_ROLES = {
    "MC": (Role.MECANICIEN,),
    "FR": (Role.MECANICIEN, Role.TECHNICIEN_SFM, Role.EMPLOYE_JEUX),
}


# Who records a RAM clear: MC the mechanic or the superviseur who hands him the keys (SLOT-22);
# FR only a comité member, who alone holds the reset keys (KEY-15).
RAM_CLEAR_ROLES = {"MC": (Role.MECANICIEN, Role.SUPERVISEUR), "FR": (Role.COMITE,)}


# Who reads meters at a relève: the superviseur directs it (SLOT-22); FR the gaming employee
# reads under the comité member's responsibility (SLOT-47).
READING_ROLES = (Role.SUPERVISEUR, Role.EMPLOYE_JEUX, Role.COMITE, Role.DIRECTEUR_RESPONSABLE)


COUNT_ROLES = (Role.SUPERVISEUR, Role.COMITE, Role.CAISSIER, Role.EMPLOYE_JEUX)


def _signature(actor: AbstractBaseUser, role: str) -> str:
    return f"{display_name(actor)} — {Role(role).label}"


def _line(
    machine: Machine | None,
    *,
    event: Any,
    at: datetime.datetime,
    detail: str,
    actor: AbstractBaseUser,
    role: str,
    est: Establishment,
    **extra: Any,
) -> dict[str, Any]:
    return {
        "event": str(event),
        "at": est.localtime(at).strftime("%Y-%m-%d %H:%M"),
        "machine": machine.number if machine else "",
        "detail": detail,
        "signature": _signature(actor, role),
        **extra,
    }


def _append(
    kinds: dict,
    machine: Machine | None,
    est: Establishment,
    *,
    actor: AbstractBaseUser,
    role: str,
    event: Any,
    at: datetime.datetime,
    detail: str,
    register_qualifier: str = "",
    **extra: Any,
) -> Entry:
    """One line in the register ``kinds`` names for the jurisdiction (the volume ``register_qualifier``
    names, e.g. a JPM's modèle 26), and (FR) the machine's fiche 34."""
    with register_language():
        payload = _line(machine, event=event, at=at, detail=detail, actor=actor, role=role, est=est, **extra)
    entry = _register_write(est, kinds[est.jurisdiction], payload, actor=actor, role=role, qualifier=register_qualifier)
    if est.jurisdiction == "FR" and machine is not None:
        _fiche_write(machine, payload, actor=actor, role=role)
    return entry


def _register_write(
    est: Establishment,
    kind: RegisterKind,
    payload: dict[str, Any],
    *,
    actor: AbstractBaseUser,
    role: str,
    qualifier: str = "",
) -> Entry:
    """Every line of a slot register is written here (the counts, the change points and the
    visaed accounting lines apart, see ``counts``, ``cashdesk`` and ``accounting``): in the volume
    of ``kind`` in service, the one ``qualifier`` names, in the role the register accepts."""
    register = current_register(est, kind.code, qualifier)
    return entry_append(register=register, actor=actor, role=_writer(register, role), payload=payload)


def _fiche_write(machine: Machine, payload: dict[str, Any], *, actor: AbstractBaseUser, role: str) -> Entry:
    """The same line on the machine's fiche modèle 34 (FR)."""
    return _register_write(
        machine.establishment, MACHINE_FICHE, payload, actor=actor, role=role, qualifier=machine.casino_number
    )


def _writer(register: Register | RegisterKind, role: str) -> str:
    """The role the line is written in: the actor's, when the register accepts it (an inventory
    keeper writing a reading line appears as himself)."""
    kind = register.kind_info if isinstance(register, Register) else register
    return role if role in kind.record_roles else kind.record_roles[0]
