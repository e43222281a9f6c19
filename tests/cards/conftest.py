"""A minimal card-room organisation per jurisdiction, built through the services."""

import datetime
import itertools

import pytest
from django.utils import timezone

from ledgers.cards import services
from ledgers.cards.domains import CARDS
from ledgers.cards.models import CardUnit, Category
from ledgers.cards.services import ReceivedDeck, ReceivedUnit
from ledgers.core.errors import RuleViolation
from ledgers.core.games import GAMES as CATALOGUE
from ledgers.core.models import Seance, TableSession
from ledgers.core.roles import Role
from ledgers.core.services import seance_open, table_session_close, table_session_open, table_session_prepare
from ledgers.custody import services as custody
from ledgers.equipment import selectors as equipment_selectors
from ledgers.equipment import services as equipment
from ledgers.equipment.models import Shoe
from ledgers.equipment.specs import SHOE_GAMES_FR
from ledgers.keys.services import key_register
from tests import sabots
from tests.factories import (
    LocationFactory,
    RoomFactory,
    make_user,
    open_register,
    open_seance_registers,
    post_displays,
    set_up_table,
)

_serials = itertools.count(1000)


def refused(code: str, fn, *args, **kwargs) -> RuleViolation:
    """Call ``fn`` and check that the texts refuse it with requirement ``code``."""
    with pytest.raises(RuleViolation) as exc:
        fn(*args, **kwargs)
    assert exc.value.code == code, exc.value
    return exc.value


MC_ROLES = (
    Role.CARTIER,
    Role.DCC_STAFF,
    Role.CROUPIER,
    Role.CHEF_TABLE,
    Role.INSPECTEUR,
    Role.SOUS_DIRECTEUR,
    Role.DIRECTEUR_JEUX,
    Role.SCJ,
    Role.COMMISSAIRE,
)
FR_ROLES = (
    Role.CARTIER,
    Role.CROUPIER,
    Role.CHEF_TABLE,
    Role.DIRECTEUR_RESPONSABLE,
    Role.COMITE,
    Role.EMPLOYE_RESPONSABLE,
    Role.POLICE,
    Role.CONTROLE_INTERIEUR,
)
GAMES = (
    "blackjack",
    "blackjack_one_deck",
    "punto_banco",
    "chemin_de_fer",
    "banque_tout_va",
    "three_card_poker",
    "ultimate_holdem",
    "baccara_deux_tableaux",
    "trente_quarante",
    "roulette",
)


