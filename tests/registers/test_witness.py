"""A witness copy at the regulator (docs/operations.md §9), on this PostgreSQL server: the
establishment's append-only rows published to a second database by logical replication (inserts
only, filtered by establishment), ``verify_ledgers`` run on the witness and compared with the
casino's own run; then the casino's copy rewritten, and the witness still verifying what was
written, the comparison naming the register whose chain ends differently.

A subscription to a database of the same cluster cannot create its replication slot (the slot
waits for the very transaction that creates the subscription): the slot is made beforehand and the
subscription told ``create_slot = false``. For the same reason it copies no existing rows
(``copy_data = false``: the copy's own temporary slots would wait on the cluster's running
transactions): the slot is made before the test's acts, and the rows older than it (the
establishment and the volumes its fixtures opened) are copied to the witness by hand, as a real
witness starts from a dump taken at the slot's snapshot. Slot, subscription, publications and the database are removed
whatever happens."""

import io
import os
import subprocess
import time

import psycopg
import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection, connections

import tests.dice.conftest as dice_setup
from ledgers.registers.evidence import tracked_models
from ledgers.registers.management.commands import verify_ledgers
from tests.registers.conftest import opened_register, staff_for
from tests.registers.test_evidence import rewrite
from tests.registers.test_tamper import write

mc_org = dice_setup.mc_org

pytestmark = [pytest.mark.postgresql, pytest.mark.django_db(transaction=True)]

WITNESS = "witness"
CATCH_UP_SECONDS = 120
SLOT_WAIT_SECONDS = 900


def admin(dbname: str) -> psycopg.Connection:
    """A connection outside Django's, in autocommit: CREATE SUBSCRIPTION refuses a transaction."""
    params = connection.get_connection_params()
    keep = {k: params[k] for k in ("user", "password", "host", "port") if params.get(k)}
    return psycopg.connect(dbname=dbname, autocommit=True, **keep)


def conninfo(dbname: str) -> str:
    params = connection.settings_dict
    parts = {"host": params["HOST"] or "127.0.0.1", "port": params["PORT"] or "5432", "user": params["USER"]}
    if params.get("PASSWORD"):
        parts["password"] = params["PASSWORD"]
    return " ".join(f"{k}={v}" for k, v in {**parts, "dbname": dbname}.items())


def publications(est_id: int) -> list[str]:
    """The statements that publish one establishment's evidence.

    Inserts only, so that what the casino's owner later updates or deletes (triggers off) stays on
    the witness as it was written; the row filters may name only the table's own columns. The
    entries and checkpoints carry their register, not its establishment: they are published whole
    (a filter on a list of register ids would have to be altered before each new volume's first
    entry, and an entry missed is missed for good); the witness verifies the registers it
    received, and the others' entries lie there unread. A history table with an establishment
    column is filtered on it, the others are published whole for the same reason. The
    establishment's own row is published with its updates (filtered on its primary key, which the
    replica identity covers)."""
    tables = [
        f"registers_register WHERE (establishment_id = {est_id})",
        "registers_entry",
        "registers_checkpoint",
        f"registers_treehead WHERE (establishment_id = {est_id})",
    ]
    for _model, history in tracked_models():
        columns = {f.column for f in history._meta.concrete_fields}
        where = f" WHERE (establishment_id = {est_id})" if "establishment_id" in columns else ""
        tables.append(f"{connection.ops.quote_name(history._meta.db_table)}{where}")
    return [
        f"CREATE PUBLICATION {{name}}_rows FOR TABLE {', '.join(tables)} WITH (publish = 'insert')",
        f"CREATE PUBLICATION {{name}}_establishment FOR TABLE core_establishment WHERE (id = {est_id})",
    ]


def caught_up(casino: psycopg.Connection, slot: str, lsn: str) -> bool:
    """The slot confirmed by the witness up to ``lsn``, the casino's WAL position after its acts."""
    flushed = casino.execute(
        "SELECT confirmed_flush_lsn >= %s::pg_lsn FROM pg_replication_slots WHERE slot_name = %s", [lsn, slot]
    ).fetchone()
    return bool(flushed and flushed[0])


