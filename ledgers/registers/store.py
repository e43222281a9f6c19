"""Storage of the chain: lock a register's head, insert entries, move the head.

This is the hot path of every regulated change, so it speaks SQL through Django's connection (the
caller's transaction, Django's own value adapters) rather than composing ORM queries each time.

On PostgreSQL one statement inserts an entry and moves the head (a data-modifying WITH, which runs
exactly once, in the same statement). ``append_if_head`` goes further for the common case where
the caller's view of the head is current: its UPDATE of the register row takes the same row lock
as ``SELECT … FOR UPDATE``, and moves the head only if it is still where the entry was chained
to, inserting the entry only then. When another writer got there first (PostgreSQL re-checks the
condition on the row it waited for) nothing is written and the caller takes the lock and retries.
SQLite, whose writers the database lock serialises, takes the plain path. Bulk rows go through
COPY on PostgreSQL and ``executemany`` elsewhere.
"""

import datetime
from functools import cache
from typing import Any, NamedTuple

from django.db import connection

from .models import Entry, Register

FIELDS = (
    "register",
    "seq",
    "recorded_at",
    "actor_user",
    "actor",
    "role",
    "kind",
    "payload",
    "corrects",
    "written",
    "digests",
    "prev_hash",
    "entry_hash",
)


class Head(NamedTuple):
    status: str
    seq: int
    hash: str


@cache
def _sql(vendor: str) -> dict[str, str]:
    q = connection.ops.quote_name
    fields = [Entry._meta.get_field(name) for name in FIELDS]
    entries, registers = q(Entry._meta.db_table), q(Register._meta.db_table)
    columns = ", ".join(q(f.column) for f in fields)
    values = ", ".join(["%s"] * len(fields))
    head, status = f"{q('head_seq')} = %s, {q('head_hash')} = %s", q("status")
    sql = {
        "lock": f"SELECT {status}, {q('head_seq')}, {q('head_hash')} FROM {registers} WHERE {q('id')} = %s",
        "insert": f"INSERT INTO {entries} ({columns}) VALUES ({values})",
        "move": f"UPDATE {registers} SET {head} WHERE {q('id')} = %s",
    }
    if connection.features.has_select_for_update:
        sql["lock"] += " FOR UPDATE"
    if vendor == "postgresql":
        # Typed placeholders: in INSERT … SELECT the values are not typed by a VALUES list.
        typed = ", ".join(f"%s::{f.cast_db_type(connection)}" for f in fields)
        moved = (
            f"UPDATE {registers} SET {head} WHERE {q('id')} = %s AND {q('head_seq')} = %s "
            f"AND {q('head_hash')} = %s AND {status} = %s RETURNING {q('id')}"
        )
        sql["append"] = f"WITH moved AS ({sql['move']}) {sql['insert']} RETURNING {q('id')}"
        sql["append_if_head"] = (
            f"WITH moved AS ({moved}) INSERT INTO {entries} ({columns}) SELECT {typed} FROM moved RETURNING {q('id')}"
        )
        sql["copy"] = f"COPY {entries} ({columns}) FROM STDIN"
    return sql


def lock_head(register_id: int) -> Head:
    """Lock the register row until the end of the transaction and return its status and head."""
    with connection.cursor() as cursor:
        cursor.execute(_sql(connection.vendor)["lock"], [register_id])
        row = cursor.fetchone()
    if row is None:
        raise Register.DoesNotExist(f"register {register_id} does not exist")
    return Head(*row)


def row(
    *,
    register_id: int,
    seq: int,
    recorded_at: datetime.datetime,
    actor_user_id: int | None,
    actor: str,
    role: str,
    kind: str,
    payload: Any,
    corrects_id: int | None,
    written: dict[str, list[int]] | None,
    prev_hash: str,
    digests: dict[str, dict[str, str]] | None = None,
    entry_hash: str,
) -> tuple:
    """The database values of an entry, in FIELDS order, adapted as Django adapts them."""
    ops = connection.ops
    return (
        register_id,
        seq,
        ops.adapt_datetimefield_value(recorded_at),
        actor_user_id,
        actor,
        role,
        kind,
        ops.adapt_json_value(payload, None),
        corrects_id,
        None if written is None else ops.adapt_json_value(written, None),
        None if digests is None else ops.adapt_json_value(digests, None),
        prev_hash,
        entry_hash,
    )


def append(values: tuple) -> int:
    """Insert one entry and make it the head of its register, whose row the caller has locked."""
    register_id, seq, entry_hash = values[0], values[1], values[-1]
    sql = _sql(connection.vendor)
    with connection.cursor() as cursor:
        if "append" in sql:
            cursor.execute(sql["append"], [seq, entry_hash, register_id, *values])
            return cursor.fetchone()[0]
        cursor.execute(sql["insert"], values)
        entry_id = cursor.lastrowid
        cursor.execute(sql["move"], [seq, entry_hash, register_id])
        return entry_id


def append_if_head(values: tuple, *, status: str) -> int | None:
    """Lock the register row, and insert the entry and move the head only if the head is still the
    entry's predecessor and the register has ``status``. None when not (or not on PostgreSQL)."""
    sql = _sql(connection.vendor).get("append_if_head")
    if sql is None:
        return None
    register_id, seq, prev_hash, entry_hash = values[0], values[1], values[-2], values[-1]
    with connection.cursor() as cursor:
        cursor.execute(sql, [seq, entry_hash, register_id, seq - 1, prev_hash, status, *values])
        row = cursor.fetchone()
    return row[0] if row else None


def insert_many(rows: list[tuple]) -> None:
    sql = _sql(connection.vendor)
    with connection.cursor() as cursor:
        if "copy" not in sql:
            cursor.executemany(sql["insert"], rows)
            return
        with cursor.copy(sql["copy"]) as copy:
            for values in rows:
                copy.write_row(values)


def move_head(register_id: int, seq: int, entry_hash: str) -> None:
    with connection.cursor() as cursor:
        cursor.execute(_sql(connection.vendor)["move"], [seq, entry_hash, register_id])
