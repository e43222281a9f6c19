"""Card movements on an 8-deck unit, against a raw append of the same register entry, same run.

    DATABASE_URL=postgres://… python bench/cards.py [--rounds 30]

Each round issues a huitain to a punto banco table-partie (``cards_issue``) and takes it back
(``cards_return``), all in one table-partie: the unit and its 8 decks change, each with its
history row, and one entry goes to the register of cards in service. The baseline writes the
same entry rows again with raw INSERTs into a scratch copy of the entries table, one commit each
(``bench/ledger.py``'s single-append baseline).
Reported: movements per second against raw appends per second, and the queries of one movement.

It creates a scratch establishment (kept: ledger rows are append-only) and drops its scratch
table. Run it on a scratch database. It builds its casino with the tests' card-room fixture
(``tests/cards/conftest.py``), so it needs the development requirements.
"""

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from django.db import connection  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402
from ledger import COLUMNS, raw_appends, raw_connection, stored_rows, timed  # noqa: E402  (sets Django up)

from tests import factories  # noqa: E402
from tests.cards.conftest import World  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=30, help="huitains issued and returned")
    args = parser.parse_args()
    if connection.vendor != "postgresql":
        raise SystemExit("bench/cards.py measures PostgreSQL: set DATABASE_URL=postgres://…")
    code = f"cards{int(time.time())}"
    start = int(time.time()) * 1000  # the fixture's usernames are numbered: a fresh range per run
    factories._counter = iter(range(start, start + 10**6))
    world = World(factories.EstablishmentFactory(code=code, name=f"Banc d'essai {code}", jurisdiction="MC"))
    register = world.registers["service"]
    units = world.receive(*(world.spec("huitain") for _ in range(args.rounds)))
    table = f"bench_entry_{os.getpid()}"
    raw = raw_connection()
    raw.execute(f"CREATE TABLE {table} (LIKE registers_entry INCLUDING ALL)")
    raw.commit()
    insert = f"INSERT INTO {table} ({', '.join(COLUMNS)}) VALUES ({', '.join(['%s'] * len(COLUMNS))})"
    t_moves = t_raw = 0.0
    queries: list[int] = []
    session = world.session("punto_banco")
    try:
        for unit in units:
            register.refresh_from_db()
            first = register.head_seq + 1
            with CaptureQueriesContext(connection) as issued:
                t_moves += timed(lambda unit=unit: world.issue(session, unit))
            with CaptureQueriesContext(connection) as returned:
                t_moves += timed(lambda unit=unit: world.give_back(unit))
            queries += [len(issued.captured_queries), len(returned.captured_queries)]
            register.refresh_from_db()
            rows = stored_rows(register, first, register.head_seq)
            t_raw += timed(lambda rows=rows: raw_appends(raw, insert, rows))
    finally:
        raw.rollback()
        raw.execute(f"DROP TABLE IF EXISTS {table}")
        raw.commit()
        raw.close()
    moves = 2 * args.rounds
    print(f"PostgreSQL {connection.pg_version}, {args.rounds} huitains issued and returned ({moves} movements)")
    print(f"movements {moves / t_moves:8.0f}/s   raw appends {moves / t_raw:8.0f}/s   ratio {t_raw / t_moves:.2f}x")
    print(f"queries per movement: issue {queries[0]}, return {queries[1]} (max {max(queries)})")


if __name__ == "__main__":
    main()
