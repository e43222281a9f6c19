"""A minimal organisation per jurisdiction for the table cash tests: tables, a cash desk, staff
and the register volumes, coté et paraphé by their authorities."""

import datetime
from decimal import Decimal
from types import SimpleNamespace

import pytest
from django.utils import timezone

from ledgers.cash import services
from ledgers.cash.models import ChangeurFloat, SlipBook
from ledgers.cash.registers import (
    BANQUE_TABLES,
    BONS_CAISSE,
    CAGNOTTES_MC,
    CARNET_AVANCES,
    CARNET_CAGNOTTES,
    CARNET_ORPHELINS,
    CARNET_PRELEVEMENTS,
    CARNETS_TICKETS,
    REGISTRE_BBJ,
    REGISTRE_CHANGE,
    REGISTRE_CONTROLE,
    REGISTRE_PLAQUES,
)
from ledgers.cash.services import changeurs
from ledgers.cash.services.table_cagnottes import table_cagnotte_record
from ledgers.core.authz import save_audited
from ledgers.core.models import TableSession
from ledgers.core.roles import Role
from ledgers.core.services import seance_open, table_session_close, table_session_open, table_session_prepare
from ledgers.incidents.registers import AUTHORITY_NOTICES, INCIDENT_REGISTER
from ledgers.registers.kinds import get_kind
from ledgers.registers.services import register_create, register_open
from ledgers.tables.rules import LIMITS, MIN_PLAYERS
from ledgers.tables.services import table_limits_set
from tests.factories import (
    LocationFactory,
    RoomFactory,
    make_user,
    open_seance_registers,
    post_displays,
    set_up_table,
)

FR_ROLES = (
    Role.DIRECTEUR_RESPONSABLE,
    Role.COMITE,
    Role.CAISSIER,
    Role.CAISSIER_PRINCIPAL,
    Role.CROUPIER,
    Role.CHEF_TABLE,
    Role.CHEF_PARTIE,
    Role.CHANGEUR,
    Role.CONTROLE_INTERIEUR,
    Role.COMPTABLE_TRESOR,
    Role.POLICE,
    Role.GARDIEN_CARNETS,
    Role.COMPTABILITE,
)
MC_ROLES = (
    Role.DIRECTEUR_JEUX,
    Role.SOUS_DIRECTEUR,
    Role.INSPECTEUR,
    Role.CAISSIER,
    Role.CAISSIER_PRINCIPAL,
    Role.CROUPIER,
    Role.CHEF_TABLE,
    Role.CHANGEUR,
    Role.COMMISSAIRE,
)
FR_TABLES = {"RA1": "roulette", "RA2": "roulette", "B1": "boule", "B2": "boule", "TH1": "texas_holdem"}
MC_TABLES = {"BJ1": "blackjack", "BJ2": "blackjack", "CF1": "chemin_de_fer"}


class Org(SimpleNamespace):
    def __getitem__(self, role):
        return self.users[role]

    def seance(self, day: int = 0, period: str = "soiree"):
        open_seance_registers(self.est)
        return seance_open(
            establishment=self.est, date=self.day + datetime.timedelta(days=day), period=period, actor=self.director
        )

    def session(self, number: str, seance=None, stake: str | None = "10", open_: bool = True):
        session = table_session_prepare(seance=seance or self.seance(), table=self.tables[number], actor=self.director)
        if stake is not None:
            # Through the limits service: the least the game's rules accept (seated players, a
            # maximum at the smallest multiple the text allows).
            game, minimum = (self.est.jurisdiction, session.table.game), Decimal(stake)
            players = MIN_PLAYERS.get(game, ("", None))[1]
            multiples = LIMITS[game].multiples if game in LIMITS else ()
            maximum = minimum * multiples[0] if multiples else None
            table_limits_set(
                session=session, actor=self.director, minimum_stake=minimum, maximum_stake=maximum, players=players
            )
            session.refresh_from_db()
        return table_session_open(session=session, actor=self.director) if open_ else session

    def opened_unchecked(self, number: str):
        """A table-partie already open when its table's opening checks were stricter than now: the
        services behind the opening still refuse on their own."""
        session = self.session(number, open_=False)
        session.status, session.opened_at = TableSession.Status.OPEN, timezone.now()
        return save_audited(session, actor=self.director)

    def close(self, session):
        return table_session_close(session=session, actor=self.director)

    def open_register(self, kind: str, qualifier: str = ""):
        authority_role = next(r for r in get_kind(kind).paraph_roles_for(self.est.jurisdiction) if r in self.users)
        register = register_create(establishment=self.est, kind=kind, actor=self.director, qualifier=qualifier)
        register_open(register=register, actor=self.users[authority_role], paraphe="PA")
        register.refresh_from_db()
        return register


def build(est, roles, tables):
    room = RoomFactory(establishment=est, code="salle", name="Salle des jeux")
    org = Org(est=est, room=room, day=datetime.date(2026, 3, 2))
    org.users = {role: make_user(est, role, username=f"{role}-{est.code}") for role in roles}
    org.tables = {number: set_up_table(est, number, game, room=room) for number, game in tables.items()}
    post_displays(*org.tables.values())  # FR: the rake rate displayed first (REG-23, COUNT-20)
    org.desk = LocationFactory(establishment=est, code="caisse-1", name="Caisse 1", kind="caisse_centrale", room=room)
    org.director = org.users[Role.DIRECTEUR_JEUX if est.jurisdiction == "MC" else Role.DIRECTEUR_RESPONSABLE]
    return org


