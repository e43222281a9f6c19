"""The objects a transaction has written, named by the next register entry it appends
(docs/ledger-format.md §2 and §10).

Every history row django-simple-history writes through ``save()`` is noted here as (model label,
pk), in a buffer that belongs to the connection's current transaction; ``entry_append`` and the
other appends take the buffer into the entry's hashed ``objects`` and empty it, so each entry
names the objects its act wrote before it. Verification then holds every history row to an entry
of its own transaction that names its object: a history row forged with a real entry's
transaction id, for another object, is named.

History rows written in bulk (``bulk_update_with_history``) send no signal: their service notes
them with ``note_written``.

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

    def __call__(self) -> None:  # on commit: the transaction is over
        self.names.clear()


def _buffer(using: str) -> _Buffer | None:
    """The current transaction's buffer; None outside a transaction (autocommit: the row is its
    own transaction, which no entry can join)."""
    connection = connections[using]
    if not connection.in_atomic_block:
        return None
    buffer = getattr(connection, ATTRIBUTE, None)
    if buffer is None or not any(callback is buffer for _sids, callback, _robust in connection.run_on_commit):
        buffer = _Buffer()
        setattr(connection, ATTRIBUTE, buffer)
        transaction.on_commit(buffer, using=using)
    return buffer


def note_written(model: type[Model], pks: Iterable[int], using: str = DEFAULT_DB_ALIAS) -> None:
    """Note objects of ``model`` whose history rows this transaction wrote."""
    buffer = _buffer(using)
    if buffer is not None:
        buffer.names.setdefault(model._meta.label, set()).update(pks)


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
