"""A minimal Monaco casino with a craps table and a minimal French casino with a rampo table:
depots, one user per role, and the registers dice write to, coted and paraphed."""

import datetime
from dataclasses import dataclass, field
from decimal import Decimal

import pytest
from django.utils import timezone

from ledgers.core.models import Establishment, GamingTable, Location, Seance, TableSession
from ledgers.core.services import seance_open, table_session_open, table_session_prepare
from ledgers.dice.models import DicePair, Die
from ledgers.dice.rules import CHECKLIST
from ledgers.dice.services import DieInput, dice_allocate, dice_pairs_cap_set, dice_receive
from tests.factories import (
    LocationFactory,
    RoomFactory,
    make_user,
    open_register,
    open_seance_registers,
    post_displays,
    set_up_table,
)

MC_ROLES = ("cartier", "chef_table", "inspecteur", "sous_directeur", "directeur_jeux", "scj", "commissaire", "croupier")
FR_ROLES = ("employe_responsable", "chef_table", "directeur_responsable", "comite", "police", "croupier")
PASSED = {key: True for key in CHECKLIST}


@dataclass
class Org:
    est: Establishment
    table: GamingTable
    depot: Location
    users: dict
    annex: Location | None = None
    other_table: GamingTable | None = None
    registers: dict = field(default_factory=dict)
    _seq: list = field(default_factory=lambda: [0])

    def __getitem__(self, role):
        return self.users[role]

    def serial(self) -> str:
        self._seq[0] += 1
        return f"{self.est.code.upper()}{self._seq[0]:05d}"

    def seance(self, days_ago: int = 0, period: str = "soiree") -> Seance:
        date = timezone.localdate() - datetime.timedelta(days=days_ago)
        existing = Seance.objects.filter(establishment=self.est, date=date, period=period).first()
        if existing is not None:
            return existing
        actor = self["directeur_responsable"] if self.est.jurisdiction == "FR" else self["sous_directeur"]
        open_seance_registers(self.est)
        return seance_open(establishment=self.est, date=date, period=period, actor=actor)

    def session(self, seance: Seance | None = None, table: GamingTable | None = None) -> TableSession:
        actor = self["directeur_responsable"] if self.est.jurisdiction == "FR" else self["sous_directeur"]
        return table_session_prepare(seance=seance or self.seance(), table=table or self.table, actor=actor)


def _users(est, roles):
    return {role: make_user(est, role, username=f"{role}-{est.code}") for role in roles}


@pytest.fixture
def mc_org(mc):
    room = RoomFactory(establishment=mc)
    org = Org(
        est=mc,
        table=set_up_table(mc, "CR1", "craps", room=room),
        other_table=set_up_table(mc, "CR2", "craps", room=room),
        depot=LocationFactory(establishment=mc, code="depot-principal", name="Dépôt principal", kind="depot_principal"),
        annex=LocationFactory(
            establishment=mc, code="depot-annexe", name="Dépôt annexe", kind="depot_annexe", room=room
        ),
        users=_users(mc, MC_ROLES),
    )
    for kind, qualifier in (
        ("prise_en_charge", "des"),
        ("comptabilite_annexe", "dice"),
        ("bons_commande", "dice"),
        ("des_en_service", ""),
        ("incidents", ""),
    ):
        org.registers[kind] = open_register(mc, kind, qualifier)
    return org


@pytest.fixture
def fr_org(fr):
    room = RoomFactory(establishment=fr)
    org = Org(
        est=fr,
        table=set_up_table(fr, "RP1", "rampo", room=room),
        other_table=set_up_table(fr, "RP2", "rampo", room=room),
        depot=LocationFactory(
            establishment=fr, code="armoire-cartes", name="Armoire « dépôt des cartes »", kind="card_cabinet", room=room
        ),
        users=_users(fr, FR_ROLES),
    )
    for kind, qualifier in (
        ("carnet_19", "des"),
        ("bons_commande", "dice"),
        ("rampo_special", ""),
        ("incidents", ""),
        ("informations_autorites", ""),
    ):
        org.registers[kind] = open_register(fr, kind, qualifier)
    open_seance_registers(fr)  # the main courante, where the Minister's cap is written
    dice_pairs_cap_set(
        establishment=fr,
        max_pairs=10,
        reference="Décision du ministre de l'intérieur du 2 mars 2026",
        actor=org["directeur_responsable"],
    )
    fr.refresh_from_db()
    post_displays(org.table, org.other_table)  # the rampo texts displayed first (REG-23)
    return org


def mc_inputs(org: Org, n: int, **overrides) -> list[DieInput]:
    return [DieInput(serial=org.serial(), sigle="SBM", inspection=PASSED, **overrides) for _ in range(n)]


def fr_inputs(org: Org, pairs: int, colours=("rouge", "vert"), side=Decimal("22.00")) -> list[DieInput]:
    inputs = []
    for p in range(pairs):
        key = f"p{org._seq[0]}-{p}"
        inputs += [
            DieInput(serial=org.serial(), sigle="CNI", colour=colour, side_mm=side, inspection=PASSED, pair=key)
            for colour in colours
        ]
    return inputs


def receive_mc(org: Org, n: int = 5, location=None) -> list[Die]:
    return dice_receive(
        establishment=org.est, location=location or org.depot, dice=mc_inputs(org, n), actor=org["cartier"]
    )


def fr_order(org: Org, pairs: int = 2):
    from ledgers.custody.services import purchase_order_issue, purchase_order_visa, supplier_register
    from ledgers.dice.domains import DICE

    name = "Fabrique de dés agréée"
    supplier = org.est.suppliers.filter(domain="dice", name=name).first() or supplier_register(
        establishment=org.est,
        domain=DICE,
        name=name,
        actor=org["directeur_responsable"],
        approval_reference="Agrément n° 12/2024",
        approval_issuer="Ministre de l'intérieur",
        approved_from=datetime.date(2024, 1, 1),
    )
    order = purchase_order_issue(
        establishment=org.est,
        domain=DICE,
        supplier=supplier,
        carnet="21-001",
        lines=[{"category": "des", "quantity": pairs * 2}],
        actor=org["directeur_responsable"],
    )
    return purchase_order_visa(order=order, actor=org["police"], statement="Vu, commissaire de police")


def receive_fr(org: Org, pairs: int = 2) -> list[DicePair]:
    order = fr_order(org, pairs)
    dice = dice_receive(
        establishment=org.est,
        location=org.depot,
        dice=fr_inputs(org, pairs),
        actor=org["employe_responsable"],
        order=order,
    )
    return list(DicePair.objects.filter(dice__in=dice).distinct().order_by("number"))


def allocate_mc(org: Org, session: TableSession, dice=None):
    dice = dice if dice is not None else receive_mc(org, 5)
    return dice_allocate(session=session, dice=dice, actor=org["cartier"], signer=org["sous_directeur"])


def allocate_fr(org: Org, session: TableSession, pairs=None):
    pairs = pairs if pairs is not None else receive_fr(org, 2)
    return dice_allocate(session=session, pairs=pairs, actor=org["chef_table"], signer=org["directeur_responsable"])


def open_table(org: Org, session: TableSession) -> TableSession:
    actor = org["directeur_responsable"] if org.est.jurisdiction == "FR" else org["sous_directeur"]
    return table_session_open(session=session, actor=actor)
