"""The card demo seeder runs on the demo organisation, stays idempotent and leaves registers that
verify."""

import io

import pytest

from ledgers.authority import demo as authority_demo
from ledgers.cards import demo, selectors
from ledgers.cards.models import CardEvent, CardUnit
from ledgers.core import demo as core_demo
from ledgers.core.demo import DEMO_FR, DEMO_MC
from ledgers.core.models import Establishment, GamingTable, TableSession
from ledgers.custody.models import DestructionSession, StockVerification
from ledgers.equipment import demo as equipment_demo
from ledgers.equipment.models import Shoe, ShoeAllocation
from ledgers.equipment.specs import SHOE_GAMES_FR
from ledgers.incidents.models import Incident
from ledgers.registers.models import Entry, Register
from ledgers.registers.verification import verify_register
from tests.factories import cercle_cagnottes, open_seance_registers, post_displays


@pytest.fixture
def organisation(db):
    """The demo organisation, and the sabots the equipment seeder keeps (the card seeder runs after
    it: the French sabot games open with a sabot)."""
    core_demo.seed(stdout=io.StringIO())
    open_seance_registers()  # the registers seeder's, which runs before (séances write in them)
    authority_demo.prepare_tables(stdout=io.StringIO())  # the authorities' seeder's: the tables, under Nice's arrêté
    post_displays(*GamingTable.objects.all())  # the authority seeder's, which runs first (REG-23)
    cercle_cagnottes(*GamingTable.objects.all())  # the cash seeder's, before any seeder plays (COUNT-42)
    equipment_demo.seed(stdout=io.StringIO(), days=0)


def _snapshot():
    return (
        CardUnit.objects.count(),
        CardEvent.objects.count(),
        Entry.objects.count(),
        Incident.objects.count(),
        DestructionSession.objects.count(),
        StockVerification.objects.count(),
    )


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
        # MC: announced to the SCJ for the next day, which it may attend (CARD-11); FR: done before the police.
        destruction = DestructionSession.objects.get(establishment=est)
        assert destruction.status == ("planned" if est.jurisdiction == "MC" else "completed")
        assert est.jurisdiction == "FR" or destruction.notified_at is not None
        assert selectors.out_at_tables(est), "today's séance has cards out"
    mc = Establishment.objects.get(code=DEMO_MC)
    kinds = set(CardEvent.objects.filter(establishment=mc).values_list("kind", flat=True))
    assert {
        "issue",
        "unsealing",
        "second_control",
        "pae_preparation",
        "pae_confirmation",
        "exchange",
        "reconciliation",
        "return",
        "post_control",
        "anomaly",
        "withdrawal",
    } <= kinds
    assert Incident.objects.filter(establishment=mc, status="closed", requirement="INC-02").exists()
    fr = Establishment.objects.get(code=DEMO_FR)
    assert Incident.objects.filter(establishment=fr, requirement="INC-14").exists()
    # the French sabot games played with their sabot (SHOE-12), back in the cabinet after the partie
    # (SHOE-09) but for today's blackjack, still open
    played = TableSession.objects.filter(
        seance__establishment=fr, table__game__in=SHOE_GAMES_FR, opened_at__isnull=False
    )
    assert played.count() > 3
    assert all(ShoeAllocation.objects.filter(table_session=session).exists() for session in played)
    assert list(
        Shoe.objects.filter(establishment=fr, table_session__isnull=False).values_list(
            "table_session__table__game", "table_session__status"
        )
    ) == [("blackjack", "open")]
