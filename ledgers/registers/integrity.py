"""Checks of the append-only rows themselves, beyond the chain (PostgreSQL; docs/ledger-format.md
§10): rows inserted with the triggers switched off, entries slipped into another transaction's
run, an entry's author account that is not the author its hash seals, and history rows whose
transaction's entries were written at another time: the last three, with the transaction check,
from one read of the entries (``evidence.scan_entries``)."""

from collections.abc import Iterator

from django.apps import apps
from django.db import DEFAULT_DB_ALIAS, connections
from django.utils.translation import gettext_lazy as _

from ledgers.core.db import TXID_COLUMN, append_only_tables

from .evidence import EntryScan, ObjectFinding, scan_entries
from .models import Entry
from .verification import Finding


def _q(name: str) -> str:
    return connections[DEFAULT_DB_ALIAS].ops.quote_name(name)


def _entry_finding(using: str, code: str, reason, register_id: int, seq: int) -> Finding:
    number = (
        Entry.objects.using(using)
        .filter(register_id=register_id, seq=seq)
        .values_list("register__number", flat=True)
        .first()
    )
    return Finding(number or f"#{register_id}", seq, code, str(reason))


def check_unstamped(using: str = DEFAULT_DB_ALIAS) -> Iterator[tuple[str, Finding | ObjectFinding | None]]:
    """Every append-only row carries the id of the transaction that inserted it: NULL means it went
    in with the triggers off (a forged entry, history row, checkpoint or tree head). One query for
    every table, each looked up by its transaction-id index."""
    models = {model._meta.db_table: model for model in apps.get_models()}
    entries = Entry._meta.db_table
    tables = [table for table in append_only_tables(connections[using]) if table in models]
    if not tables:
        return
    txid = _q(TXID_COLUMN)
    # The entries' first unstamped one by (register, seq), the others' by primary key (as text: the
    # tables' keys differ in type).
    branches = []
    for table in tables:
        pk = _q(models[table]._meta.pk.column)
        key = ("register_id", "seq", pk) if table == entries else (pk, "NULL", pk)
        branches.append(
            f"(SELECT %s, {key[0]}::text, {key[1]}::bigint FROM {_q(table)} WHERE {txid} IS NULL "
            f"ORDER BY {key[2]} LIMIT 1)"
        )
    with connections[using].cursor() as cursor:
        cursor.execute(" UNION ALL ".join(branches), tables)
        found = {table: (first, seq) for table, first, seq in cursor.fetchall()}
    for table in tables:
        model = models[table]
        if table not in found:
            yield model._meta.label, None
        elif table == entries:
            reason = _("entrée écrite les déclencheurs désactivés")
            register_id, seq = found[table]
            yield model._meta.label, _entry_finding(using, "unstamped", reason, int(register_id), seq)
        else:
            reason = str(_("ligne écrite les déclencheurs désactivés"))
            pk = model._meta.pk.to_python(found[table][0])
            yield model._meta.label, ObjectFinding(model._meta.label, pk, "unstamped", reason)


def check_entry_runs(using: str = DEFAULT_DB_ALIAS, since: int = 0, scanned: EntryScan | None = None) -> Finding | None:
    """A transaction holds the register's lock from its first append to its commit, so the entries
    it writes in one register are consecutive: an entry stamped with the id of a transaction
    whose other entries of that register are not next to it was not written by it (``scanned``:
    ``scan_entries`` of the same ``since``, read now when not given)."""
    scanned = scanned or scan_entries(using, since)
    run = scanned and scanned.run
    return run and _entry_finding(
        using, "foreign_txid", _("entrée marquée d'une transaction dont les autres entrées ne la précèdent pas"), *run
    )


def check_entry_actors(
    using: str = DEFAULT_DB_ALIAS, since: int = 0, scanned: EntryScan | None = None
) -> Finding | None:
    """The author account kept beside an entry (used by maker ≠ checker) is the login its hash
    seals; an entry without an account is the system's, and the system's marker has no account:
    the first entry (by register and seq) whose account is not its author, else the first whose
    account and system marker disagree (``scanned``: see ``check_entry_runs``)."""
    scanned = scanned or scan_entries(using, since)
    if scanned is None or scanned.actor is None:
        return None
    register_id, seq, not_author = scanned.actor
    reason = (
        _("le compte de l'auteur n'est pas l'auteur scellé par l'empreinte")
        if not_author
        else _("entrée sans compte d'auteur qui n'est pas signée par le système")
    )
    return _entry_finding(using, "actor_user", reason, register_id, seq)


def check_history_times(
    using: str = DEFAULT_DB_ALIAS, since: int = 0, scanned: EntryScan | None = None
) -> ObjectFinding | None:
    """A history row's time lies within its transaction's entries' times (a history row forged
    later with an earlier transaction's id does not); ``scanned``: see ``check_entry_runs``."""
    scanned = scanned or scan_entries(using, since)
    return scanned and scanned.history_time


def verify_rows(
    using: str = DEFAULT_DB_ALIAS, since: int = 0, scanned: EntryScan | None = None
) -> Iterator[tuple[str, Finding | ObjectFinding | None]]:
    """(name, first problem or None) of each row check on the database ``using``; nothing on
    SQLite (no transaction ids). Must run inside a transaction (``snapshot()``). With ``since``,
    the entries and history rows of that transaction and later; unstamped rows are looked for
    everywhere (an index finds them on the entries). ``scanned``: ``scan_entries`` of the same
    ``since`` (the transaction check's too), read here when not given."""
    if connections[using].vendor != "postgresql":
        return
    problems = [finding for _, finding in check_unstamped(using) if finding]
    yield "stamps", problems[0] if problems else None
    scanned = scanned or scan_entries(using, since)
    yield "entry transactions", check_entry_runs(using, since, scanned)
    yield "entry authors", check_entry_actors(using, since, scanned)
    yield "history times", check_history_times(using, since, scanned)
