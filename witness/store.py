"""The witness's own database: the log keys it trusts, every checkpoint it cosigned, and the
correctly signed checkpoints it refused (evidence of a log's misbehaviour). SQLite (a file path or
``sqlite:///path``) with the standard library, or PostgreSQL (``postgres://…``) with psycopg.

Cosigned and refused checkpoints are never changed nor deleted: triggers refuse it. The check of a
new checkpoint against the latest cosigned one and the insertion of the new one happen under one
lock per origin, so two requests cannot both build on the same old head."""

import hashlib
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

SCHEMA = """
CREATE TABLE IF NOT EXISTS logs (vkey TEXT PRIMARY KEY, added_at BIGINT NOT NULL);
CREATE TABLE IF NOT EXISTS cosigned (
    id {serial} PRIMARY KEY, origin TEXT NOT NULL, origin_hash TEXT NOT NULL, size BIGINT NOT NULL,
    root TEXT NOT NULL, note TEXT NOT NULL, cosigned_at BIGINT NOT NULL);
CREATE INDEX IF NOT EXISTS cosigned_origin ON cosigned (origin, size);
CREATE INDEX IF NOT EXISTS cosigned_origin_hash ON cosigned (origin_hash, size);
CREATE TABLE IF NOT EXISTS refused (
    id {serial} PRIMARY KEY, origin TEXT NOT NULL, old_size BIGINT NOT NULL, size BIGINT NOT NULL,
    root TEXT NOT NULL, note TEXT NOT NULL, status INTEGER NOT NULL, reason TEXT NOT NULL,
    received_at BIGINT NOT NULL);
"""
SQLITE_GUARD = """
CREATE TRIGGER IF NOT EXISTS {table}_no_{op} BEFORE {op} ON {table}
BEGIN SELECT RAISE(ABORT, 'the witness never changes a {table} checkpoint'); END;
"""
PG_GUARD = """
CREATE OR REPLACE FUNCTION witness_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN RAISE EXCEPTION 'the witness never changes a % checkpoint', TG_TABLE_NAME; END $$;
CREATE OR REPLACE TRIGGER {table}_append_only BEFORE UPDATE OR DELETE ON {table}
    FOR EACH ROW EXECUTE FUNCTION witness_refuse_change();
"""
APPEND_ONLY = ("cosigned", "refused")


@dataclass(frozen=True)
class Head:
    origin: str
    size: int
    root: str  # base64, as in the checkpoint
    note: str  # the checkpoint with the log's signatures and the witness's cosignature
    cosigned_at: int


def origin_hash(origin: str) -> str:
    return hashlib.sha256(origin.encode("utf-8")).hexdigest()


class Store:
    def __init__(self, url: str) -> None:
        self.url = url
        self.postgres = url.startswith(("postgres://", "postgresql://"))

    def _connect(self):
        if self.postgres:
            import psycopg  # only a PostgreSQL store needs it

            return psycopg.connect(self.url)
        connection = sqlite3.connect(self.url.removeprefix("sqlite:///"), timeout=30, isolation_level=None)
        return connection

    @contextmanager
    def transaction(self, origin: str | None = None) -> Iterator["Transaction"]:
        """One transaction; with ``origin``, holding that origin's lock until it ends."""
        connection = self._connect()
        try:
            if self.postgres:
                with connection.transaction():
                    if origin is not None:
                        key = int.from_bytes(bytes.fromhex(origin_hash(origin))[:8], "big", signed=True)
                        connection.execute("SELECT pg_advisory_xact_lock(%s)", [key])
                    yield Transaction(connection, "%s")
            else:
                connection.execute("BEGIN IMMEDIATE")  # SQLite: one writer at a time, the lock of every origin
                try:
                    yield Transaction(connection, "?")
                except BaseException:
                    connection.execute("ROLLBACK")
                    raise
                connection.execute("COMMIT")
        finally:
            connection.close()

    def migrate(self) -> None:
        serial = "BIGSERIAL" if self.postgres else "INTEGER"
        with self.transaction() as tx:
            for statement in SCHEMA.format(serial=serial).split(";"):
                if statement.strip():
                    tx.execute(statement)
            for table in APPEND_ONLY:
                if self.postgres:
                    tx.execute(PG_GUARD.format(table=table))
                else:
                    for op in ("UPDATE", "DELETE"):
                        tx.execute(SQLITE_GUARD.format(table=table, op=op))


class Transaction:
    def __init__(self, connection, placeholder: str) -> None:
        self.connection, self.placeholder = connection, placeholder

    def execute(self, sql: str, params: tuple = ()):
        if not params:  # no placeholder processing: the trigger bodies hold "%"
            return self.connection.execute(sql)
        return self.connection.execute(sql.replace("?", self.placeholder), params)

    def log_keys(self) -> list[str]:
        return [vkey for (vkey,) in self.execute("SELECT vkey FROM logs ORDER BY vkey").fetchall()]

    def logs(self) -> list[tuple[str, int]]:
        """(vkey, time it was trusted) of every trusted log key."""
        return self.execute("SELECT vkey, added_at FROM logs ORDER BY vkey").fetchall()

    def add_log(self, vkey: str, now: int) -> None:
        self.execute(
            "INSERT INTO logs (vkey, added_at) VALUES (?, ?) ON CONFLICT (vkey) DO NOTHING",
            (vkey, now),
        )

    def latest(self, *, origin: str | None = None, hashed: str | None = None) -> Head | None:
        """The largest checkpoint cosigned for the origin (given as itself or by its SHA-256)."""
        column, value = ("origin", origin) if origin is not None else ("origin_hash", hashed)
        row = self.execute(
            f"SELECT origin, size, root, note, cosigned_at FROM cosigned WHERE {column} = ? "
            "ORDER BY size DESC, id DESC LIMIT 1",
            (value,),
        ).fetchone()
        return Head(*row) if row else None

    def heads(self, origin: str | None = None) -> list[Head]:
        where, params = ("WHERE origin = ?", (origin,)) if origin else ("", ())
        rows = self.execute(
            f"SELECT origin, size, root, note, cosigned_at FROM cosigned {where} ORDER BY origin, id",
            params,
        ).fetchall()
        return [Head(*row) for row in rows]

    def newest_per_origin(self) -> list[tuple[str, int, int]]:
        """(origin, time of its newest cosignature, its largest size) of every cosigned origin."""
        return self.execute("SELECT origin, max(cosigned_at), max(size) FROM cosigned GROUP BY origin").fetchall()

    def cosigned(self, head: Head) -> None:
        self.execute(
            "INSERT INTO cosigned (origin, origin_hash, size, root, note, cosigned_at) VALUES (?, ?, ?, ?, ?, ?)",
            (head.origin, origin_hash(head.origin), head.size, head.root, head.note, head.cosigned_at),
        )

    def refused(
        self, *, origin: str, old_size: int, size: int, root: str, note: str, status: int, reason: str, now: int
    ):
        self.execute(
            "INSERT INTO refused (origin, old_size, size, root, note, status, reason, received_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (origin, old_size, size, root, note, status, reason, now),
        )

    def refusals(self) -> list[tuple]:
        return self.execute(
            "SELECT origin, old_size, size, root, status, reason, received_at FROM refused ORDER BY id"
        ).fetchall()
