"""The seeded demo for the tests that read a house shaped like a casino.

Seeding takes a minute or two, and several test files need the same demo: the first seeding of a
test run keeps a copy of every table (PostgreSQL COPY) in a file the pytest-xdist workers share,
and later ones load that copy into their own test database instead of seeding again. The copy is
the seeded rows themselves, so a test reads the same house either way; `tests/core/test_seed_demo.py`
still seeds for real.
"""

import fcntl
import io
import pickle
from io import StringIO
from pathlib import Path

from django.core.management import call_command
from django.db import connection, transaction

SKIPPED = ("django_migrations", "django_content_type", "auth_permission")
# The rows migrate creates, which the seeded rows point to: a copy loads only where they are the
# same (a test database that a transactional test flushed has them again under other ids).
FIXED = (
    "SELECT id, app_label, model FROM django_content_type ORDER BY id",
    "SELECT id, content_type_id, codename FROM auth_permission ORDER BY id",
)


def _fixed(cursor) -> list:
    found = []
    for query in FIXED:
        cursor.execute(query)
        found.append(cursor.fetchall())
    return found


def _tables(cursor) -> list[str]:
    cursor.execute(
        "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() AND NOT tablename = ANY(%s) "
        "ORDER BY tablename",
        [list(SKIPPED)],
    )
    return [name for (name,) in cursor.fetchall()]


def _capture() -> dict:
    with connection.cursor() as cursor:
        tables = {}
        for table in _tables(cursor):
            buffer = io.BytesIO()
            with cursor.copy(f'COPY "{table}" TO STDOUT (FORMAT binary)') as copy:
                for chunk in copy:
                    buffer.write(chunk)
            tables[table] = buffer.getvalue()
        cursor.execute(
            "SELECT format('%I.%I', schemaname, sequencename), last_value FROM pg_sequences "
            "WHERE schemaname = current_schema()"
        )
        sequences = cursor.fetchall()
        return {"tables": tables, "sequences": sequences, "fixed": _fixed(cursor)}


def _load(snapshot: dict) -> bool:
    """Whether the copy went in (False, and nothing done, where migrate's rows differ)."""
    with connection.cursor() as cursor:
        if _fixed(cursor) != snapshot["fixed"]:
            return False
    # Replica mode: the append-only and foreign-key triggers are off while the rows they already
    # accepted once go back in, all in one transaction.
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET LOCAL session_replication_role = replica")
        names = ", ".join(f'"{table}"' for table in snapshot["tables"])
        cursor.execute(f"TRUNCATE {names}")
        for table, data in snapshot["tables"].items():
            with cursor.copy(f'COPY "{table}" FROM STDIN (FORMAT binary)') as copy:
                copy.write(data)
        for sequence, last_value in snapshot["sequences"]:
            if last_value is None:
                cursor.execute("SELECT setval(%s, 1, false)", [sequence])
            else:
                cursor.execute("SELECT setval(%s, %s, true)", [sequence, last_value])
    return True


def seed_demo(shared_dir: Path) -> None:
    """The demo in the current database: loaded from this run's copy, or seeded (and copied)."""
    if connection.vendor != "postgresql":
        call_command("seed_demo", stdout=StringIO())
        return
    path = shared_dir / "demo.snapshot"
    with open(shared_dir / "demo.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if path.exists():
            if not _load(pickle.loads(path.read_bytes())):
                call_command("seed_demo", stdout=StringIO())
            return
        call_command("seed_demo", stdout=StringIO())
        partial = path.with_suffix(".partial")
        partial.write_bytes(pickle.dumps(_capture()))
        partial.rename(path)
