"""The registre des clés: every key registered, every hand-over out and back, every socle key
surrendered (KEY-07) and every blind inventory, one line each. Not named by the texts: the
Direction cotes and paraphs it (or the jurisdiction's authority, if it wishes)."""

import re
from collections.abc import Callable, Iterator
from typing import Any

from django.utils.translation import gettext_lazy as _

from ledgers.core.roles import DIRECTORATE, Role
from ledgers.registers.kinds import Column, RegisterKind, register_kind
from ledgers.registers.opening import Need, opening_needs

from .policy import KEY_ADMIN
from .selectors import assets_text, place_names

# How the key services wrote a key's assets before they named them: codes in brackets at the end.
ASSET_CODES = re.compile(r" \[([^\]]*)\]$")


def reading_keys(establishment) -> Callable[[Any], Any]:
    """The key column as read: the assets an entry wrote as codes ("[depot-principal]") named as
    the services now write them ("(Dépôt principal)")."""
    places = place_names(establishment)

    def read(value: Any) -> Any:
        if not isinstance(value, str):
            return value
        return ASSET_CODES.sub(lambda codes: f" ({assets_text(codes[1].split(','), places)})", value)

    return read


REGISTRE_CLES = register_kind(
    RegisterKind(
        code="registre_cles",
        title=_("Registre des clés"),
        purpose=_(
            "Inscrire chaque clé réglementée, chaque remise et chaque restitution, avec son motif, son détenteur "
            "et les signatures, ainsi que les inventaires des clés."
        ),
        columns=(
            Column("event", _("Opération"), 1.1),
            Column("at", _("Date et heure"), 0.9),
            Column("key", _("Clé"), 1.3, reading=reading_keys),
            Column("purpose", _("Motif"), 1.4),
            Column("holder", _("Détenteur"), 1.2),
            Column("due", _("À rendre le"), 0.9),
            Column("signatures", _("Signatures"), 2.0),
            Column("observations", _("Observations"), 1.4),
        ),
        record_roles=tuple(
            dict.fromkeys(
                (
                    *KEY_ADMIN,
                    Role.SUPERVISEUR,
                    Role.MECANICIEN,
                    Role.CAISSIER,
                    Role.CAISSIER_PRINCIPAL,
                    Role.COMPTABILITE,
                    Role.INSPECTEUR,
                    Role.CARTIER,
                    Role.EMPLOYE_JEUX,
                    Role.TECHNICIEN_SFM,
                    Role.POLICE,
                    Role.CHEF_POLICE,
                )
            )
        ),
        paraph_roles=(*DIRECTORATE, Role.COMMISSAIRE, Role.POLICE),
        requirements=("KEY-01", "KEY-02", "KEY-05", "KEY-07", "KEY-11", "KEY-13", "KEY-17"),
    )
)


@opening_needs
def key_register(establishment) -> Iterator[Need]:
    """Every regulated key is registered and handed over in it (MC KEY-01, FR KEY-11)."""
    yield Need(REGISTRE_CLES.code, requirement="KEY-01" if establishment.jurisdiction == "MC" else "KEY-11")
