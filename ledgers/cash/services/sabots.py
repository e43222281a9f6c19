"""The sabot allocation's line on the table's carnet (FR): a punto banco or blackjack table's
carnet d'avances has its own sabot column (SHOE-06); chemin de fer and baccara write it in column 3
of modèle 11, beside the croupiers and changeurs (SHOE-13, AMB-49)."""

from typing import Any

from django.utils.translation import gettext_lazy as _

from ledgers.core.roles import Role
from ledgers.equipment.models import ShoeAllocation
from ledgers.equipment.specs import SHOE_GAMES_FR
from ledgers.registers.services import display_name, register_language

from .common import _cagnotte_write, _carnet_write, _session_fields


def shoe_allocation_write(*, allocation: ShoeAllocation) -> None:
    session, shoe = allocation.table_session, allocation.shoe
    table = session.table
    if table.establishment.jurisdiction != "FR":  # the carnets of the French tables only
        return
    with register_language():
        allocator, role = display_name(allocation.allocated_by), str(Role(allocation.role).label)
        payload: dict[str, Any] = {
            **_session_fields(session),
            "event": str(_("Affectation du sabot")),
            "flags": [flag["text"] for flag in allocation.flags],
        }
        if SHOE_GAMES_FR[table.game]["column"] == "sabot":
            payload["sabot"] = {
                "number": shoe.serial,
                "model": str(shoe.model),
                "allocated_by": allocator,
                "role": role,
            }
            _carnet_write(table, actor=allocation.allocated_by, role=allocation.role, payload=payload)
        else:
            payload["col3"] = {"sabot": shoe.serial, "allocated_by": f"{allocator} ({role})", "names": []}
            _cagnotte_write(table, actor=allocation.allocated_by, role=allocation.role, payload=payload)
