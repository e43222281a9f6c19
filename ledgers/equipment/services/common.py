"""What the equipment services share: who may act, the register lines, the live table-partie."""

from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from ledgers.core.models import Establishment, Seance, TableSession
from ledgers.core.roles import Role
from ledgers.core.services import table_session_locked
from ledgers.registers.models import Entry
from ledgers.registers.services import display_name, entry_write

from ..registers import (
    MATERIEL_JEU,
)

# Who manages the equipment (registers models and assets, commissions, mounts): the Direction.
MANAGERS = {
    "MC": (Role.DIRECTEUR_JEUX, Role.SOUS_DIRECTEUR, Role.INSPECTEUR),
    "FR": (Role.DIRECTEUR_RESPONSABLE, Role.COMITE),
}


# The staff of a table who start, stop and watch a shuffler during the séance.
TABLE_STAFF = (Role.CROUPIER, Role.CHEF_TABLE, Role.CHEF_PARTIE, Role.INSPECTEUR)


# FR: who keeps the sabot cabinet and allocates (art. 58, 57-13).
FR_SHOE_KEEPERS = (Role.DIRECTEUR_RESPONSABLE, Role.COMITE, Role.EMPLOYE_RESPONSABLE)


def _fr(value: Any) -> str:
    """Register entries are written in French whatever the user's interface language."""
    with translation.override("fr"):
        return str(value)


def _session_fields(session: TableSession) -> dict[str, Any]:
    return {
        "date": session.seance.date.isoformat(),
        "seance": _fr(session.seance),
        "table": session.table.number,
        "table_session": session.pk,
    }


def _equipment_entry(
    est: Establishment,
    *,
    actor: AbstractBaseUser,
    role: str,
    event,
    equipment: Any,
    details: Any = "",
    session: TableSession | None = None,
    table_number: str = "",
) -> Entry:
    """An entry of the register of the equipment's life (MATERIEL_JEU)."""
    payload = {
        "event": _fr(event),
        "equipment": _fr(equipment),
        "details": details if isinstance(details, list) else _fr(details),
        "signed_by": display_name(actor),
        "table": table_number,
        "seance": "",
    }
    if session is not None:
        payload.update(_session_fields(session))
    return entry_write(establishment=est, kind=MATERIEL_JEU.code, actor=actor, role=role, payload=payload)


def _live_session(session: TableSession) -> TableSession:
    session = table_session_locked(session)
    if session.status == TableSession.Status.CLOSED or session.seance.status != Seance.Status.OPEN:
        raise ValidationError(_("La partie de la table %(table)s est terminée.") % {"table": session.table})
    return session
