"""A minimal organisation per jurisdiction for the equipment tests: tables, depots, staff and the
register volumes, coté et paraphé."""

import datetime
from types import SimpleNamespace

import pytest

from ledgers.core.models import Seance, SeancePeriod
from ledgers.core.roles import Role
from ledgers.core.services import seance_open, table_session_open, table_session_prepare
from ledgers.equipment import services
from ledgers.equipment.models import ApprovedModel, MachineType
from ledgers.equipment.specs import TEXT_SPECS
from ledgers.incidents.services import incident_close, incident_decide, incident_notify
from tests import sabots
from tests.factories import (
    LocationFactory,
    RoomFactory,
    make_user,
    open_seance_registers,
    post_displays,
    set_up_table,
)

MC_ROLES = (
    Role.CARTIER,
    Role.INSPECTEUR,
    Role.DIRECTEUR_JEUX,
    Role.SOUS_DIRECTEUR,
    Role.ENTRETIEN,
    Role.CROUPIER,
    Role.CHEF_TABLE,
    Role.COMMISSAIRE,
    Role.SCJ,
)
FR_ROLES = (
    Role.DIRECTEUR_RESPONSABLE,
    Role.COMITE,
    Role.EMPLOYE_RESPONSABLE,
    Role.CROUPIER,
    Role.CHEF_TABLE,
    Role.CARTIER,
    Role.POLICE,
    Role.CONTROLE_INTERIEUR,
)
MC_TABLES = {
    "PB1": "punto_banco",
    "BJ1": "blackjack",
    "R1": "roulette",
    "RA1": "roulette_americaine",
    "B1": "boule",
    "GR1": "grande_roue",
    "CR1": "craps",
}
FR_TABLES = {
    "PB1": "punto_banco",
    "BJ1": "blackjack",
    "CF1": "chemin_de_fer",
    "RC1": "roue_chance",
    "UTH1": "ultimate_holdem",
    "TH1": "texas_holdem",
    "RA1": "roulette",
    "CR1": "craps",
}


def build_org(est, roles, tables, locations):
    room = RoomFactory(establishment=est, code="salle", name="Salle des jeux")
    org = SimpleNamespace(est=est, room=room)
    org.users = {role: make_user(est, role, username=f"{role}-{est.code}") for role in roles}
    org.tables = {number: set_up_table(est, number, game, room=room) for number, game in tables.items()}
    post_displays(*org.tables.values())  # FR: the rules displays first (REG-23)
    org.locations = {
        code: LocationFactory(establishment=est, code=code, name=name, kind=kind, room=room)
        for code, name, kind in locations
    }
    org.director = org.users[Role.DIRECTEUR_JEUX if est.jurisdiction == "MC" else Role.DIRECTEUR_RESPONSABLE]
    sabots.open_equipment_volumes(est, org.users, director=org.director)
    org.seance_day = datetime.date(2026, 3, 2)
    return org


def mc_org(mc):
    """The Monaco organisation: its staff, tables, depots and volumes."""
    return build_org(
        mc,
        MC_ROLES,
        MC_TABLES,
        [
            ("depot-principal", "Dépôt principal", "depot_principal"),
            ("depot-annexe", "Dépôt annexe", "depot_annexe"),
            ("caisse", "Caisse centrale", "caisse_centrale"),
        ],
    )


def fr_org(fr):
    """The French organisation: its staff, tables, cabinets and volumes."""
    return build_org(
        fr,
        FR_ROLES,
        FR_TABLES,
        [
            ("armoire", "Armoire « dépôt des cartes »", "card_cabinet"),
            ("armoire-sabots", "Armoire à sabots", "shoe_cabinet"),
            ("magasin", "Magasin", "magasin"),
        ],
    )


@pytest.fixture
def mco(mc):
    return mc_org(mc)


@pytest.fixture
def fro(fr):
    return fr_org(fr)


def seance(org, day: int = 0, period: str = SeancePeriod.SOIREE) -> Seance:
    open_seance_registers(org.est)
    return seance_open(
        establishment=org.est, date=org.seance_day + datetime.timedelta(days=day), period=period, actor=org.director
    )


def session(org, number: str, seance_=None):
    return table_session_prepare(seance=seance_ or seance(org), table=org.tables[number], actor=org.director)


def shoe_model(org, approved: bool = True) -> ApprovedModel:
    return sabots.shoe_model(org.est, actor=org.director, approved=approved)


def receive_shoes(org, numbers, location_code=None, model=None):
    keeper = org.users[Role.CARTIER if org.est.jurisdiction == "MC" else Role.EMPLOYE_RESPONSABLE]
    location = org.locations[location_code or ("depot-principal" if org.est.jurisdiction == "MC" else "armoire")]
    return sabots.receive_shoes(org.est, numbers, location=location, model=model or shoe_model(org), actor=keeper)


def shuffler(org, machine_type=MachineType.CONTINUOUS, approved=True, number="M1", embout=False, commission=True):
    model = services.approved_model_register(
        establishment=org.est,
        kind=ApprovedModel.Kind.SHUFFLER,
        manufacturer="Shuffle Master",
        name=f"Modèle {number}",
        actor=org.director,
        approval_reference="AGR-77" if approved else "",
        approval_issuer="Ministre d'État" if org.est.jurisdiction == "MC" else "Ministre de l'intérieur",
    )
    machine = services.shuffler_register(
        establishment=org.est,
        number=number,
        serial=f"SER-{number}",
        model=model,
        machine_type=machine_type,
        actor=org.director,
        embout=embout,
    )
    if commission:
        machine = services.shuffler_commission(
            shuffler=machine, actor=org.director, card_access_protection=True, malfunction_signal=True
        )
    return machine


def mounted_shuffler(org, table_number, **kwargs):
    machine = shuffler(org, **kwargs)
    socle = services.socle_create(table=org.tables[table_number], code=f"S-{table_number}", actor=org.director)
    return services.shuffler_mount(shuffler=machine, socle=socle, actor=org.director)


def wheel(org, kind, number="C1", spec=None, table=None, commission=True):
    machine = services.wheel_register(
        establishment=org.est, number=number, kind=kind, spec=spec or TEXT_SPECS[kind], actor=org.director
    )
    if commission:
        machine = services.wheel_commission(wheel=machine, actor=org.director)
    if table:
        machine = services.wheel_install(wheel=machine, table=org.tables[table], actor=org.director)
    return machine


def open_wheel_table(org, number, kind, seance_=None):
    """An MC table-partie of a wheel game, open: the wheel installed, checked before the séance by
    the maintenance staff with an inspecteur (WHEEL-06)."""
    wheel(org, kind, number=f"W-{number}", table=number)
    table_session = session(org, number, seance_)
    services.wheel_check_record(
        session=table_session,
        actor=org.users[Role.ENTRETIEN],
        cosigner=org.users[Role.INSPECTEUR],
        points=["Pivot"],
        passed=True,
    )
    return table_session_open(session=table_session, actor=org.director)


def incident_cleared(org, incident, *, reporter, notified: str, decision: str) -> None:
    """``incident`` notified by ``reporter`` to the person on duty holding ``notified``, decided
    and closed by the director."""
    incident_notify(
        incident=incident,
        recipient_role=notified,
        recipient_name="De service",
        notified_at=incident.found_at,
        channel="in_person",
        actor=reporter,
    )
    incident_decide(incident=incident, decision=decision, actor=org.director)
    incident_close(incident=incident, actor=org.director)
