"""Casinos with one table per game the staffing and limits rules name, one user per role (and
several croupiers and chefs de table), and the table-partie log coted and paraphed."""

import datetime
from dataclasses import dataclass, field

import pytest

from ledgers.core.models import Establishment, GamingTable, Seance, TableSession
from ledgers.core.services import seance_open, table_session_prepare
from tests.dice.conftest import fr_org, mc_org  # noqa: F401  (the dice casinos, for the end-to-end tests)
from tests.factories import GamingTableFactory, RoomFactory, make_user, open_seance_registers, post_displays

DAY = datetime.date(2026, 11, 5)


@dataclass
class Casino:
    est: Establishment
    director: object
    tables: dict[str, GamingTable] = field(default_factory=dict)
    users: dict = field(default_factory=dict)
    seance: Seance | None = None

    def __getitem__(self, key):
        return self.users[key]

    def session(self, number: str) -> TableSession:
        return table_session_prepare(seance=self.seance, table=self.tables[number], actor=self.director)


def _casino(est, director_role, tables, roles) -> Casino:
    room = RoomFactory(establishment=est)
    users = {role: make_user(est, role, username=f"{role}-{est.code}") for role in roles}
    for n in range(1, 5):
        users[f"croupier{n}"] = make_user(est, "croupier", username=f"croupier{n}-{est.code}")
        users[f"chef{n}"] = make_user(est, "chef_table", username=f"chef{n}-{est.code}")
    casino = Casino(est=est, director=users[director_role], users=users)
    for number, game, seats in tables:
        casino.tables[number] = GamingTableFactory(establishment=est, room=room, number=number, game=game, seats=seats)
    post_displays(*casino.tables.values())  # FR: the rules displays first (REG-23)
    open_seance_registers(est)
    casino.seance = seance_open(establishment=est, date=DAY, period="soiree", actor=casino.director)
    return casino


@pytest.fixture
def mcc(mc):
    return _casino(
        mc,
        "directeur_jeux",
        [
            ("BJ1", "blackjack", 7),
            ("BJ2", "blackjack", 7),
            ("OD1", "blackjack_one_deck", 7),
            ("PB1", "punto_banco", 14),
            ("PB9", "punto_banco", 9),
            ("CR1", "craps", 12),
            ("BO1", "boule", 20),
            ("CF1", "chemin_de_fer", 10),
        ],
        ("directeur_jeux", "sous_directeur", "inspecteur", "changeur", "croupier"),
    )


@pytest.fixture
def frc(fr):
    return _casino(
        fr,
        "directeur_responsable",
        [
            ("BJ1", "blackjack", 7),
            ("PB1", "punto_banco", 16),
            ("PB2", "punto_banco", 7),
            ("PB3", "punto_banco", 16),
            ("UT1", "ultimate_holdem", 7),
            ("UT2", "ultimate_holdem", 7),
            ("UT3", "ultimate_holdem", 7),
            ("TC1", "three_card_poker", 7),
            ("RP1", "rampo", 8),
            ("RC1", "roue_chance", 12),
            ("CF1", "chemin_de_fer", 10),
        ],
        ("directeur_responsable", "comite", "chef_partie", "changeur", "croupier"),
    )
