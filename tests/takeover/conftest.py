"""A house on day zero, per jurisdiction: its card depot, a card maker, the registers the
take-over writes in opened by their authorities, and the people who prepare, sign and visa."""

import pytest

from ledgers.cards.domains import CARDS
from ledgers.cards.models import Category
from ledgers.core.roles import Role
from ledgers.custody import services as custody
from tests.factories import LocationFactory, RoomFactory, make_user, open_register


class House:
    def __init__(self, est):
        self.est = est
        self.mc = est.jurisdiction == "MC"
        self.director = make_user(est, Role.DIRECTEUR_JEUX if self.mc else Role.DIRECTEUR_RESPONSABLE)
        self.cartier = make_user(est, Role.CARTIER if self.mc else Role.EMPLOYE_RESPONSABLE)
        self.authority = make_user(est, Role.SCJ if self.mc else Role.POLICE)
        self.room = RoomFactory(establishment=est, code="salle", name="Salle Europe")
        if self.mc:
            self.depot = LocationFactory(
                establishment=est, code="principal", name="Dépôt principal", kind="depot_principal"
            )
            self.annex = LocationFactory(
                establishment=est, code="annexe", name="Dépôt annexe", kind="depot_annexe", room=self.room
            )
            for category, _label in Category.choices:
                open_register(est, "prise_en_charge", f"cards-{category}")
        else:
            self.depot = LocationFactory(
                establishment=est,
                code="armoire",
                name="Armoire « dépôt des cartes »",
                kind="card_cabinet",
                room=self.room,
            )
            self.annex = None
            open_register(est, "carnet_19", "cartes")
        open_register(est, "bons_commande", "cards")
        open_register(est, "reprise_existant")
        self.maker = custody.supplier_register(
            establishment=est,
            domain=CARDS,
            name="Cartes Grimaud",
            actor=self.director,
            approval_reference="" if self.mc else "AGR-2020-01",
        )

    def sixain(self, serial: str, page: int = 12, **fields) -> dict:
        row = {
            "page": str(page),
            "unit_type": "sixain",
            "serial": serial,
            "supplier": "Cartes Grimaud",
            "decks": ";".join(f"{serial}-{n}:{'rouge' if n <= 3 else 'bleu'}" for n in range(1, 7)),
            "location": self.depot.code,
            "status": "in_stock",
            "new": "oui",
        }
        row.update(fields)
        return row


@pytest.fixture
def house_mc(mc):
    return House(mc)


@pytest.fixture
def house_fr(fr):
    return House(fr)
