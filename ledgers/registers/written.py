"""The objects a transaction has written, named by the next register entry it appends
(docs/ledger-format.md §2 and §10).

Every history row django-simple-history writes through ``save()`` is noted here as (model label,
pk), in a buffer that belongs to the connection's current transaction; ``entry_append`` and the
other appends take the buffer into the entry's hashed ``objects`` and empty it, so each entry
names the objects its act wrote before it. Verification then holds every history row to an entry
of its own transaction that names its object: a history row forged with a real entry's
transaction id, for another object, is named.

An object saved after the last entry of its transaction is named by none, so the services save
their objects before they append their entry. One that keeps its entry's number takes it from
``entry_seq_next`` before the entry exists; one that keeps the entry's row is inserted after it,
with the key ``reserve_written`` reserved and noted for the entry to name. An entry names its
objects for the whole transaction: an object it names may be saved again after it (given the
entry's number, say).

History rows written in bulk (``bulk_history_create``) send no signal: their service notes
them with ``note_written``. A bulk write that read back, in its own statement, the history rows
of its objects that the transaction holds (``digests.update_with_history``) notes them with their
digests (``note_digested``): the next entry, if it names those objects alone, seals them without
reading them again (format 3).

The buffer follows the transaction without a query: it is tied to a callback registered with
``transaction.on_commit``, which Django discards on rollback (and on the rollback of the savepoint
it was registered in) and runs on commit; a buffer whose callback is gone belongs to a finished
transaction and starts again empty.
"""

from collections.abc import Iterable

from django.db import DEFAULT_DB_ALIAS, connections, transaction
from django.db.models import Model
from simple_history.signals import post_create_historical_record

ATTRIBUTE = "_ledgers_written"


class _Buffer:
    def __init__(self) -> None:
        self.names: dict[str, set[int]] = {}
        # {label: (pks, {history id: digest}, the savepoint marker)}: every history row of those
        # objects that the transaction held when they were read (``note_digested``).
        self.digested: dict[str, tuple[frozenset[int], dict[str, str], _Marker]] = {}

    def __call__(self) -> None:  # on commit: the transaction is over
        self.names.clear()
        self.digested.clear()


class _Marker:
    """An on-commit callback that does nothing: Django drops it with the savepoint (or
    transaction) it was registered in when that rolls back, so its presence says that what was
    done with it still stands."""

    def __call__(self) -> None:
        pass


def _standing(connection, marker: object, *, recent: bool = False) -> bool:
    """Is ``marker`` still among the transaction's on-commit callbacks (looked for from the last
    registered when it is ``recent``)?"""
    callbacks = reversed(connection.run_on_commit) if recent else connection.run_on_commit
    return any(callback is marker for _sids, callback, _robust in callbacks)


def _buffer(using: str) -> _Buffer | None:
    """The current transaction's buffer; None outside a transaction (autocommit: the row is its
    own transaction, which no entry can join)."""
    connection = connections[using]
    if not connection.in_atomic_block:
        return None
    buffer = getattr(connection, ATTRIBUTE, None)
    if buffer is None or not _standing(connection, buffer):
        buffer = _Buffer()
        setattr(connection, ATTRIBUTE, buffer)
        transaction.on_commit(buffer, using=using)
    return buffer


def note_written(model: type[Model], pks: Iterable[int], using: str = DEFAULT_DB_ALIAS) -> None:
    """Note objects of ``model`` whose history rows this transaction wrote, or writes after the
    next entry for that entry's act (existing objects that take a reference to it)."""
    buffer = _buffer(using)
    if buffer is not None:
        label = model._meta.label
        buffer.names.setdefault(label, set()).update(pks)
        buffer.digested.pop(label, None)  # a row written since they were read: read them again


def note_digested(
    model: type[Model], pks: Iterable[int], digests: dict[str, str], using: str = DEFAULT_DB_ALIAS
) -> None:
    """Note objects as ``note_written`` does, with the digests of every history row of theirs that
    the transaction holds now ({history id: digest}, read in the statement that wrote the last of
    them). They stand until a row of ``model`` is noted again, or the savepoint they were noted in
    rolls back."""
    pks = frozenset(pks)
    note_written(model, pks, using)
    buffer = _buffer(using)
    if buffer is not None:
        marker = _Marker()
        transaction.on_commit(marker, using=using)
        buffer.digested[model._meta.label] = (pks, digests, marker)


def digested(names: dict[str, list[int]], using: str = DEFAULT_DB_ALIAS) -> dict[str, dict[str, str]]:
    """{label: {history id: digest}} of the labels of ``names`` whose objects were noted with
    their digests (``note_digested``), exactly those objects, and stand: what an entry naming
    them seals without reading the rows."""
    connection = connections[using]
    buffer = getattr(connection, ATTRIBUTE, None)
    if not connection.in_atomic_block or buffer is None or not _standing(connection, buffer):
        return {}
    known = {}
    for label, pks in names.items():
        noted, digests, marker = buffer.digested.get(label, (frozenset(), {}, None))
        if noted and noted == frozenset(pks) and _standing(connection, marker, recent=True):
            known[label] = digests
    return known


def reserve_written(model: type[Model], using: str = DEFAULT_DB_ALIAS) -> int:
    """The primary key of a ``model`` row that this transaction inserts after its next entry (a
    row that keeps that entry), reserved and noted so that the entry names it. PostgreSQL takes it
    from the table's sequence, which never gives it twice; SQLite, the demonstration database,
    serialises its writers, so the key after the largest stays free until the commit."""
    connection = connections[using]
    table, column = model._meta.db_table, model._meta.pk.column
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SELECT nextval(pg_get_serial_sequence(%s, %s))", [table, column])
        else:
            q = connection.ops.quote_name
            cursor.execute(f"SELECT COALESCE(MAX({q(column)}), 0) + 1 FROM {q(table)}")
        (key,) = cursor.fetchone()
    note_written(model, [key], using)
    return key


def take_written(using: str = DEFAULT_DB_ALIAS) -> dict[str, list[int]]:
    """The objects noted since the transaction's previous entry, {model label: sorted pks}, and
    the buffer emptied for the next entry."""
    buffer = _buffer(using)
    if buffer is None:
        return {}
    names = {label: sorted(pks) for label, pks in sorted(buffer.names.items())}
    buffer.names.clear()
    return names


def give_back_written(names: dict[str, list[int]], using: str = DEFAULT_DB_ALIAS) -> None:
    """Put back what ``take_written`` took, when no entry was written after all."""
    buffer = _buffer(using)
    if buffer is not None:
        for label, pks in names.items():
            buffer.names.setdefault(label, set()).update(pks)


def _noted(sender, instance, history_instance, using=None, **kwargs) -> None:
    note_written(history_instance.instance_type, [instance.pk], using or DEFAULT_DB_ALIAS)


def connect() -> None:
    post_create_historical_record.connect(_noted, dispatch_uid="ledgers.registers.written")
