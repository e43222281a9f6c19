"""The card demo seeder runs on the demo organisation, stays idempotent and leaves registers that
verify."""

import io

import pytest

from ledgers.cards import demo, selectors
from ledgers.cards.models import CardEvent, CardUnit
from ledgers.core.demo import DEMO_FR, DEMO_MC, demo_username
from ledgers.core.models import Establishment
from ledgers.core.roles import Role
from ledgers.custody.models import DestructionSession, StockVerification
from ledgers.incidents.models import Incident
from ledgers.registers.models import Entry, Register
from ledgers.registers.verification import verify_register
from tests.factories import GamingTableFactory, LocationFactory, RoomFactory, make_user

# The part of the demo organisation (seeded by the core) that the card seeder looks up.
ORGANISATION = {
    DEMO_MC: ("MC", [("europe", "BJ1", "blackjack", False), ("europe", "CF1", "chemin_de_fer", False),
                     ("europe", "TV1", "banque_tout_va", False), ("europe", "BJOD1", "blackjack_one_deck", False),
                     ("touzet", "SP1", "punto_banco", True)],
              [("depot-principal", "depot_principal"), ("depot-europe", "depot_annexe"), ("dcc", "dcc")],
              (Role.CARTIER, Role.DCC_STAFF, Role.CROUPIER, Role.CHEF_TABLE, Role.INSPECTEUR, Role.SOUS_DIRECTEUR,
               Role.DIRECTEUR_JEUX, Role.COMMISSAIRE, Role.SCJ)),
    DEMO_FR: ("FR", [("salle-jeux", "BJ1", "blackjack", False), ("salle-jeux", "PB1", "punto_banco", False),
                     ("salle-jeux", "TCP1", "three_card_poker", False), ("cercle", "CF1", "chemin_de_fer", False)],
              [("armoire-cartes", "card_cabinet")],
              (Role.CARTIER, Role.CROUPIER, Role.CHEF_TABLE, Role.DIRECTEUR_RESPONSABLE, Role.COMITE,
               Role.EMPLOYE_RESPONSABLE, Role.POLICE)),
}


@pytest.fixture
def organisation(db):
    for code, (jurisdiction, tables, locations, roles) in ORGANISATION.items():
        est = Establishment.objects.create(code=code, name=f"Casino {code}", jurisdiction=jurisdiction,
                                           timezone="Europe/Monaco" if jurisdiction == "MC" else "Europe/Paris")
        rooms = {}
        for room, number, game, super_prive in tables:
            if room not in rooms:
                rooms[room] = RoomFactory(establishment=est, code=room, name=room)
            GamingTableFactory(establishment=est, room=rooms[room], number=number, game=game, super_prive=super_prive)
        for loc, kind in locations:
            LocationFactory(establishment=est, code=loc, name=loc, kind=kind)
        for role in roles:
            make_user(est, role, username=demo_username(code, role))


def _snapshot():
    return (CardUnit.objects.count(), CardEvent.objects.count(), Entry.objects.count(), Incident.objects.count(),
            DestructionSession.objects.count(), StockVerification.objects.count())


def test_seed_runs_stays_idempotent_and_every_register_verifies(organisation):
    out = io.StringIO()
    demo.seed(stdout=out, seances=2)
    first = _snapshot()
    assert first[0] > 0 and "unités de cartes" in out.getvalue()
    demo.seed(stdout=io.StringIO(), seances=2)
    assert _snapshot() == first
    for register in Register.objects.all():
        assert verify_register(register) is None, register
    for code in (DEMO_MC, DEMO_FR):
        est = Establishment.objects.get(code=code)
        assert selectors.stock_statement(est).balanced
        assert StockVerification.objects.get(establishment=est).discrepancy is False
        assert DestructionSession.objects.get(establishment=est).status == "completed"
        assert selectors.out_at_tables(est), "today's séance has cards out"
    mc = Establishment.objects.get(code=DEMO_MC)
    kinds = set(CardEvent.objects.filter(establishment=mc).values_list("kind", flat=True))
    assert {"issue", "unsealing", "second_control", "pae_preparation", "pae_confirmation", "exchange",
            "reconciliation", "return", "post_control", "anomaly", "withdrawal"} <= kinds
    assert Incident.objects.filter(establishment=mc, status="closed", requirement="INC-02").exists()
    fr = Establishment.objects.get(code=DEMO_FR)
    assert Incident.objects.filter(establishment=fr, requirement="INC-14").exists()
