"""The register lines the table cash services share: the carnet of a table's session."""

from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.utils import timezone

from ledgers.core.models import Establishment, GamingTable, TableSession
from ledgers.core.roles import Role
from ledgers.registers.models import Entry
from ledgers.registers.services import display_name, entry_write, register_language

from ..registers import (
    BANQUE_TABLES,
    BLIND_COUNTERS,
    CARNET_AVANCES,
)

COUNTERS = BLIND_COUNTERS


CASHIERS = (Role.CAISSIER, Role.CAISSIER_PRINCIPAL)


def _session_fields(session: TableSession) -> dict[str, Any]:
    return {
        "date": session.seance.date.isoformat(),
        "seance": str(session.seance),
        "table": session.table.number,
        "table_session": session.pk,
    }


def carnet_of(table: GamingTable) -> tuple[str, str]:
    """(kind, qualifier) of the volume a table's floats and counts go to: FR its own carnet
    d'avances numbered like the table (COUNT-49), MC the establishment's register."""
    if table.establishment.jurisdiction == "FR":
        return CARNET_AVANCES.code, table.number
    return BANQUE_TABLES.code, ""


def _carnet_entry(session: TableSession, *, actor: AbstractBaseUser, role: str, payload: dict) -> Entry:
    kind, qualifier = carnet_of(session.table)
    with register_language():
        body = {**_session_fields(session), **payload, "signed_by": f"{display_name(actor)} ({Role(role).label})"}
    return entry_write(
        establishment=session.table.establishment, kind=kind, actor=actor, role=role, payload=body, qualifier=qualifier
    )


def _dated_entry(est: Establishment, kind: str, *, actor: AbstractBaseUser, role: str, payload: dict) -> Entry:
    """A line of an establishment-wide register (modèle 16, the ticket books): today's date, the
    payload, the signer."""
    with register_language():
        body = {
            "date": timezone.localdate().isoformat(),
            **payload,
            "signed_by": f"{display_name(actor)} ({Role(role).label})",
        }
    return entry_write(establishment=est, kind=kind, actor=actor, role=role, payload=body)
