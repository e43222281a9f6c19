"""Bulk meter import of a whole slot room, as a ratio against raw ``executemany`` of the same rows in
the same run.

    DATABASE_URL=postgres://… python bench/slots_import.py [--machines 1000 5000] [--repeat 3]

For each room size, a scratch Monaco establishment gets N machines of five meters each (in, out,
jackpots, cash box, bills: SLOT-05, SLOT-12), entered through the inventory service as any machine
is (so that ``verify_ledgers`` finds each with its history and register line), and a first relève
(neither timed) so that the timed one compares every value with a previous reading. Timed:

(a) ``releve_readings_import``: rows checked (known meter, capacity, every meter of each machine
    read), previous values fetched, deltas and rollovers computed, the readings written, one
    hash-chained register line per machine and station appended under one register lock;
(b) the baseline: one raw psycopg ``executemany`` of the same reading rows (as (a) stored them,
    read back) into a scratch copy of ``slots_meterreading`` with its foreign keys and triggers,
    so that both sides pay what the table costs (its deferred foreign keys are checked at commit);
(b') the same into a bare copy (``LIKE … INCLUDING ALL``: indexes, no foreign keys, no triggers);
(c) (b) plus a raw ``executemany`` of the register lines (a) wrote, read back, into a copy of
    ``registers_entry``: every byte (a) writes, without its checks.

Both sides run with the garbage collector off, as ``timeit`` does. Ratio = (b) / (a): 1.0 means
the import costs no more than raw inserts of its readings; goal ≥ 0.5. "Ratio bare" is (b') / (a).
Ratio (c) / (a) is the share of the import spent writing, the rest being its checks. An import
changes no mutable object (readings and entries are append-only), so it writes no history rows.
Run it on a scratch database: the establishment and its rows stay (append-only).

Measured (2 cores shared with other work, PostgreSQL 15 local, median of 3):
    machines   rows   import s  raw s  bare s  raw+lines s  ratio  ratio bare  ratio w/ lines
    1000       5000   1.081     0.871  0.207   0.686        0.81   0.19       0.63
    5000       25000  3.644     2.210  1.382   3.879        0.61   0.38       1.06
"""

import argparse
import gc
import io
import os
import sys
import time
from decimal import Decimal
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino_compliance.settings")

import django

django.setup()

import psycopg  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402
from django.core.files.uploadedfile import SimpleUploadedFile  # noqa: E402
from django.db import connection, transaction  # noqa: E402
from django.utils import timezone  # noqa: E402
from PIL import Image  # noqa: E402
from psycopg.types.json import Jsonb  # noqa: E402

from ledgers.core.roles import Role  # noqa: E402
from ledgers.core.services import establishment_create, membership_grant, room_create  # noqa: E402
from ledgers.registers.models import Entry  # noqa: E402
from ledgers.registers.services import register_create, register_open  # noqa: E402
from ledgers.registers.verification import verify_register  # noqa: E402
from ledgers.slots.models import MeterReading  # noqa: E402
from ledgers.slots.registers import METER_READINGS, SLOT_FILES  # noqa: E402
from ledgers.slots.services import (  # noqa: E402
    MachineInput,
    MeterSpec,
    ReadingRow,
    machine_register,
    releve_open,
    releve_readings_import,
)

CODES = ("in", "out", "jackpots", "cash_box", "bills")
ENTRY_COLUMNS = (
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
COLUMNS = (
    "meter_id",
    "releve_id",
    "ram_clear_id",
    "source",
    "read_at",
    "value",
    "delta",
    "rollover",
    "incident_id",
    "read_by_id",
)


def _png() -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (2, 2), "grey").save(buffer, "PNG")
    return buffer.getvalue()


PHOTO = _png()  # the inventory photograph of each machine (SLOT-04)


def raw_connection() -> psycopg.Connection:
    params = connection.get_connection_params()
    keep = ("dbname", "user", "password", "host", "port")
    return psycopg.connect(**{k: params[k] for k in keep if params.get(k)})


def room_of(size: int):
    code = f"bs{size}x{int(time.time() * 1000) % 10**8}"
    est = establishment_create(code=code, name=f"Banc d'essai {code}", jurisdiction="MC", actor=None)
    users = {}
    for role in (Role.DIRECTEUR_JEUX, Role.DIRECTEUR_EXPLOITATION, Role.SUPERVISEUR):
        user = get_user_model().objects.create_user(username=f"{code}.{role}", first_name=role, last_name="Banc")
        membership_grant(user=user, establishment=est, role=role, actor=None)
        users[role] = user
    registers = {}
    for kind in (SLOT_FILES.code, METER_READINGS.code):
        registers[kind] = register_create(establishment=est, kind=kind, actor=users[Role.DIRECTEUR_JEUX])
        register_open(register=registers[kind], actor=users[Role.DIRECTEUR_EXPLOITATION], paraphe="B.E.")
    register = registers[METER_READINGS.code]
    room = room_create(establishment=est, code="slots", name="Salle des machines", actor=None)
    # The inventory through its service (not timed): each machine with its meter set, its technical
    # sheet and their register lines, so that the database verifies as any other.
    machines = [
        machine_register(
            establishment=est,
            data=MachineInput(
                machine_type="Vidéo",
                technology="electronic",
                maker="Banc",
                maker_serial=f"S{n}",
                sbm_number=f"M{n:05d}",
                media=["coins", "banknotes"],
                stations=1,
                rtp_percent=Decimal("92"),
                rate_date=timezone.localdate(),
                meters=[MeterSpec(code, 8) for code in CODES],
            ),
            actor=users[Role.DIRECTEUR_EXPLOITATION],
            photo=SimpleUploadedFile("machine.png", PHOTO, content_type="image/png"),
        )
        for n in range(size)
    ]
    return est, room, users[Role.SUPERVISEUR], register, [m.sbm_number for m in machines]


