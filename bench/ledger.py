"""Ledger engine throughput, as ratios against raw psycopg on the same rows in the same run.

    DATABASE_URL=postgres://… python bench/ledger.py [--single 2000] [--bulk 20000] [--batch 2000]

(a) single appends: ``entry_append``, one transaction per entry, against raw INSERTs of the same
    rows with one commit per row;
(b) bulk appends: ``entries_bulk_append`` against one raw ``executemany`` of the same rows;
(c) verification: ``verify_register`` (with a signed checkpoint after every bulk round, when
    ``LEDGERS_SIGNING_KEY`` is set or DEBUG on) against a
    raw scan that rebuilds the same canonical bytes and checks the same sha256 links;
(d) the checks beyond the chain (``verify_ledgers`` without ``--chain-only``): every tracked
    object against its latest history row and every history row against the entries'
    transactions, over the whole database as it stands, in rows read per second beside (c).
The baseline rows are the engine's own output, read back, so that both sides write identical data
into tables of identical shape (the scratch table is ``LIKE registers_entry INCLUDING ALL`` with the
same foreign keys). Goal: bulk ≥ 0.5x. The single appends' baseline is a bare INSERT and commit,
without the chain lock or the head's move: the goal for one entry (≥ 0.6x) is measured by
bench/writers.py, whose anchor does that work too (its one-writer line).

It creates a scratch establishment with its users and registers, which stay (ledger rows are
append-only: nothing may delete them), and a scratch table, which it drops. Run it on a scratch
database, never on a production one. DJANGO_SETTINGS_MODULE defaults to casino_compliance.settings.
"""

import argparse
import compileall
import hashlib
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino_compliance.settings")

import django

django.setup()

import psycopg  # noqa: E402
from django.conf import settings  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402
from django.db import connection  # noqa: E402
from django.utils import timezone  # noqa: E402
from psycopg.types.json import Jsonb  # noqa: E402

from ledgers.core.roles import Role  # noqa: E402
from ledgers.core.services import establishment_create, membership_grant  # noqa: E402
from ledgers.registers.chain import GENESIS_HASH, TIMESTAMP_FORMAT  # noqa: E402
from ledgers.registers.evidence import tracked_models, verify_objects  # noqa: E402
from ledgers.registers.models import Entry, Register  # noqa: E402
from ledgers.registers.services import (  # noqa: E402
    checkpoints_seal,
    entries_bulk_append,
    entry_append,
    register_create,
    register_open,
)
from ledgers.registers.synthetic import synthetic_payloads  # noqa: E402
from ledgers.registers.verification import snapshot, verify_register  # noqa: E402

COLUMNS = (
    "register_id",
    "seq",
    "recorded_at",
    "actor_user_id",
    "actor",
    "role",
    "kind",
    "payload",
    "corrects_id",
    "written",
    "prev_hash",
    "entry_hash",
)
KIND = "main_courante"
WRITER_ROLE = Role.INSPECTEUR


def compiled() -> None:
    """The project's byte-code written ahead, as the go-live steps do (docs/go-live.md): a command
    timed end to end does not compile the code at its start (here, where PYTHONDONTWRITEBYTECODE
    may be set, it would at every start)."""
    for package in ("casino_compliance", "ledgers", "witness"):
        compileall.compile_dir(Path(__file__).resolve().parent.parent / package, quiet=1)


def raw_connection() -> psycopg.Connection:
    params = connection.get_connection_params()
    keep = ("dbname", "user", "password", "host", "port")
    raw = psycopg.connect(**{k: params[k] for k in keep if params.get(k)})
    raw.execute("SET TIME ZONE 'UTC'")  # timestamps come back in UTC, as the canonical form writes them
    raw.commit()
    return raw


def scratch() -> tuple[list[Register], object]:
    code = f"bench{int(time.time())}"
    est = establishment_create(code=code, name=f"Banc d'essai {code}", jurisdiction="MC", actor=None)
    users = {}
    for role in (Role.DIRECTEUR_JEUX, Role.COMMISSAIRE, WRITER_ROLE):
        user = get_user_model().objects.create_user(username=f"{code}.{role}", first_name=role, last_name="Banc")
        membership_grant(user=user, establishment=est, role=role, actor=None)
        users[role] = user
    registers = []
    for qualifier in ("single", "bulk"):
        register = register_create(establishment=est, kind=KIND, actor=users[Role.DIRECTEUR_JEUX], qualifier=qualifier)
        register_open(register=register, actor=users[Role.COMMISSAIRE], paraphe="B.E.")
        registers.append(Register.objects.get(pk=register.pk))
    return registers, users[WRITER_ROLE]


