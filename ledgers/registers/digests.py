"""Digests of history rows, hashed into the entry their transaction writes (format 3,
docs/ledger-format.md §10).

An entry of format 3 carries, beside the objects it names (``written``), ``digests``: {model
label: {history id: digest}} of every history row of those objects that its transaction had
written when the entry was appended. A row's digest is the SHA-256 (hex) of the canonical JSON of
{column: value} over all the columns of the history table (the transaction stamp included), each
value as PostgreSQL writes it in JSON (``to_jsonb``, session time zone UTC), text values without
their quotes, null as null. The latest history row of an object is the state its current row must
equal (``evidence.check_state``), so that state enters the chain too: a row and its history
changed together in place no longer match the digest an entry sealed.

PostgreSQL only: the transaction stamp says which history rows the transaction wrote. Elsewhere
entries stay of format 2.
"""

import hashlib
from collections.abc import Iterable, Iterator
from functools import cache

import orjson
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import Model

from ledgers.core.db import TXID_COLUMN

from .chain import canonical_json

BATCH = 2000


def row_digest(columns_json: str | dict) -> str:
    columns = orjson.loads(columns_json) if isinstance(columns_json, str) else columns_json
    return hashlib.sha256(canonical_json(columns)).hexdigest()


def _columns_sql(history: type[Model], where: str, using: str, key: str | None = None) -> str:
    """(``key``, by default the object pk; history id; the row's columns as JSON text) of the rows
    of ``history`` that ``where`` keeps."""
    q = connections[using].ops.quote_name
    pk = q(history._meta.pk.column)
    key = key or f"h.{q(history._meta.get_field(_object_pk(history)).column)}"
    return (
        f"SELECT {key}, h.{pk}, "
        f"(SELECT jsonb_object_agg(c.key, c.value #>> '{{}}') FROM jsonb_each(to_jsonb(h)) c)::text "
        f"FROM {q(history._meta.db_table)} h WHERE {where}"
    )


@cache  # the tracked models are fixed once the apps are loaded; every append reads them
def _histories() -> dict[str, type[Model]]:
    from .evidence import tracked_models

    return {model._meta.label: history for model, history in tracked_models()}


def transaction_digests(names: dict[str, list[int]], using: str = DEFAULT_DB_ALIAS) -> dict[str, dict[str, str]] | None:
    """{label: {history id: digest}} of the history rows of the objects ``names`` that the current
    transaction wrote; None where the database keeps no transaction stamp (format 2)."""
    connection = connections[using]
    if connection.vendor != "postgresql":
        return None
    if not names:  # an act that wrote no object: nothing to read
        return {}
    histories, labels, selects = _histories(), [], []
    q = connection.ops.quote_name
    for label, pks in names.items():
        history = histories.get(label)
        if history is None or not pks:
            continue
        object_pk = q(history._meta.get_field(_object_pk(history)).column)
        where = f"h.{object_pk} = ANY(%s) AND h.{q(TXID_COLUMN)} = txid_current()"
        selects.append((_columns_sql(history, where, using, key=str(len(labels))), list(pks)))
        labels.append(label)
    if not selects:
        return {}
    # One round trip for all the tables: the first column says which label a row is of.
    rows: dict[int, dict[str, str]] = {}
    with connection.cursor() as cursor:
        cursor.execute(" UNION ALL ".join(sql for sql, _pks in selects), [pks for _sql, pks in selects])
        for index, hid, columns in cursor.fetchall():
            rows.setdefault(index, {})[str(hid)] = row_digest(columns)
    return {
        labels[index]: dict(sorted(rows[index].items(), key=lambda item: int(item[0])))
        for index in range(len(labels))
        if index in rows
    }


def _object_pk(history: type[Model]) -> str:
    return history.instance_type._meta.pk.attname


def stored_digests(label: str, hids: Iterable[int], using: str = DEFAULT_DB_ALIAS) -> dict[int, tuple[object, str]]:
    """{history id: (object pk, digest of the row as stored now)} of the rows ``hids`` of
    ``label``'s history table (those that still exist)."""
    history = _histories()[label]
    q = connections[using].ops.quote_name
    sql = _columns_sql(history, f"h.{q(history._meta.pk.column)} = ANY(%s)", using)
    with connections[using].cursor() as cursor:
        cursor.execute(sql, [list(hids)])
        return {hid: (pk, row_digest(columns)) for pk, hid, columns in cursor.fetchall()}


def sealed_digests(using: str = DEFAULT_DB_ALIAS, since: int = 0) -> Iterator[tuple[str, int, str, dict]]:
    """(register number, seq, label, {history id: digest}) of every entry of format 3 (of
    transaction ``since`` and later), streamed."""
    from .models import Entry, Register

    connection = connections[using]
    q = connection.ops.quote_name
    since_sql = f" AND e.{q(TXID_COLUMN)} >= {int(since)}" if since else ""
    with connection.chunked_cursor() as cursor:
        cursor.execute(
            f"SELECT r.number, e.seq, e.digests::text FROM {q(Entry._meta.db_table)} e "
            f"JOIN {q(Register._meta.db_table)} r ON r.id = e.register_id "
            f"WHERE e.digests IS NOT NULL AND e.digests <> '{{}}'::jsonb{since_sql} ORDER BY e.id"
        )
        while batch := cursor.fetchmany(BATCH):
            for number, seq, text in batch:
                for label, rows in orjson.loads(text).items():
                    yield number, seq, label, rows
