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
    CAGNOTTES_MC,
    CARNET_AVANCES,
    CARNET_CAGNOTTES,
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
    with register_language():
        body = {**_session_fields(session), **payload, "signed_by": f"{display_name(actor)} ({Role(role).label})"}
    return _carnet_write(session.table, actor=actor, role=role, payload=body)


def _carnet_write(table: GamingTable, *, actor: AbstractBaseUser, role: str, payload: dict) -> Entry:
    """Every line of a table's carnet d'avances (FR) and of the MC banque des tables register is
    written here (``carnet_of``)."""
    kind, qualifier = carnet_of(table)
    return entry_write(
        establishment=table.establishment, kind=kind, actor=actor, role=role, payload=payload, qualifier=qualifier
    )


def _cagnotte_write(table: GamingTable, *, actor: AbstractBaseUser, role: str, payload: dict) -> Entry:
    """Every line of the carnet des cagnottes (FR, the table's volume) and of the MC cagnottes
    register is written here."""
    fr = table.establishment.jurisdiction == "FR"
    return entry_write(
        establishment=table.establishment,
        kind=CARNET_CAGNOTTES.code if fr else CAGNOTTES_MC.code,
        actor=actor,
        role=role,
        payload=payload,
        qualifier=table.number if fr else "",
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
