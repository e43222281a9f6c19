"""Bulk meter import of a whole slot room, as a ratio against raw ``executemany`` of the same rows in
the same run.

    DATABASE_URL=postgres://… python bench/slots_import.py [--machines 1000 5000] [--repeat 3]

For each room size, a scratch Monaco establishment gets N machines of five meters each (in, out,
jackpots, cash box, bills: SLOT-05, SLOT-12) and a first relève (not timed) so that the timed one
compares every value with a previous reading. Timed:

(a) ``releve_readings_import``: rows checked (known meter, capacity, every meter of each machine
    read), previous values fetched, deltas and rollovers computed, the readings written, one
    hash-chained register line per machine and station appended under one register lock;
(b) the baseline: one raw psycopg ``executemany`` of the same reading rows (as (a) stored them,
    read back) into a scratch table ``LIKE slots_meterreading INCLUDING ALL``;
(c) a second baseline: (b) plus a raw ``executemany`` of the register lines (a) wrote, read back,
    into a table ``LIKE registers_entry INCLUDING ALL``: every byte (a) writes, without its checks.

Both sides run with the garbage collector off, as ``timeit`` does. Ratio = (b) / (a): 1.0 means
the import costs no more than raw inserts of its readings; goal ≥ 0.5. Ratio (c) / (a) is the
share of the import spent writing, the rest being its checks. An import changes no mutable object
(readings and entries are append-only), so it writes no history rows. Run it on a scratch
database: the establishment and its rows stay (append-only).

Measured (2 shared cores, PostgreSQL 15 local, median of 3):
    machines   rows   import s  raw s  raw+lines s  ratio  ratio w/ lines
    1000       5000   0.564     0.194  0.252        0.34   0.45
    5000       25000  2.675     0.985  1.323        0.37   0.49
"""

import argparse
import gc
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
from django.db import connection, transaction  # noqa: E402
from django.utils import timezone  # noqa: E402
from psycopg.types.json import Jsonb  # noqa: E402

from ledgers.core.models import Room  # noqa: E402
from ledgers.core.roles import Role  # noqa: E402
from ledgers.core.services import establishment_create, membership_grant  # noqa: E402
from ledgers.registers.models import Entry  # noqa: E402
from ledgers.registers.services import register_create, register_open  # noqa: E402
from ledgers.registers.verification import verify_register  # noqa: E402
from ledgers.slots.models import Machine, Meter, MeterReading  # noqa: E402
from ledgers.slots.registers import METER_READINGS  # noqa: E402
from ledgers.slots.services import ReadingRow, releve_open, releve_readings_import  # noqa: E402

CODES = ("in", "out", "jackpots", "cash_box", "bills")
ENTRY_COLUMNS = ("register_id", "seq", "recorded_at", "actor_user_id", "actor", "role", "kind", "payload",
                 "corrects_id", "prev_hash", "entry_hash")
COLUMNS = ("meter_id", "releve_id", "ram_clear_id", "source", "read_at", "value", "delta", "rollover", "incident_id",
           "read_by_id")


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
    register = register_create(establishment=est, kind=METER_READINGS.code, actor=users[Role.DIRECTEUR_JEUX])
    register_open(register=register, actor=users[Role.DIRECTEUR_EXPLOITATION], paraphe="B.E.")
    room = Room.objects.create(establishment=est, code="slots", name="Salle des machines")
    # Inventory set-up is not what is measured: machines and meters go in directly.
    now = timezone.now()
    machines = Machine.objects.bulk_create(
        Machine(establishment=est, machine_type="Vidéo", technology="electronic", maker="Banc", maker_serial=f"S{n}",
                sbm_number=f"M{n:05d}", media=["coins", "banknotes"], stations=1, rtp_percent=Decimal("92"),
                rate_date=now.date(), registered_at=now, status="in_service", place="floor")
        for n in range(size)
    )
    Meter.objects.bulk_create(Meter(machine=m, station=1, code=c, digits=8) for m in machines for c in CODES)
    return est, room, users[Role.SUPERVISEUR], register, [m.sbm_number for m in machines]


def rows_for(numbers: list[str], base: int) -> list[ReadingRow]:
    return [ReadingRow(number, 1, code, base + n * 7 + i) for n, number in enumerate(numbers)
            for i, code in enumerate(CODES)]


def measure(size: int) -> tuple[float, float, int]:
    est, room, supervisor, register, numbers = room_of(size)
    releve_readings_import(releve=releve_open(establishment=est, room=room, actor=supervisor, during_operation=False),
                           rows=rows_for(numbers, 1000), actor=supervisor)
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
    lines = [tuple(Jsonb(v) if isinstance(v, dict) else v for v in line)
             for line in Entry.objects.filter(register=register, payload__releve=releve.pk).order_by("seq")
             .values_list(*ENTRY_COLUMNS)]
    baseline = raw_insert([("slots_meterreading", COLUMNS, stored)])
    written = raw_insert([("slots_meterreading", COLUMNS, stored), ("registers_entry", ENTRY_COLUMNS, lines)])
    problem = verify_register(register)
    if problem:
        raise SystemExit(f"chain broken: {problem}")
    return ours, baseline, written, len(rows)


def raw_insert(tables: list[tuple[str, tuple, list]]) -> float:
    """Seconds to executemany ``rows`` into scratch copies of the tables, and commit."""
    raw = raw_connection()
    try:
        for n, (table, _columns, _rows) in enumerate(tables):
            raw.execute(f"CREATE TEMP TABLE bench_{n} (LIKE {table} INCLUDING ALL)")
        gc.collect()
        gc.disable()
        try:
            start = time.perf_counter()
            with raw.cursor() as cursor:
                for n, (_table, columns, rows) in enumerate(tables):
                    marks = ", ".join(["%s"] * len(columns))
                    cursor.executemany(f"INSERT INTO bench_{n} ({', '.join(columns)}) VALUES ({marks})", rows)
            raw.commit()
            return time.perf_counter() - start
        finally:
            gc.enable()
    finally:
        raw.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--machines", type=int, nargs="+", default=[1000, 5000])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(f"{'machines':>9} {'rows':>7} {'import s':>9} {'raw s':>7} {'raw+lines s':>12} {'rows/s':>8} "
          f"{'ratio':>6} {'ratio w/ lines':>15}")
    for size in args.machines:
        runs = sorted((measure(size) for _ in range(args.repeat)), key=lambda run: run[1] / run[0])
        ours, baseline, written, rows = runs[len(runs) // 2]  # the run of median ratio
        print(f"{size:>9} {rows:>7} {ours:>9.3f} {baseline:>7.3f} {written:>12.3f} {rows / ours:>8.0f} "
              f"{baseline / ours:>6.2f} {written / ours:>15.2f}")


if __name__ == "__main__":
    main()
