"""The demo seeder: runs on the organisation the core seeder makes, adds nothing the second time,
and every register it writes verifies."""

import io

import pytest

from ledgers.core.demo import DEMO_FR, DEMO_MC, demo_username
from ledgers.core.models import GamingTable
from ledgers.core.roles import Role
from ledgers.custody.models import DestructionSession
from ledgers.equipment import demo
from ledgers.equipment.models import LaunchRoster, LaunchTurn, Shoe, ShoeAllocation, ShufflerUse, WheelCheck
from ledgers.incidents.models import Incident
from ledgers.registers.models import Entry, Register
from ledgers.registers.verification import verify_register
from tests.factories import (
    EstablishmentFactory,
    GamingTableFactory,
    LocationFactory,
    RoomFactory,
    cercle_cagnottes,
    make_user,
    open_seance_registers,
    post_displays,
)

DAYS = 12  # every event of the demo month happens in its first twelve days

ORG = {
    DEMO_MC: (
        "MC",
        {"europe": ["BJ1:blackjack", "R1:roulette", "R2:roulette"], "ameriques": ["PB1:punto_banco"]},
        [
            ("depot-principal", "depot_principal", None),
            ("depot-europe", "depot_annexe", "europe"),
            ("depot-ameriques", "depot_annexe", "ameriques"),
        ],
        (
            Role.CARTIER,
            Role.CROUPIER,
            Role.CHEF_TABLE,
            Role.INSPECTEUR,
            Role.SOUS_DIRECTEUR,
            Role.DIRECTEUR_JEUX,
            Role.ENTRETIEN,
            Role.COMMISSAIRE,
            Role.SCJ,
        ),
    ),
    DEMO_FR: (
        "FR",
        {
            "salle-jeux": [
                "BJ1:blackjack",
                "BJ2:blackjack",
                "PB1:punto_banco",
                "RC1:roue_chance",
                "RA1:roulette",
                "UTH1:ultimate_holdem",
            ],
            "cercle": ["CF1:chemin_de_fer"],
        },
        [("armoire-cartes", "card_cabinet", "salle-jeux")],
        (
            Role.CROUPIER,
            Role.CHEF_TABLE,
            Role.DIRECTEUR_RESPONSABLE,
            Role.COMITE,
            Role.EMPLOYE_RESPONSABLE,
            Role.POLICE,
            Role.CONTROLE_INTERIEUR,
        ),
    ),
}


def build_demo_organisation():
    for code, (jurisdiction, rooms, locations, roles) in ORG.items():
        est = EstablishmentFactory(code=code, name=f"Casino {code}", jurisdiction=jurisdiction)
        room_objs = {name: RoomFactory(establishment=est, code=name, name=name) for name in rooms}
        for room, tables in rooms.items():
            for spec in tables:
                number, game = spec.split(":")
                GamingTableFactory(establishment=est, room=room_objs[room], number=number, game=game)
        for loc_code, kind, room in locations:
            LocationFactory(
                establishment=est, code=loc_code, name=loc_code, kind=kind, room=room_objs[room] if room else None
            )
        for role in roles:
            make_user(est, role, username=demo_username(code, role))


def counts():
    return (
        Shoe.objects.count(),
        ShoeAllocation.objects.count(),
        ShufflerUse.objects.count(),
        WheelCheck.objects.count(),
        LaunchTurn.objects.count(),
        Incident.objects.count(),
        Entry.objects.count(),
    )


@pytest.mark.postgresql
def test_demo_seed_runs_is_idempotent_and_every_register_verifies(db):
    build_demo_organisation()
    open_seance_registers()  # the registers seeder's, which runs before (séances write in them)
    post_displays(*GamingTable.objects.all())  # the authority seeder's, which runs first (REG-23)
    cercle_cagnottes(*GamingTable.objects.all())  # the cash seeder's, before any seeder plays (COUNT-42)
    out = io.StringIO()
    demo.seed(stdout=out, days=DAYS)
    first = counts()
    assert "séances d'historique ajoutées" in out.getvalue()
    demo.seed(stdout=io.StringIO(), days=DAYS)
    assert counts() == first
    assert ShoeAllocation.objects.exclude(flags=[]).exists()  # repeats and comité allocations flagged
    assert WheelCheck.objects.filter(passed=False).count() == 2  # one failed check per casino (INC-08)
    assert Incident.objects.filter(category="shuffler_malfunction").count() == 1
    assert Incident.objects.filter(status=Incident.Status.OPEN).count() == 0
    # FR's done before the police; MC's announced to the SCJ for the next day, which it may attend (CARD-11).
    assert Shoe.objects.filter(status__in=("destroyed", "neutralised")).count() == 1
    assert DestructionSession.objects.filter(establishment__jurisdiction="MC", status="planned").count() == 1
    # MC roulettes: an ordre de roulement per open table-partie; three days depart from it (WHEEL-09).
    assert LaunchRoster.objects.count() == 2 * DAYS - 1  # R2 stays closed after its failed check
    flagged = {
        (t.table_session.seance.date, t.table_session.table.number)
        for t in LaunchTurn.objects.exclude(flags=[]).select_related("table_session__seance", "table_session__table")
    }
    assert len(flagged) == 3
    for register in Register.objects.all():
        assert verify_register(register) is None, register.number
