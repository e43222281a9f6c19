"""Concurrent appends: 1 writer, then 8 writers each on its own register and 8 writers on one
register, against a raw psycopg anchor doing the same work with the chain lock, same run.

    DATABASE_URL=postgres://… python bench/writers.py [--entries 300] [--writers 8]

Engine: each writer thread appends ``--entries`` entries with ``entry_append``, one transaction per
entry (or, on the second line, through the main courante's service, ``main_courante_record``, as a
page or the API writes it). Anchor: each thread, on its own raw connection, writes the same rows
again in one transaction per entry that locks a scratch head row (``SELECT … FOR UPDATE``), inserts
the entry into a scratch copy of the entries table and moves the head; the writers of one register
lock the same head row. Both sides are timed wall-clock from the first thread's start to the last
one's end; the ratio is engine entries per second over anchor entries per second (goals: 1 writer
≥ 0.6x, through the service ≥ 0.7x, 8 writers on 8 registers ≥ 0.4x). Afterwards every engine
register must be gapless (head = entries + opening act) and verify.

It creates a scratch establishment (kept: ledger rows are append-only) and drops its scratch
tables. Run it on a scratch database.
"""

import argparse
import os
import sys
import threading
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from django.contrib.auth import get_user_model
from django.db import connection, connections, transaction
from django.utils import timezone
from ledger import COLUMNS, raw_connection, stored_rows  # sets Django up

from ledgers.core.roles import Role
from ledgers.core.services import establishment_create, membership_grant
from ledgers.registers.models import Register
from ledgers.registers.services import entry_append, main_courante_record, register_create, register_open
from ledgers.registers.synthetic import synthetic_payloads
from ledgers.registers.verification import verify_register

KIND = "main_courante"
WRITER_ROLE = Role.INSPECTEUR


def scratch(count: int) -> tuple[list[Register], object]:
    code = f"writers{int(time.time())}"
    est = establishment_create(code=code, name=f"Banc d'essai {code}", jurisdiction="MC", actor=None)
    users = {}
    for role in (Role.DIRECTEUR_JEUX, Role.COMMISSAIRE, WRITER_ROLE):
        user = get_user_model().objects.create_user(username=f"{code}.{role}", first_name=role, last_name="Banc")
        membership_grant(user=user, establishment=est, role=role, actor=None)
        users[role] = user
    registers = []
    for n in range(count):
        register = register_create(establishment=est, kind=KIND, actor=users[Role.DIRECTEUR_JEUX], qualifier=f"w{n}")
        register_open(register=register, actor=users[Role.COMMISSAIRE], paraphe="B.E.")
        registers.append(Register.objects.get(pk=register.pk))
    return registers, users[WRITER_ROLE]


def in_threads(work) -> float:
    """Run ``work`` (one callable per thread) at once; the wall-clock seconds of the whole."""
    start = threading.Barrier(len(work) + 1)
    errors: list[BaseException] = []

    def run(job):
        start.wait()
        try:
            job()
        except BaseException as exc:  # reported after the join
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(job,)) for job in work]
    for thread in threads:
        thread.start()
    start.wait()
    began = time.perf_counter()
    for thread in threads:
        thread.join()
    if errors:
        raise errors[0]
    return time.perf_counter() - began


def engine_job(register: Register, writer, payloads: list[dict], act: bool = False):
    """``act``: each entry through the main courante's service (``main_courante_record``: the
    writer's role checked, the fact's time parsed, its own transaction), as a page or the API
    writes it; else through ``entry_append`` in a transaction of the bench's."""

    def job():
        try:
            for payload in payloads:
                if act:
                    main_courante_record(register=register, actor=writer, **payload)
                    continue
                with transaction.atomic():
                    entry_append(register=register, actor=writer, role=WRITER_ROLE, payload=payload)
        finally:
            connections.close_all()  # this thread's connection

    return job


def anchor_job(rows: list[tuple], head_table: str, entry_table: str, head_id: int):
    insert = f"INSERT INTO {entry_table} ({', '.join(COLUMNS)}) VALUES ({', '.join(['%s'] * len(COLUMNS))})"
    lock = f"SELECT head_seq, head_hash FROM {head_table} WHERE id = %s FOR UPDATE"
    move = f"UPDATE {head_table} SET head_seq = %s, head_hash = %s WHERE id = %s"

    def job():
        raw = raw_connection()
        try:
            with raw.cursor() as cursor:
                for row in rows:
                    cursor.execute(lock, [head_id])
                    cursor.fetchone()
                    cursor.execute(insert, row)
                    cursor.execute(move, [row[1], row[-1], head_id])
                    raw.commit()
        finally:
            raw.close()

    return job


