import multiprocessing
import os
import subprocess
import sys
from io import StringIO
from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import connection
from django.utils import timezone

from ledgers.core.demo import DEMO_FR, DEMO_MC, DEMO_PASSWORD, demo_houses, demo_username, seeding_only
from ledgers.core.forking import second_process_possible
from ledgers.core.management.commands.seed_demo import houses_apart, seeders
from ledgers.core.models import Establishment, GamingTable, Location, Membership, Room, Seance
from ledgers.registers.models import Entry, EntryKind, Register
from ledgers.registers.verification import verify_register

ROOT = Path(__file__).resolve().parents[2]


def counts() -> dict[str, int]:
    models = (Establishment, Room, GamingTable, Location, Membership, get_user_model(), Register, Entry)
    return {model.__name__: model.objects.count() for model in models}


def test_seed_demo_is_idempotent_and_its_ledgers_verify(transactional_db):
    """Outside a transaction, on the suite's PostgreSQL: each house seeded by a process of its own
    where the machine has two cores (``houses_apart``), the second run as well."""
    assert houses_apart() == second_process_possible()
    out = StringIO()
    call_command("seed_demo", stdout=out)
    first = counts()
    call_command("seed_demo", stdout=StringIO())
    assert counts() == first

    mc, fr = Establishment.objects.get(code=DEMO_MC), Establishment.objects.get(code=DEMO_FR)
    assert (mc.jurisdiction, fr.jurisdiction) == ("MC", "FR")
    assert mc.tables.filter(game="punto_banco", super_prive=True).exists()
    assert {"craps", "banque_tout_va", "blackjack_one_deck"} <= set(mc.tables.values_list("game", flat=True))
    assert {"rampo", "roue_chance"} <= set(fr.tables.values_list("game", flat=True))
    assert mc.locations.filter(kind="dcc").exists() and fr.locations.filter(kind="card_cabinet").exists()

    for est in (mc, fr):
        main = est.registers.get(kind="main_courante", status=Register.Status.OPEN)
        # the next volume waits for the authority's cote et paraphe
        assert est.registers.filter(status=Register.Status.AWAITING_OPENING).exists()
        assert main.status == Register.Status.OPEN and main.head_seq > 40
        assert main.entries.filter(kind=EntryKind.VISA).count() == 1
        assert main.entries.get(seq=1).role == est.profile.paraphing_role
    for register in Register.objects.all():
        assert verify_register(register) is None, register.number
    # the séances the seeders shared are over, but today's
    open_seances = Seance.objects.filter(status=Seance.Status.OPEN)
    assert open_seances.count() == 2 and {s.date for s in open_seances} == {timezone.localdate()}

    printed = out.getvalue()
    assert "http://127.0.0.1:8000/" in printed and DEMO_PASSWORD in printed
    assert demo_username(DEMO_MC, "scj") in printed and demo_username(DEMO_FR, "police") in printed
    scj = get_user_model().objects.get(username=demo_username(DEMO_MC, "scj"))
    assert scj.check_password(DEMO_PASSWORD) and scj.memberships.get().role == "scj"


def test_a_seeder_seeds_both_houses_or_the_one_it_is_given():
    assert demo_houses() == (DEMO_MC, DEMO_FR)
    with seeding_only(DEMO_FR):
        assert demo_houses() == (DEMO_FR,)
    assert demo_houses() == (DEMO_MC, DEMO_FR)


def test_the_houses_are_seeded_apart_on_postgresql_with_a_core_each(monkeypatch):
    assert houses_apart() == second_process_possible()  # the suite's PostgreSQL, outside a transaction
    unable = [
        (os, "sched_getaffinity", lambda pid: {0}),
        (multiprocessing.current_process(), "daemon", True),  # a worker pool's: may not have children
        (connection, "vendor", "sqlite"),
    ]
    for target, name, value in unable:
        with monkeypatch.context() as patched:
            patched.setattr(target, name, value)
            assert not houses_apart(), name


def test_the_houses_are_seeded_together_in_a_callers_transaction(db):
    assert connection.in_atomic_block and not houses_apart()


def test_a_seeder_runs_after_the_apps_whose_data_it_builds_on():
    order = [module.__name__ for module in seeders()]
    assert order[0] == "ledgers.core.demo"
    # the card tables of Nice open with the equipment's sabots; the dice join the cards' séances
    assert order.index("ledgers.equipment.demo") < order.index("ledgers.cards.demo") < order.index("ledgers.dice.demo")


def test_the_demo_seeds_and_verifies_on_sqlite_as_the_readme_runs_it(db, tmp_path):
    """``make demo`` without a DATABASE_URL: the SQLite file, migrated, seeded, its ledgers verified.
    The suite's own database is PostgreSQL: this is what reads the facts the homes and the séance
    checks share (array subqueries) on SQLite."""
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'demo.sqlite3'}"}
    for command in (("migrate", "--noinput", "-v0"), ("seed_demo",), ("verify_ledgers",)):
        done = subprocess.run(
            [sys.executable, "manage.py", *command], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600
        )
        assert done.returncode == 0, (command, done.stdout[-2000:], done.stderr[-3000:])
    assert "ÉCHEC" not in done.stdout