@pytest.fixture
def fro(fr):
    org = build(fr, FR_ROLES, FR_TABLES)
    org.users["comite2"] = make_user(fr, Role.COMITE, username="comite2-frn")
    org.users["caissier2"] = make_user(fr, Role.CAISSIER, username="caissier2-frn")
    for number, table in org.tables.items():
        carnet = CARNET_AVANCES if table.game_info.family == "contrepartie" else CARNET_CAGNOTTES
        org.open_register(carnet.code, number)
        if carnet is CARNET_CAGNOTTES:  # its own cagnotte, numbered like it (COUNT-17, COUNT-42)
            table_cagnotte_record(table=table, number=number, actor=org.director)
        if carnet is CARNET_AVANCES:  # the locked box built into the table (COUNT-37)
            services.table_box_record(
                table=table, box_id=f"CI-{number}", key_reference=f"K-{number}", actor=org.director
            )
    for kind in (
        BONS_CAISSE.code,
        REGISTRE_CONTROLE.code,
        REGISTRE_BBJ.code,
        CARNET_ORPHELINS.code,
        CARNET_PRELEVEMENTS.code,
        INCIDENT_REGISTER.code,
        REGISTRE_PLAQUES.code,
        CARNETS_TICKETS.code,
        AUTHORITY_NOTICES.code,
    ):
        org.open_register(kind)
    org.open_register(REGISTRE_CHANGE.code, org.desk.code)
    return org


@pytest.fixture
def mco(mc):
    org = build(mc, MC_ROLES, MC_TABLES)
    org.users["inspecteur2"] = make_user(mc, Role.INSPECTEUR, username="inspecteur2-mcb")
    for kind in (BANQUE_TABLES.code, BONS_CAISSE.code, CAGNOTTES_MC.code, INCIDENT_REGISTER.code):
        org.open_register(kind)
    open_seance_registers(mc)  # the main courante, where the Direction's settings are written
    for number in ("BJ1", "BJ2"):
        services.float_amount_fix(table=org.tables[number], amount=Decimal("50000"), actor=org.director)
    return org


def plaques(total: int, value: int = 1000) -> list[dict]:
    """A nomenclature of ``total`` euros in plaques of ``value`` (and chips for the rest)."""
    lines = [{"value": str(value), "quantity": total // value, "kind": "plaque"}] if total >= value else []
    if total % value:
        lines.append({"value": "1", "quantity": total % value, "kind": "jeton"})
    return lines


def fr_avance(org, session, amount: int = 150_000, **kwargs):
    """An FR avance signed by the directeur responsable, counted by the croupier and called aloud."""
    fields = {
        "box_number": session.table.number,
        "counted_by": "Croupier Test",
        "called_aloud": True,
        "transport_box": "BT-1",
        "carnet_on_table": True,
        **kwargs,
    }
    return services.float_record(session=session, breakdown=plaques(amount), actor=org.director, **fields)


def mc_bank(org, session, amount: int = 50_000, **kwargs):
    kwargs.setdefault("receiver", org[Role.CHEF_TABLE])
    return services.float_record(session=session, breakdown=plaques(amount), actor=org[Role.CAISSIER], **kwargs)


def counted(org, session, total: int, second: int | None = None, first_by=None, second_by=None):
    """Both blind counts of a closed table-partie: the croupier's, then the cashier's."""
    services.count_record(
        session=session,
        breakdown=plaques(total),
        actor=first_by or org[Role.CROUPIER],
        present=["Croupier Test", "Chef Test"],
        called_aloud=True,
        tips=Decimal(0),
    )
    return services.count_record(
        session=session, breakdown=plaques(total if second is None else second), actor=second_by or org[Role.CAISSIER]
    )


def certified(org, session, total: int, **kwargs):
    count = counted(org, session, total)
    certifier = org[Role.COMITE] if org.est.jurisdiction == "FR" else org[Role.INSPECTEUR]
    return services.count_certify(count=count, actor=certifier, words="exact", **kwargs)


def book(org, kind=SlipBook.Kind.RAVITAILLEMENT, number="B-1", first=1, last=50):
    return services.slip_book_open(
        establishment=org.est, kind=kind, number=number, first_number=first, last_number=last, actor=org.director
    )


def changeur_box(org, session, amount: int = 5_000):
    """The changeur's cash box of a cercle table-partie, of the sum fixed by the directeur
    responsable, written in carnet modèle 11 before he changes (COUNT-28); once per partie."""
    existing = ChangeurFloat.objects.filter(table_session=session, changeur=org[Role.CHANGEUR]).first()
    if existing is not None:
        return existing
    if changeurs.fixed_amount(session.table) is None:
        changeurs.changeur_float_fix(table=session.table, amount=Decimal(amount), actor=org.director)
    return changeurs.changeur_float_record(
        session=session, changeur=org[Role.CHANGEUR], breakdown=plaques(amount), actor=org.director
    )