def rows_for(numbers: list[str], base: int) -> list[ReadingRow]:
    return [
        ReadingRow(number, 1, code, base + n * 7 + i)
        for n, number in enumerate(numbers)
        for i, code in enumerate(CODES)
    ]


def measure(size: int) -> tuple[float, float, float, float, int]:
    est, room, supervisor, register, numbers = room_of(size)
    releve_readings_import(
        releve=releve_open(establishment=est, room=room, actor=supervisor, during_operation=False),
        rows=rows_for(numbers, 1000),
        actor=supervisor,
    )
    releve = releve_open(establishment=est, room=room, actor=supervisor, during_operation=False)
    rows = rows_for(numbers, 5000)
    gc.collect()
    gc.disable()  # as timeit does: a full collection of the whole process lands in either side at random
    try:
        start = time.perf_counter()
        with transaction.atomic():
            releve_readings_import(releve=releve, rows=rows, actor=supervisor)
        ours = time.perf_counter() - start
    finally:
        gc.enable()
    stored = list(MeterReading.objects.filter(releve=releve).order_by("pk").values_list(*COLUMNS))
    lines = [
        tuple(Jsonb(v) if isinstance(v, dict) else v for v in line)
        for line in Entry.objects.filter(register=register, payload__releve=releve.pk)
        .order_by("seq")
        .values_list(*ENTRY_COLUMNS)
    ]
    baseline = raw_insert([("slots_meterreading", COLUMNS, stored)])
    bare = raw_insert([("slots_meterreading", COLUMNS, stored)], bare=True)
    written = raw_insert([("slots_meterreading", COLUMNS, stored), ("registers_entry", ENTRY_COLUMNS, lines)])
    problem = verify_register(register)
    if problem:
        raise SystemExit(f"chain broken: {problem}")
    return ours, baseline, bare, written, len(rows)


def raw_insert(tables: list[tuple[str, tuple, list]], *, bare: bool = False) -> float:
    """Seconds to executemany ``rows`` into scratch copies of the tables, and commit. A copy keeps
    its table's foreign keys (checked at commit, deferred as Django declares them) and triggers,
    so that both sides pay what the table itself costs; ``bare`` leaves them out."""
    raw = raw_connection()
    copies = [f"bench_{os.getpid()}_{n}" for n in range(len(tables))]
    try:
        for copy, (table, _columns, _rows) in zip(copies, tables, strict=True):
            raw.execute(f"CREATE TABLE {copy} (LIKE {table} INCLUDING ALL)")
            if not bare:
                for (definition,) in raw.execute(
                    "SELECT pg_get_constraintdef(oid) FROM pg_constraint "
                    "WHERE conrelid = %s::regclass AND contype = 'f'",
                    [table],
                ).fetchall():
                    raw.execute(f"ALTER TABLE {copy} ADD {definition}")
                for name, definition in raw.execute(
                    "SELECT tgname, pg_get_triggerdef(oid) FROM pg_trigger "
                    "WHERE tgrelid = %s::regclass AND NOT tgisinternal",
                    [table],
                ).fetchall():
                    raw.execute(
                        definition.replace(f" ON public.{table} ", f" ON {copy} ").replace(
                            f"TRIGGER {name} ", f"TRIGGER {copy}_{name} ", 1
                        )
                    )
        raw.commit()
        gc.collect()
        gc.disable()
        try:
            start = time.perf_counter()
            with raw.cursor() as cursor:
                for copy, (_table, columns, rows) in zip(copies, tables, strict=True):
                    marks = ", ".join(["%s"] * len(columns))
                    cursor.executemany(f"INSERT INTO {copy} ({', '.join(columns)}) VALUES ({marks})", rows)
            raw.commit()
            return time.perf_counter() - start
        finally:
            gc.enable()
    finally:
        raw.rollback()
        for copy in copies:
            raw.execute(f"DROP TABLE IF EXISTS {copy}")
        raw.commit()
        raw.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--machines", type=int, nargs="+", default=[1000, 5000])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(
        f"{'machines':>9} {'rows':>7} {'import s':>9} {'raw s':>7} {'bare s':>7} {'raw+lines s':>12} "
        f"{'rows/s':>8} {'ratio':>6} {'ratio bare':>11} {'ratio w/ lines':>15}"
    )
    for size in args.machines:
        runs = sorted((measure(size) for _ in range(args.repeat)), key=lambda run: run[1] / run[0])
        ours, baseline, bare, written, rows = runs[len(runs) // 2]  # the run of median ratio
        print(
            f"{size:>9} {rows:>7} {ours:>9.3f} {baseline:>7.3f} {bare:>7.3f} {written:>12.3f} {rows / ours:>8.0f} "
            f"{baseline / ours:>6.2f} {bare / ours:>11.2f} {written / ours:>15.2f}"
        )


if __name__ == "__main__":
    main()
