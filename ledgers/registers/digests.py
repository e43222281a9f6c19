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

An entry reads those rows when it is appended, unless the statement that wrote them returned
them (``update_with_history``).
"""

import hashlib
from collections.abc import Iterable, Iterator, Sequence
from functools import cache
from typing import Any

import orjson
from django.contrib.auth.models import AbstractBaseUser
from django.db import DEFAULT_DB_ALIAS, connections, transaction
from django.db.models import Model
from django.db.models.sql import UpdateQuery
from django.utils import timezone

from ledgers.core.db import TXID_COLUMN

from .chain import canonical_json
from .written import digested, note_digested, note_written

BATCH = 2000


def row_digest(columns: dict[str, str | None]) -> str:
    return hashlib.sha256(canonical_json(columns)).hexdigest()


# Types whose text is that of their JSON value (``to_jsonb(x) #>> '{}'`` is ``x::text``): read as
# text, which spares the server the JSON of every column; the others (dates and times, JSON) go
# through it.
PLAIN_TYPES = frozenset({"bigint", "integer", "smallint", "numeric", "boolean", "text", "character varying"})


@cache  # a table's columns change only with a migration, which every process is restarted after
def _table_columns(table: str, using: str) -> tuple[tuple[str, str], ...]:
    """(name, type) of every column of ``table`` (the transaction stamp included), in order."""
    with connections[using].cursor() as cursor:
        cursor.execute(
            "SELECT attname, atttypid::regtype::text FROM pg_attribute WHERE attrelid = %s::regclass "
            "AND attnum > 0 AND NOT attisdropped ORDER BY attnum",
            [connections[using].ops.quote_name(table)],
        )
        return tuple(cursor.fetchall())


def _columns(history: type[Model], using: str) -> str:
    """(object pk, history id, then each column's value as JSON text gives it, in the order of
    ``_table_columns``) of the row ``h`` of ``history``: ``_row_digest`` of them is its digest."""
    q = connections[using].ops.quote_name
    pk, object_pk = q(history._meta.pk.column), q(history._meta.get_field(_object_pk(history)).column)
    values = (
        f"h.{q(name)}::text" if kind in PLAIN_TYPES else f"to_jsonb(h.{q(name)}) #>> '{{}}'"
        for name, kind in _table_columns(history._meta.db_table, using)
    )
    return f"h.{object_pk}, h.{pk}, {', '.join(values)}"


def _row_digest(history: type[Model], using: str, values: Sequence[str | None]) -> str:
    """The digest of the row whose ``_columns`` values (after its object pk and id) are ``values``."""
    names = (name for name, _kind in _table_columns(history._meta.db_table, using))
    return row_digest(dict(zip(names, values, strict=True)))


def _columns_sql(history: type[Model], where: str, using: str) -> str:
    """``_columns`` of the rows of ``history`` that ``where`` keeps."""
    table = connections[using].ops.quote_name(history._meta.db_table)
    return f"SELECT {_columns(history, using)} FROM {table} h WHERE {where}"


def _this_transaction(history: type[Model], using: str) -> str:
    """``_columns_sql`` of the rows of the objects ``%s`` (an array) that this transaction wrote."""
    q = connections[using].ops.quote_name
    object_pk = q(history._meta.get_field(_object_pk(history)).column)
    return _columns_sql(history, f"h.{object_pk} = ANY(%s) AND h.{q(TXID_COLUMN)} = txid_current()", using)


@cache  # the tracked models are fixed once the apps are loaded; every append reads them
def _histories() -> dict[str, type[Model]]:
    from .evidence import tracked_models

    return {model._meta.label: history for model, history in tracked_models()}


def transaction_digests(names: dict[str, list[int]], using: str = DEFAULT_DB_ALIAS) -> dict[str, dict[str, str]] | None:
    """{label: {history id: digest}} of the history rows of the objects ``names`` that the current
    transaction wrote; None where the database keeps no transaction stamp (format 2). The rows
    that ``update_with_history`` read with its write are not read again."""
    connection = connections[using]
    if connection.vendor != "postgresql":
        return None
    if not names:  # an act that wrote no object: nothing to read
        return {}
    histories, known, digests = _histories(), digested(names, using), {}
    with connection.cursor() as cursor:
        for label, pks in names.items():
            history = histories.get(label)
            if history is None or not pks:
                continue
            if label in known:
                rows = known[label]
            else:
                cursor.execute(_this_transaction(history, using), [list(pks)])
                rows = _digests(history, using, cursor.fetchall())
            if rows:
                digests[label] = rows
    return digests


def _digests(history: type[Model], using: str, rows: Iterable[tuple]) -> dict[str, str]:
    """{history id: digest} of ``_columns`` rows of ``history``, in the order of their ids."""
    return {str(row[1]): _row_digest(history, using, row[2:]) for row in sorted(rows, key=lambda row: row[1])}


def update_with_history(
    objs: Sequence[Model],
    changes: dict[str, Any],
    *,
    user: AbstractBaseUser,
    reason: str,
    using: str = DEFAULT_DB_ALIAS,
) -> None:
    """UPDATE the rows of ``objs`` (instances of one tracked model, their fields already set) with
    ``changes`` ({attname: value or expression}) and write their history rows, as
    ``bulk_history_create`` writes them for an update (``~``, one ``history_date``, attributed to
    ``user`` with ``reason``, in the order of ``objs``), noted for the transaction's next entry.

    PostgreSQL: one statement. Its history rows take the columns the UPDATE returns, which are
    those of ``objs``; it returns them as ``_columns`` reads them, with the rows of those objects
    that the transaction wrote before (which the statement's own INSERT does not see), so the
    next entry seals their digests without reading them (``note_digested``). Elsewhere: the
    UPDATE, then the history rows in one INSERT."""
    model = type(objs[0])
    pks = [obj.pk for obj in objs]
    now = timezone.now()
    connection = connections[using]
    if connection.vendor != "postgresql":
        with transaction.atomic(using=using, savepoint=False):
            model._default_manager.using(using).filter(pk__in=pks).update(**changes)
            getattr(model, model._meta.simple_history_manager_attribute).bulk_history_create(
                objs, update=True, default_user=user, default_change_reason=reason, default_date=now
            )
        note_written(model, pks, using)
        return
    history = _histories()[model._meta.label]
    q = connection.ops.quote_name
    update = UpdateQuery(model)
    update.add_update_values(changes)
    update.add_filter("pk__in", pks)
    update_sql, update_params = update.get_compiler(using).as_sql()
    sources = [q(field.column) for field in history.tracked_fields]
    targets = [q(history._meta.get_field(field.attname).column) for field in history.tracked_fields] + [
        q(history._meta.get_field(name).column)
        for name in ("history_date", "history_change_reason", "history_type", "history_user")
    ]
    sql = (
        f"WITH moved AS ({update_sql} RETURNING {', '.join(sources)}), "
        f"written AS (INSERT INTO {q(history._meta.db_table)} AS h ({', '.join(targets)}) "
        f"SELECT {', '.join(f'moved.{column}' for column in sources)}, %s, %s, '~', %s FROM moved "
        f"ORDER BY array_position(%s, moved.{q(model._meta.pk.column)}) RETURNING {_columns(history, using)}) "
        f"SELECT * FROM written UNION ALL {_this_transaction(history, using)}"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [*update_params, now, reason, user.pk, pks, pks])
        rows = cursor.fetchall()
    note_digested(model, pks, _digests(history, using, rows), using)


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
        return {row[1]: (row[0], _row_digest(history, using, row[2:])) for row in cursor.fetchall()}


# {model label: {history id: {digest: (register number, seq)}}}: the digests entries sealed, each
# distinct one of a row with the last entry that sealed it.
Sealed = dict[str, dict[int, dict[str, tuple[str, int]]]]


def note_sealed(sealed: Sealed, number: str, seq: int, digests: dict[str, dict[str, str]]) -> None:
    """Add to ``sealed`` the ``digests`` of the entry ``number`` n° ``seq``."""
    for label, rows in digests.items():
        by_hid = sealed.setdefault(label, {})
        for hid, digest in rows.items():
            by_hid.setdefault(int(hid), {})[digest] = (number, seq)


def merge_sealed(sealed: Sealed, more: Sealed, pks: dict[str, int]) -> None:
    """Add ``more`` to ``sealed`` (gathered by walks of other registers, ``pks``: each register's id by
    its number) as one walk in the order of the registers' ids would have noted both: of the
    entries that sealed the same digest, the last one."""
    for label, rows in more.items():
        by_hid = sealed.setdefault(label, {})
        for hid, digests in rows.items():
            mine = by_hid.setdefault(hid, {})
            for digest, (number, seq) in digests.items():
                if digest not in mine or (pks[mine[digest][0]], mine[digest][1]) < (pks[number], seq):
                    mine[digest] = (number, seq)


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
