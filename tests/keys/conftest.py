"""A Monaco and a French casino with the homes of their keys, one user per role, the registre des
clés coted and paraphed, and test-only purpose types of kind relève, intervention and count (backed
by séances, so that a test opens and closes them at will). The slot room's real relève and
intervention are exercised in tests/slots/test_keys.py."""

import datetime
from dataclasses import dataclass, field

import pytest
from django.utils import timezone

from ledgers.core.models import Establishment, Seance
from ledgers.core.services import seance_close, seance_open
from ledgers.keys.purposes import PurposeKind, PurposeType, purpose_type
from ledgers.keys.services import key_register
from tests.factories import LocationFactory, make_user, open_register, open_seance_registers

for _kind in (PurposeKind.RELEVE, PurposeKind.INTERVENTION, PurposeKind.COUNT):
    purpose_type(
        PurposeType(
            code=f"test.{_kind}",
            kind=_kind,
            label=f"Test {_kind}",
            model="core.Seance",
            is_open=lambda seance: seance.status == Seance.Status.OPEN,
            establishment=lambda seance: seance.establishment,
            describe=lambda seance, kind=_kind: f"{kind} {seance.pk}",
            open_objects=lambda est: Seance.objects.filter(establishment=est, status=Seance.Status.OPEN),
        )
    )

MC_ROLES = (
    "superviseur",
    "mecanicien",
    "caissier_principal",
    "caissier",
    "comptabilite",
    "directeur_jeux",
    "sous_directeur",
    "inspecteur",
    "cartier",
    "directeur_exploitation",
    "employe_jeux",
)
FR_ROLES = (
    "directeur_responsable",
    "comite",
    "mecanicien",
    "caissier",
    "caissier_principal",
    "employe_jeux",
    "technicien_sfm",
    "police",
    "croupier",
)
PERIODS = ("matin", "apres_midi", "soiree", "nuit")


@dataclass
class Org:
    est: Establishment
    users: dict
    homes: dict = field(default_factory=dict)
    _periods: list = field(default_factory=lambda: list(PERIODS))

    def __getitem__(self, role):
        return self.users[role]

    def user(self, *roles, name=None):
        return make_user(self.est, *roles, username=name)

    def operation(self) -> Seance:
        """A fresh open object to stand for a relève, intervention or count."""
        date = timezone.localdate() - datetime.timedelta(days=len(PERIODS) - len(self._periods) + 10)
        open_seance_registers(self.est)
        return seance_open(establishment=self.est, date=date, period=self._periods.pop(), actor=self.director)

    def close(self, seance: Seance) -> None:
        seance_close(seance=seance, actor=self.director)

    @property
    def director(self):
        return self["directeur_responsable"] if self.est.jurisdiction == "FR" else self["sous_directeur"]

    @property
    def admin(self):
        return self["directeur_responsable"] if self.est.jurisdiction == "FR" else self["directeur_jeux"]

    def key(self, code, lock_type, **kwargs):
        kwargs.setdefault("opens", f"{lock_type} {code}")
        return key_register(establishment=self.est, actor=self.admin, code=code, lock_type=lock_type, **kwargs)


def due(hours: float = 2) -> datetime.datetime:
    return timezone.now() + datetime.timedelta(hours=hours)


@pytest.fixture
def mc_org(mc):
    org = Org(mc, {role: make_user(mc, role, username=f"{role}-{mc.code}") for role in MC_ROLES})
    for kind in ("caisse_centrale", "comptabilite", "coffre"):
        org.homes[kind] = LocationFactory(establishment=mc, code=kind.replace("_", "-"), name=kind, kind=kind)
    open_register(mc, "registre_cles")
    return org


@pytest.fixture
def fr_org(fr):
    org = Org(fr, {role: make_user(fr, role, username=f"{role}-{fr.code}") for role in FR_ROLES})
    org.homes["card_cabinet"] = LocationFactory(
        establishment=fr, code="armoire", name="Dépôt des cartes", kind="card_cabinet"
    )
    open_register(fr, "registre_cles")
    return org
