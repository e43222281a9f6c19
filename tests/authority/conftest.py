"""A French and a Monaco establishment with the people around the authorities' registers."""

from types import SimpleNamespace

import pytest

from ledgers.core.roles import Role
from tests.factories import make_user, open_register
from tests.slots.conftest import _media, fr_room  # noqa: F401  (a French slot room, for SLOT-29)

FR_CAST = (
    Role.DIRECTEUR_RESPONSABLE,
    Role.COMITE,
    Role.POLICE,
    Role.CHEF_POLICE,
    Role.CONTROLE_INTERIEUR,
    Role.AGENT_VERIFICATEUR,
    Role.INSPECTEUR,
)
MC_CAST = (Role.DIRECTEUR_JEUX, Role.SCJ, Role.COMMISSAIRE, Role.INSPECTEUR, Role.CARTIER)


def cast(est, roles):
    return SimpleNamespace(est=est, **{role: make_user(est, role, username=f"{role}-{est.code}") for role in roles})


@pytest.fixture
def fro(fr):
    return cast(fr, FR_CAST)


@pytest.fixture
def mco(mc):
    return cast(mc, MC_CAST)


@pytest.fixture
def police_registers(fro):
    return open_register(fro.est, "observations_police"), open_register(fro.est, "registre_liaison")
