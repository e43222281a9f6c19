"""Helpers of the staff tests: the house's director, and the lines of its register of
authorisations as text."""

import json

from ledgers.core.roles import Role
from ledgers.registers.models import Entry
from tests.factories import make_user

AUTHORISATIONS = "habilitations"


def director_of(establishment):
    role = Role.DIRECTEUR_JEUX if establishment.jurisdiction == "MC" else Role.DIRECTEUR_RESPONSABLE
    return make_user(establishment, role)


def authorisation_lines(establishment) -> list[str]:
    """Each record line of the establishment's register of authorisations, its payload as text."""
    entries = Entry.objects.filter(
        register__establishment=establishment, register__kind=AUTHORISATIONS, kind="record"
    ).order_by("register_id", "seq")
    return [json.dumps(entry.payload, ensure_ascii=False) for entry in entries]
