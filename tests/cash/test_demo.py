"""The table cash demo: it runs on the core demo organisation, a second run adds nothing, every
register it writes verifies."""

import io

from ledgers.authority import demo as authority_demo
from ledgers.cash import demo
from ledgers.cash.models import (
    BadBeatCount,
    CagnotteCount,
    ChipCensus,
    ControlDay,
    Orphan,
    Slip,
    SlipBook,
    TableCount,
    TableFloat,
)
from ledgers.core import demo as core_demo
from ledgers.registers.models import Entry, Register
from ledgers.registers.verification import verify_register
from tests.factories import open_seance_registers


def test_demo_seed_runs_is_idempotent_and_every_register_verifies(db):
    core_demo.seed(stdout=io.StringIO())
    open_seance_registers()  # the registers seeder's, which runs before (séances write in them)
    authority_demo.prepare_tables(stdout=io.StringIO())  # the authorities' seeder's: the tables, under Nice's arrêté
    out = io.StringIO()
    demo.seed(stdout=out, days=5)
    assert TableFloat.objects.count() == 5 * 3 and TableCount.objects.filter(status="certified").count() == 15
    # MC chemin de fer every night, FR texas hold'em one night: a difference in each casino.
    assert CagnotteCount.objects.filter(status="counted").count() == 6
    assert {
        c.table_session.seance.establishment.jurisdiction for c in CagnotteCount.objects.filter(shortfall__gt=0)
    } == {"MC", "FR"}
    assert BadBeatCount.objects.get().retained == 185 and Orphan.objects.count() == 1
    # Last night's day of the registre de contrôle is left for the accounts to close.
    assert ControlDay.objects.filter(status="visaed").count() == 4 and Slip.objects.filter(status="served").exists()
    # Each changeur has his book of bons.
    assert set(SlipBook.objects.filter(number="BR-001").values_list("kind", flat=True)) == {
        "changeur",
        "ravitaillement",
    }
    entries = Entry.objects.count()
    demo.seed(stdout=io.StringIO(), days=5)
    assert Entry.objects.count() == entries
    for register in Register.objects.filter(
        kind__in=[
            "carnet_avances",
            "banque_tables",
            "registre_controle",
            "bons_caisse",
            "registre_change",
            "cagnottes_mc",
            "registre_plaques",
            "carnet_cagnottes",
            "registre_bbj",
            "carnet_orphelins",
            "carnets_tickets",
        ]
    ):
        assert verify_register(register) is None, register
    assert "journées du registre de contrôle" in out.getvalue()
    censuses = list(ChipCensus.objects.all())  # COUNT-58: the players' amount differs from the account
    assert censuses and all(census.flags for census in censuses)