def verify(*options: str) -> tuple[bool, list[str]]:
    out = io.StringIO()
    try:
        call_command("verify_ledgers", "--chain-only", "--heads", *options, stdout=out)
    except CommandError:
        return False, out.getvalue().splitlines()
    return True, out.getvalue().splitlines()


def skip_unless_logical_replication() -> None:
    """A publication needs ``wal_level = logical`` (a server setting, changed only by a restart):
    where the server has another, the witness copy cannot be made here, which is no failure of the
    code under test."""
    with connection.cursor() as cursor:
        cursor.execute("SHOW wal_level")
        (level,) = cursor.fetchone()
    if level != "logical":
        pytest.skip(f"wal_level is {level!r} on this PostgreSQL server: logical replication needs 'logical'")


def test_REG_20_a_witness_copy_by_logical_replication_verifies_and_names_a_rewritten_register(
    mc_org, user_in, tmp_path, monkeypatch
):
    skip_unless_logical_replication()
    # The test case admits no connection that a thread would open to the witness's alias, which did
    # not exist when it started: what verify_ledgers checks beside the walk runs after it here.
    monkeypatch.setattr(verify_ledgers, "beside", lambda work, exported, using: work)
    staff = staff_for(mc_org.est, user_in)
    casino_db = connection.settings_dict["NAME"]
    name = f"ledgers_witness_{os.getpid()}"
    witness_db = f"{casino_db}_witness"
    casino = admin(casino_db)
    server = admin("postgres")
    witness = None
    try:
        server.execute(f'DROP DATABASE IF EXISTS "{witness_db}" WITH (FORCE)')
        server.execute(f'CREATE DATABASE "{witness_db}"')
        schema = subprocess.run(
            ["pg_dump", "--schema-only", "--no-owner", "--no-publications", "--no-subscriptions", conninfo(casino_db)],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
        subprocess.run(
            ["psql", "-q", "-v", "ON_ERROR_STOP=1", conninfo(witness_db)],
            input=schema,
            check=True,
            capture_output=True,
            text=True,
        )
        for statement in publications(mc_org.est.pk):
            casino.execute(statement.format(name=name))
        # A logical slot waits for the transactions running on the whole cluster to end, among them
        # the other test workers' (a test runs in one transaction, a demo seeding for minutes on a
        # busy machine): bounded above the longest of them, so that a session left idle in a
        # transaction fails the test instead of hanging it.
        casino.execute(f"SET lock_timeout = '{SLOT_WAIT_SECONDS}s'")
        casino.execute("SELECT pg_create_logical_replication_slot(%s, 'pgoutput')", [name])
        witness = admin(witness_db)
        # The rows older than the slot (the establishment, the volumes the fixtures opened), copied
        # as they are, stamps included (replica mode: the witness's triggers do not fire).
        est = mc_org.est.pk
        registers = f"SELECT id FROM registers_register WHERE establishment_id = {est}"
        witness.execute("SET session_replication_role = replica")
        for table, where in (
            ("core_establishment", f"id = {est}"),
            ("registers_register", f"establishment_id = {est}"),
            ("registers_entry", f"register_id IN ({registers})"),
            ("registers_checkpoint", f"register_id IN ({registers})"),
        ):
            with casino.cursor().copy(f"COPY (SELECT * FROM {table} WHERE {where}) TO STDOUT") as out:
                rows = b"".join(bytes(chunk) for chunk in out)
            with witness.cursor().copy(f"COPY {table} FROM STDIN") as into:
                into.write(rows)
        witness.execute("SET session_replication_role = origin")
        witness.execute(
            f"CREATE SUBSCRIPTION {name} CONNECTION '{conninfo(casino_db)}' PUBLICATION {name}_rows, "
            f"{name}_establishment WITH (create_slot = false, slot_name = '{name}', copy_data = false)"
        )

        dice_setup.receive_mc(mc_org, 2)  # history rows of another app, replicated too
        register = opened_register(mc_org.est, staff)
        write(register, staff, 4)
        head = tmp_path / "tree-head.json"
        call_command("seal_checkpoints", "--out", str(head), stdout=io.StringIO())
        write(register, staff, 2)  # after the seal: only a copy outside the casino holds these as written

        lsn = casino.execute("SELECT pg_current_wal_lsn()::text").fetchone()[0]
        deadline = time.monotonic() + CATCH_UP_SECONDS
        while not caught_up(casino, name, lsn):
            assert time.monotonic() < deadline, "the witness did not catch up"
            time.sleep(0.5)
        connections.settings[WITNESS] = {**connection.settings_dict, "NAME": witness_db}
        # Connected here, explicitly: the test case admits only the aliases it declared when it
        # started, and the witness's did not exist then.
        connections[WITNESS].connect()

        ours, our_lines = verify("--tree-head", str(head))
        theirs, their_lines = verify("--tree-head", str(head), "--witness", "--database", WITNESS)
        assert ours and theirs, (our_lines, their_lines)
        assert their_lines == our_lines
        assert f"OK\t{register.number}" in their_lines
        assert f"OK\t{mc_org.est.code} têtes d'arbre" in their_lines
        # The history rows came along, stamped with the casino's transactions.
        stamped = witness.execute(
            "SELECT count(*), count(*) FILTER (WHERE ledgers_txid > 0) FROM dice_historicaldie"
        ).fetchone()
        assert stamped[0] >= 2 and stamped[0] == stamped[1]

        # The casino's owner rewrites the register from n° 3 on, consistently, and moves its head.
        rewrite(register, 3, {"n": "réécrit"})
        ours, our_lines = verify("--tree-head", str(head))
        theirs, their_lines = verify("--tree-head", str(head), "--witness", "--database", WITNESS)
        assert theirs, their_lines
        assert not ours
        assert any(
            line.startswith(f"ÉCHEC\t{register.number} n° 5 : l'entrée ne correspond plus") for line in our_lines
        )
        ends = {
            side: {line.split("\t")[1]: line.split("\t")[2:] for line in lines if line.startswith("TÊTE\t")}
            for side, lines in (("casino", our_lines), ("witness", their_lines))
        }
        differing = [number for number in ends["witness"] if ends["witness"][number] != ends["casino"].get(number)]
        assert differing == [register.number]
        assert ends["witness"][register.number][0] == ends["casino"][register.number][0] == "7"
    finally:
        if WITNESS in connections.settings:
            connections[WITNESS].close()
            del connections[WITNESS]
            del connections.settings[WITNESS]
        if witness is not None:
            exists = witness.execute("SELECT 1 FROM pg_subscription WHERE subname = %s", [name]).fetchone()
            if exists:
                # Detached from its slot first: dropping it then needs no connection to the casino.
                witness.execute(f"ALTER SUBSCRIPTION {name} DISABLE")
                witness.execute(f"ALTER SUBSCRIPTION {name} SET (slot_name = NONE)")
                witness.execute(f"DROP SUBSCRIPTION {name}")
            witness.close()
        for _ in range(100):  # the walsender lets go of the slot shortly after the subscription stops
            active = casino.execute("SELECT active FROM pg_replication_slots WHERE slot_name = %s", [name]).fetchone()
            if not active or not active[0]:
                break
            time.sleep(0.1)
        if casino.execute("SELECT 1 FROM pg_replication_slots WHERE slot_name = %s", [name]).fetchone():
            casino.execute("SELECT pg_drop_replication_slot(%s)", [name])
        casino.execute(f"DROP PUBLICATION IF EXISTS {name}_rows, {name}_establishment")
        casino.close()
        server.execute(f'DROP DATABASE IF EXISTS "{witness_db}" WITH (FORCE)')
        server.close()


def test_the_witness_copy_skips_with_its_reason_where_wal_level_is_not_logical(monkeypatch):
    """Where the server's ``wal_level`` is below ``logical`` the copy's test skips, naming it."""

    class Replica:
        def execute(self, sql):
            assert sql == "SHOW wal_level"

        def fetchone(self):
            return ("replica",)

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

    monkeypatch.setattr(connection, "cursor", Replica)
    with pytest.raises(pytest.skip.Exception, match="wal_level is 'replica'"):
        skip_unless_logical_replication()