def measure(
    registers: list[Register], writer, entries: int, tables: tuple[str, str], act: bool = False, rounds: int = 10
) -> tuple[float, float]:
    """Entries per second of the engine and of the anchor, one thread per writer: ``registers``
    names each writer's register (the same one for writers that share it). Engine and anchor
    alternate in ``rounds``, so that a change in the machine's load (the commits of other
    databases on the server) weighs on both sides alike."""
    payloads = [list(synthetic_payloads(r.kind_info, entries, start=timezone.now())) for r in registers]
    # Each writer its own instance: a writer sees the head as it last left it.
    mine = [Register.objects.get(pk=r.pk) for r in registers]
    writers_of = Counter(r.pk for r in registers)
    size = -(-entries // rounds)
    t_engine = t_anchor = 0.0
    for start in range(0, entries, size):
        firsts = {pk: head + 1 for pk, head in Register.objects.filter(pk__in=writers_of).values_list("pk", "head_seq")}
        parts = [p[start : start + size] for p in payloads]
        t_engine += in_threads([engine_job(r, writer, p, act) for r, p in zip(mine, parts, strict=True)])
        rows = {r.pk: stored_rows(r, firsts[r.pk], r.head_seq) for r in Register.objects.filter(pk__in=writers_of)}
        # The anchor writes the same rows again; the writers of one register share its rows.
        turn, jobs = Counter(), []
        for r in registers:
            jobs.append(anchor_job(rows[r.pk][turn[r.pk] :: writers_of[r.pk]], *tables, r.pk))
            turn[r.pk] += 1
        t_anchor += in_threads(jobs)
    total = entries * len(registers)
    return total / t_engine, total / t_anchor


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--entries", type=int, default=300, help="entries per writer")
    parser.add_argument("--writers", type=int, default=8)
    args = parser.parse_args()
    if connection.vendor != "postgresql":
        raise SystemExit("bench/writers.py measures PostgreSQL: set DATABASE_URL=postgres://…")
    registers, writer = scratch(args.writers + 1)
    own, shared = registers[: args.writers], registers[-1]
    head_table, entry_table = f"bench_head_{os.getpid()}", f"bench_entry_{os.getpid()}"
    raw = raw_connection()
    raw.execute(f"CREATE TABLE {entry_table} (LIKE registers_entry INCLUDING ALL)")
    raw.execute(f"CREATE TABLE {head_table} (id bigint PRIMARY KEY, head_seq bigint, head_hash text)")
    with raw.cursor() as cursor:
        cursor.executemany(f"INSERT INTO {head_table} VALUES (%s, 0, '')", [(r.pk,) for r in registers])
    raw.commit()
    # (writers' registers, through the main courante's service, goal)
    cases = (
        (own[:1], False, 0.6),
        (own[:1], True, 0.7),
        (own, False, 0.4),
        ([shared] * args.writers, False, None),
    )
    results = []
    try:
        for writers, act, goal in cases:
            engine, anchor = measure(writers, writer, args.entries, (head_table, entry_table), act)
            through = "main_courante_record" if act else "entry_append"
            results.append((len(writers), len({r.pk for r in writers}), through, engine, anchor, goal))
    finally:
        raw.execute(f"DROP TABLE IF EXISTS {entry_table}")
        raw.execute(f"DROP TABLE IF EXISTS {head_table}")
        raw.commit()
        raw.close()
    written = Counter(r.pk for writers, _act, _goal in cases for r in writers)
    for register in registers:
        register.refresh_from_db()
        expected = 1 + args.entries * written[register.pk]  # the opening act and every writer's entries
        assert register.head_seq == expected == register.entries.count(), register.number
        assert verify_register(register) is None, register.number
    print(
        f"PostgreSQL {connection.pg_version}, {args.entries} entries per writer, one transaction each; "
        f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} CPUs"
    )
    print(f"{'writers':>8}{'registers':>10} {'through':<22}{'engine/s':>10}{'anchor/s':>10}{'ratio':>8}  goal")
    for writers, count, through, engine, anchor, goal in results:
        ratio = engine / anchor
        verdict = "" if goal is None else f"≥ {goal}x  {'met' if ratio >= goal else 'NOT MET'}"
        print(f"{writers:8}{count:10} {through:<22}{engine:10.0f}{anchor:10.0f}{ratio:7.2f}x  {verdict}")
    print(f"{len(registers)} registers gapless and verified")


if __name__ == "__main__":
    main()