class World:
    """One establishment with its card depots, tables of many games, one user per role, the card
    registers opened by their authorities, an approved manufacturer and an open séance."""

    def __init__(self, est):
        self.est = est
        self.mc = est.jurisdiction == "MC"
        roles = MC_ROLES if self.mc else FR_ROLES
        self.u = {role: make_user(est, role, username=f"{role}-{est.code}") for role in roles}
        self.room = RoomFactory(establishment=est, code="salle", name="Salle Europe")
        self.sp_room = RoomFactory(establishment=est, code="sp", name="Salon super privé")
        if self.mc:
            self.depot = LocationFactory(
                establishment=est, code="principal", name="Dépôt principal", kind="depot_principal"
            )
            self.annex = LocationFactory(
                establishment=est, code="annexe", name="Dépôt annexe", kind="depot_annexe", room=self.room
            )
            self.dcc = LocationFactory(establishment=est, code="dcc", name="Dépôt Central des Cartes", kind="dcc")
        else:
            self.depot = LocationFactory(
                establishment=est,
                code="armoire",
                name="Armoire « dépôt des cartes »",
                kind="card_cabinet",
                room=self.room,
            )
            self.annex = self.dcc = None
        self.tables = {
            game: set_up_table(est, game[:10].upper(), game, room=self.room)
            for game in GAMES
            if est.jurisdiction in CATALOGUE[game].jurisdictions
        }
        self.tables["super_prive"] = set_up_table(est, "SP1", "punto_banco", room=self.sp_room, super_prive=True)
        post_displays(*self.tables.values())  # FR: the rules displays first (REG-23)
        self.registers = {}
        if self.mc:
            for category, _label in Category.choices:
                self.registers[category] = open_register(est, "prise_en_charge", f"cards-{category}")
            self.registers["annexe"] = open_register(est, "comptabilite_annexe", "cards")
        else:
            self.registers["carnet"] = open_register(est, "carnet_19", "cartes")
            # the cabinet's single key, held by the directeur responsable, who opens it (KEY-11)
            self.registers["keys"] = open_register(est, "registre_cles")
            self.cabinet_key = key_register(
                establishment=est,
                actor=self.director,
                code="ARM-1",
                lock_type="card_cabinet",
                opens="Armoire « dépôt des cartes »",
                asset_ref=self.depot.code,
                custodian=self.director,
            )
        self.registers["orders"] = open_register(est, "bons_commande", "cards")
        self.registers["service"] = open_register(est, "cartes_service")
        self.registers["incidents"] = open_register(est, "incidents")
        if est.jurisdiction == "FR":  # the police informed of an anomaly (AUTH-06)
            self.registers["notices"] = open_register(est, "informations_autorites")
        self.supplier = custody.supplier_register(
            establishment=est,
            domain=CARDS,
            name="Cartes de France SA",
            actor=self.director,
            approval_reference="Agrément ministériel 2024-17",
            approval_issuer="Ministre de l'intérieur",
            approved_from=datetime.date(2024, 1, 1),
        )
        self.seance = self.new_seance()
        self.shoe_cabinet = None  # FR: created with the first sabot

    # --- people
    def __getattr__(self, role):
        return self.__dict__["u"][role]

    @property
    def director(self):
        return self.u[Role.DIRECTEUR_JEUX if self.mc else Role.DIRECTEUR_RESPONSABLE]

    @property
    def keeper(self):
        """Who issues and returns: MC the cartier, FR the key holder of the card cabinet."""
        return self.u[Role.CARTIER if self.mc else Role.DIRECTEUR_RESPONSABLE]

    @property
    def receiver(self):
        return self.u[Role.CARTIER if self.mc else Role.EMPLOYE_RESPONSABLE]

    @property
    def authority(self):
        return self.u[Role.SCJ if self.mc else Role.POLICE]

    # --- flows
    def new_seance(self, days_ago=0, period="soiree"):
        open_seance_registers(self.est)
        return seance_open(
            establishment=self.est,
            date=timezone.localdate() - datetime.timedelta(days=days_ago),
            period=period,
            actor=self.director,
        )

    def session(self, game="blackjack", seance: Seance | None = None) -> TableSession:
        return table_session_prepare(seance=seance or self.seance, table=self.tables[game], actor=self.director)

    def order(self, lines=(("sixain", 2),), visa=True):
        order = custody.purchase_order_issue(
            establishment=self.est,
            domain=CARDS,
            supplier=self.supplier,
            actor=self.director,
            lines=[{"category": c, "quantity": q} for c, q in lines],
            carnet="" if self.mc else "21-A",
        )
        if visa:
            order = custody.purchase_order_visa(order=order, actor=self.authority, statement="Vu")
        return order

    @staticmethod
    def spec(unit_type="sixain", colours=("rouge", "bleu"), serial=None, **extra) -> ReceivedUnit:
        n = next(_serials)
        serial = serial or f"S{n}"
        if unit_type == "jeu":
            return ReceivedUnit(unit_type="jeu", serial=serial, back_colour=colours[0], **extra)
        count = 6 if unit_type == "sixain" else 8
        half = count // 2
        decks = tuple(
            ReceivedDeck(f"{serial}-{i}", colours[0] if i <= half else colours[1]) for i in range(1, count + 1)
        )
        return ReceivedUnit(unit_type=unit_type, serial=serial, decks=decks, **extra)

    def receive(self, *specs, order=None, location=None) -> list[CardUnit]:
        specs = specs or (self.spec(),)
        if order is None and not self.mc:
            counts = {}
            for s in specs:
                counts[s.unit_type] = counts.get(s.unit_type, 0) + 1
            order = self.order(tuple(counts.items()))
        return services.cards_receive(
            establishment=self.est,
            location=location or self.depot,
            supplier=self.supplier,
            units=list(specs),
            actor=self.receiver,
            order=order,
            delivery_note="BL 42",
        )

    def issue(self, session, *units, actor=None):
        return services.cards_issue(
            table_session=session, units=list(units), actor=actor or self.keeper, received_by="M. Croupier"
        )

    def ready(self, session, *units):
        """Unseal new decks and pass the table control of each unit."""
        for unit in units:
            unit.refresh_from_db()
            if unit.is_new:
                services.cards_unseal(
                    unit=unit, actor=self.croupier, seal_intact=True, video_camera="CAM-3", video_reference="REC-0001"
                )
            services.cards_table_control(unit=unit, actor=self.croupier, complete=True, order_intact=True)

    def open_table(self, game="blackjack", *units):
        session = self.session(game)
        self.issue(session, *units)
        self.ready(session, *units)
        self.allocate_sabot(session)
        return table_session_open(session=session, actor=self.director)

    def close_table(self, session):
        """Fin de partie: the sabot back in its cabinet, then the table closes."""
        self.return_sabot(session)
        return table_session_close(session=session, actor=self.director)

    # --- sabots: FR, a table of a sabot game opens with its sabot allocated (SHOE-12)
    def allocate_sabot(self, session):
        if self.mc or session.table.game not in SHOE_GAMES_FR:
            return None
        shoe = equipment_selectors.shoes_in_stock(self.est).first()
        if shoe is None:
            (shoe,) = self._receive_sabot()
        return equipment.shoe_allocate(session=session, shoe=shoe, actor=self.director)

    def return_sabot(self, session):
        """FR: no partie ends while its sabot is still at the table (SHOE-09)."""
        shoes = list(Shoe.objects.filter(table_session=session))
        if shoes:
            equipment.shoe_return(shoes=shoes, to_location=self.shoe_cabinet, actor=self.director)

    def _receive_sabot(self):
        """One more sabot into the sabot cabinet; the first time, the volumes and the approved model."""
        if self.shoe_cabinet is None:
            sabots.open_equipment_volumes(self.est, self.u, director=self.director)
            self.shoe_cabinet = LocationFactory(
                establishment=self.est,
                code="armoire-sabots",
                name="Armoire à sabots",
                kind="shoe_cabinet",
                room=self.room,
            )
        number = str(Shoe.objects.filter(establishment=self.est).count() + 1)
        return sabots.receive_shoes(
            self.est,
            [number],
            location=self.shoe_cabinet,
            actor=self.receiver,
            model=sabots.shoe_model(self.est, actor=self.director),
        )

    def give_back(self, *units, to=None):
        """End of partie: FR post-partie control at the table; return (MC under the inspecteur)."""
        units = [CardUnit.objects.get(pk=u.pk) for u in units]
        if not self.mc:
            for unit in units:
                services.cards_post_control(
                    unit=unit, actor=self.croupier, complete=True, order_restored=True, marks_found=False
                )
        return services.cards_return(
            units=units,
            to_location=to or self.depot,
            actor=self.keeper,
            returned_by="M. Croupier",
            inspecteur=self.u[Role.INSPECTEUR] if self.mc else None,
        )


@pytest.fixture
def mcw(mc):
    return World(mc)


@pytest.fixture
def frw(fr):
    fr.timezone = "Europe/Paris"
    fr.save()
    return World(fr)


@pytest.fixture(params=["MC", "FR"])
def world(request, db):
    from tests.factories import EstablishmentFactory

    code = request.param.lower() + "x"
    est = EstablishmentFactory(code=code, name=f"Casino {request.param}", jurisdiction=request.param)
    return World(est)