def stored_rows(register: Register, first: int, last: int) -> list[tuple]:
    """The engine's rows ``first``..``last``, to be written again by the baseline."""
    rows = Entry.objects.filter(register=register, seq__range=(first, last)).order_by("seq").values_list(*COLUMNS)
    return [(*row[:7], Jsonb(row[7]), row[8], None if row[9] is None else Jsonb(row[9]), *row[10:]) for row in rows]


def rate(count: int, seconds: float) -> float:
    return count / seconds if seconds else float("inf")


def timed(action) -> float:
    start = time.perf_counter()
    action()
    return time.perf_counter() - start


def raw_appends(raw: psycopg.Connection, insert: str, rows: list[tuple]) -> None:
    """The baseline of single appends: each row its own INSERT and commit."""
    with raw.cursor() as cursor:
        for row in rows:
            cursor.execute(insert, row)
            raw.commit()


def chunks(items: list, rounds: int) -> list[list]:
    size = -(-len(items) // rounds)
    return [items[i : i + size] for i in range(0, len(items), size)]


def raw_verify(raw: psycopg.Connection, register: Register) -> int:
    """The minimal independent verifier: one ordered scan, the same canonical bytes, sha256 links."""
    prev, count = GENESIS_HASH, 0
    with raw.cursor(name="bench_scan") as cursor:
        cursor.itersize = 5000
        cursor.execute(
            "SELECT e.seq, e.recorded_at, e.actor, e.role, e.kind, e.payload, c.seq, e.prev_hash, e.entry_hash, "
            "e.written, e.digests "
            "FROM registers_entry e LEFT JOIN registers_entry c ON c.id = e.corrects_id "
            "WHERE e.register_id = %s ORDER BY e.seq",
            [register.pk],
        )
        for seq, at, actor, role, kind, payload, corrects, prev_hash, stored, written, digests in cursor:
            document = {
                "register": register.number,
                "seq": seq,
                "recorded_at": at.strftime(TIMESTAMP_FORMAT),
                "actor": actor,
                "role": role,
                "kind": kind,
                "payload": payload,
                "corrects": corrects,
                "prev_hash": prev_hash,
            }
            if written is not None:  # format 2
                document["written"] = written
            if digests is not None:  # format 3
                document["digests"] = digests
            canonical = json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
            digest = hashlib.sha256(canonical.encode("utf-8")).hexdigest()
            if seq != count + 1 or prev_hash != prev or digest != stored:
                raise SystemExit(f"raw verification failed at seq {seq}")
            prev, count = digest, count + 1
    raw.commit()
    return count


def anchor_scan(raw: psycopg.Connection, count: int) -> float:
    """verify_anchor.py on ``count`` rows of its own shape, in a temporary table (filled by the
    connection's first scan, read again by the next ones): the scan's seconds."""
    if raw.execute("SELECT to_regclass('pg_temp.anchor_entry')").fetchone()[0] is None:
        raw.execute(
            "CREATE TEMP TABLE anchor_entry(seq bigint, serial text, movement text, qty int, prev_hash bytea, "
            "hash bytea)"
        )
        h = b"\0" * 32
        with raw.cursor() as cursor, cursor.copy("COPY anchor_entry FROM STDIN") as copy:
            for i in range(count):
                serial = f"SX-{i:07d}"
                nh = hashlib.sha256(h + f"{i}|{serial}|reception|6".encode()).digest()
                copy.write_row((i, serial, "reception", 6, h, nh))
                h = nh
    raw.commit()
    start = time.perf_counter()
    h, bad, rows = b"\0" * 32, 0, 0
    with raw.cursor(name="anchor") as cursor:
        cursor.itersize = 20000
        cursor.execute("SELECT seq, serial, movement, qty, prev_hash, hash FROM anchor_entry ORDER BY seq")
        for seq, serial, movement, qty, prev_hash, digest in cursor:
            nh = hashlib.sha256(h + f"{seq}|{serial}|{movement}|{qty}".encode()).digest()
            bad += prev_hash != h or nh != digest
            h, rows = digest, rows + 1
    elapsed = time.perf_counter() - start
    raw.rollback()
    assert bad == 0 and rows == count, (bad, rows, count)
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--single", type=int, default=2000, help="entries appended one transaction each")
    parser.add_argument("--bulk", type=int, default=20000, help="entries appended in one bulk call")
    parser.add_argument("--batch", type=int, default=2000, help="rows per bulk INSERT")
    parser.add_argument("--rounds", type=int, default=10, help="alternations of engine and baseline")
    args = parser.parse_args()
    if connection.vendor != "postgresql":
        raise SystemExit("bench/ledger.py measures PostgreSQL: set DATABASE_URL=postgres://…")

    # With DEBUG off there is no development key: without a signing key nothing is sealed and (c)
    # verifies the chain alone.
    sealing = bool(settings.LEDGERS_SIGNING_KEY or settings.LEDGERS_SIGNING_KEY_FILE)
    if not sealing:
        print("LEDGERS_SIGNING_KEY is not set: no checkpoint sealed, (c) verifies the chain only")
    (single_register, bulk_register), writer = scratch()
    start = timezone.now()
    single_payloads = list(synthetic_payloads(single_register.kind_info, args.single, start=start))
    bulk_payloads = list(synthetic_payloads(bulk_register.kind_info, args.bulk, start=start))
    table = f"bench_entry_{os.getpid()}"
    raw = raw_connection()
    raw.execute(f"CREATE TABLE {table} (LIKE registers_entry INCLUDING ALL)")
    for column, target in (
        ("register_id", "registers_register"),
        ("actor_user_id", "auth_user"),
        ("corrects_id", table),
    ):
        raw.execute(
            f"ALTER TABLE {table} ADD FOREIGN KEY ({column}) REFERENCES {target} (id) DEFERRABLE INITIALLY DEFERRED"
        )
    raw.commit()
    insert = f"INSERT INTO {table} ({', '.join(COLUMNS)}) VALUES ({', '.join(['%s'] * len(COLUMNS))})"
    # Engine and baseline alternate in rounds, so that a change in the machine's load during the
    # run weighs on both sides alike.
    t_engine_single = t_raw_single = t_engine_bulk = t_raw_bulk = 0.0
    try:
        # (a) one transaction per entry
        for part in chunks(single_payloads, args.rounds):
            first = single_register.head_seq + 1

            def engine_single(part=part):
                for payload in part:
                    entry_append(register=single_register, actor=writer, role=WRITER_ROLE, payload=payload)

            t_engine_single += timed(engine_single)
            rows = stored_rows(single_register, first, single_register.head_seq)
            t_raw_single += timed(lambda rows=rows: raw_appends(raw, insert, rows))

        # (b) one bulk call (one transaction) per round
        for part in chunks(bulk_payloads, args.rounds):
            first = bulk_register.head_seq + 1
            t_engine_bulk += timed(
                lambda part=part: entries_bulk_append(
                    register=bulk_register, actor=writer, role=WRITER_ROLE, payloads=part, batch_size=args.batch
                )
            )
            rows = stored_rows(bulk_register, first, bulk_register.head_seq)

            def raw_bulk(rows=rows):
                with raw.cursor() as cursor:
                    cursor.executemany(insert, rows)
                raw.commit()

            t_raw_bulk += timed(raw_bulk)
            if sealing:  # untimed: (c) checks them
                checkpoints_seal(registers=Register.objects.filter(pk=bulk_register.pk))

        # (c) verification of the bulk register (the opening act and every bulk entry): best of rounds
        t_engine_verify = t_raw_verify = float("inf")
        findings = []
        for _round in range(3):
            t_engine_verify = min(t_engine_verify, timed(lambda: findings.append(verify_register(bulk_register))))
            t_raw_verify = min(t_raw_verify, timed(lambda: raw_verify(raw, bulk_register)))
        assert findings == [None] * 3, findings

        # (d) objects and history, in one snapshot as verify_ledgers reads them
        objects: list = []

        def check_objects():
            with snapshot():
                objects.extend(verify_objects())

        t_objects = timed(check_objects)
        object_rows = sum(model._base_manager.count() + history.objects.count() for model, history in tracked_models())
    finally:
        raw.rollback()
        raw.execute(f"DROP TABLE IF EXISTS {table}")
        raw.commit()
        raw.close()

    verified = args.bulk + 1
    results = [
        ("single append", rate(args.single, t_engine_single), rate(args.single, t_raw_single), None),
        ("bulk append", rate(args.bulk, t_engine_bulk), rate(args.bulk, t_raw_bulk), 0.5),
        ("verification", rate(verified, t_engine_verify), rate(verified, t_raw_verify), None),
    ]
    print(
        f"PostgreSQL {connection.pg_version}, {args.single} single, {args.bulk} bulk (batch {args.batch}), "
        f"{args.rounds} rounds"
    )
    print(f"{'':16}{'engine/s':>12}{'raw/s':>12}{'ratio':>8}  goal")
    for name, engine, baseline, goal in results:
        verdict = "" if goal is None else f"≥ {goal}x  {'met' if engine / baseline >= goal else 'NOT MET'}"
        print(f"{name:16}{engine:12.0f}{baseline:12.0f}{engine / baseline:7.2f}x  {verdict}")
    bad = [finding for _label, finding in objects if finding is not None]
    print(
        f"objects check   {rate(object_rows, t_objects):12.0f} rows/s: {object_rows} object and history rows in "
        f"{t_objects:.2f} s, {t_objects / t_engine_verify:.2f}x the time of (c); {len(bad)} finding(s)"
    )


if __name__ == "__main__":
    main()
