"""The dice demo: it runs on the demo organisation, a second run adds nothing, every register
it writes verifies."""

import io

import pytest

from ledgers.core.demo import DEMO_FR, DEMO_MC, DEMO_PASSWORD, demo_username
from ledgers.core.models import TableSession
from ledgers.custody.models import DestructionSession, StockVerification
from ledgers.dice import demo
from ledgers.dice.models import DiceAllocation, DiceCheck, DiceSwap, Die
from ledgers.dice.selectors import stock_statement
from ledgers.incidents.models import Incident
from ledgers.registers.models import Entry, Register
from ledgers.registers.verification import verify_register
from tests.factories import (
    EstablishmentFactory,
    GamingTableFactory,
    LocationFactory,
    RoomFactory,
    make_user,
    open_seance_registers,
    post_displays,
)

ROLES = {
    DEMO_MC: ("cartier", "chef_table", "inspecteur", "sous_directeur", "directeur_jeux", "commissaire", "scj"),
    DEMO_FR: ("employe_responsable", "chef_table", "directeur_responsable", "comite", "police"),
}


@pytest.fixture
def demo_organisation(db):
    """What the core demo seeds, reduced to what dice need, looked up by the same codes."""
    mc = EstablishmentFactory(code=DEMO_MC, name="Casino de Monte-Carlo (démo)", jurisdiction="MC")
    fr = EstablishmentFactory(code=DEMO_FR, name="Casino de Nice (démo)", jurisdiction="FR", timezone="Europe/Paris")
    ameriques = RoomFactory(establishment=mc, code="ameriques")
    GamingTableFactory(establishment=mc, room=ameriques, number="CR1", game="craps")
    LocationFactory(establishment=mc, code="depot-principal", kind="depot_principal", name="Dépôt principal")
    LocationFactory(
        establishment=mc,
        code="depot-ameriques",
        kind="depot_annexe",
        room=ameriques,
        name="Dépôt annexe — salle des Amériques",
    )
    salle = RoomFactory(establishment=fr, code="salle-jeux")
    post_displays(GamingTableFactory(establishment=fr, room=salle, number="RP1", game="rampo"))  # REG-23
    LocationFactory(
        establishment=fr, code="armoire-cartes", kind="card_cabinet", room=salle, name="Armoire « dépôt des cartes »"
    )
    for est in (mc, fr):
        for role in ROLES[est.code]:
            make_user(est, role, username=demo_username(est.code, role)).set_password(DEMO_PASSWORD)
    open_seance_registers(mc, fr)  # the registers seeder's, which runs before (séances write in them)
    return mc, fr


def counts():
    return [
        Die.objects.count(),
        DiceAllocation.objects.count(),
        DiceCheck.objects.count(),
        DiceSwap.objects.count(),
        DestructionSession.objects.count(),
        Entry.objects.count(),
        Incident.objects.count(),
    ]


@pytest.mark.postgresql
def test_demo_seeds_a_month_of_dice_idempotently_and_every_register_verifies(demo_organisation):
    mc, fr = demo_organisation
    out = io.StringIO()
    demo.seed(stdout=out)
    assert "Casino de Monte-Carlo (démo) : 30 séances de dés ajoutées" in out.getvalue()
    first = counts()
    for est, game in ((mc, "craps"), (fr, "rampo")):
        sessions = TableSession.objects.filter(table__establishment=est, table__game=game)
        assert sessions.count() == 30 and not sessions.exclude(status=TableSession.Status.CLOSED).exists()
        assert DiceSwap.objects.filter(establishment=est).exists()
        # MC: announced to the SCJ for the next day, which it may attend (DICE-07); FR: done before the police.
        done = DestructionSession.objects.filter(establishment=est, notified_at__isnull=False, status="planned")
        if est.jurisdiction == "FR":
            done = DestructionSession.objects.filter(establishment=est, status="completed")
        assert done.exists()
        assert Incident.objects.filter(establishment=est, category="dice_anomaly", status="closed").exists()
        statement = stock_statement(est)
        assert statement.book == statement.located
    assert StockVerification.objects.get(establishment=mc).discrepancy is False
    demo.seed(stdout=io.StringIO())
    assert counts() == first
    registers = Register.objects.exclude(kind="affichages_reglementaires")
    # with the FR notices to the authorities (AUTH-06), the main courante, the table-partie log and
    # each house's register of authorisations
    assert registers.count() == 16
    for register in registers:
        assert verify_register(register) is None, register.number


def test_demo_skips_missing_establishments(db):
    out = io.StringIO()
    demo.seed(stdout=out)
    assert out.getvalue() == "" and not Die.objects.exists()
