"""Checks of the append-only rows themselves, beyond the chain (PostgreSQL; docs/ledger-format.md
§10): rows inserted with the triggers switched off, entries slipped into another transaction's
run, an entry's author account that is not the author its hash seals, and history rows whose
transaction's entries were written at another time."""

from collections.abc import Iterator

from django.apps import apps
from django.contrib.auth import get_user_model
from django.db import DEFAULT_DB_ALIAS, connections
from django.utils.translation import gettext_lazy as _

from ledgers.core.db import TXID_COLUMN, append_only_tables

from .evidence import EXEMPT, ObjectFinding, since_clause, tracked_models
from .models import SYSTEM_ACTOR, SYSTEM_ROLE, Entry
from .verification import Finding

# A history row and the entries of its transaction are written within one transaction: their
# clocks cannot be further apart than the longest transaction (bulk imports included).
TRANSACTION_WINDOW = "1 hour"


def _q(name: str) -> str:
    return connections[DEFAULT_DB_ALIAS].ops.quote_name(name)


def _one(using: str, sql: str, params: list | None = None) -> tuple | None:
    with connections[using].cursor() as cursor:
        cursor.execute(sql, params or [])
        return cursor.fetchone()


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


def _entries(since: int) -> str:
    """``WITH e AS (…)``: the entries the row checks read, as ``e``. With ``since``, those of that
    transaction and later, materialized first: read through the transaction index, rather than by
    walking the whole table in the order a check sorts its findings in."""
    table = _q(Entry._meta.db_table)
    if since:
        return f"WITH e AS MATERIALIZED (SELECT * FROM {table} WHERE {_q(TXID_COLUMN)} >= {int(since)}) "
    return f"WITH e AS (SELECT * FROM {table}) "


def check_entry_runs(using: str = DEFAULT_DB_ALIAS, since: int = 0) -> Finding | None:
    """A transaction holds the register's lock from its first append to its commit, so the entries
    it writes in one register are consecutive: an entry stamped with the id of a transaction
    whose other entries of that register are not next to it was not written by it."""
    row = _one(
        using,
        f"{_entries(since)}SELECT register_id, max(seq) FROM e WHERE {_q(TXID_COLUMN)} <> 0 "
        f"GROUP BY register_id, {_q(TXID_COLUMN)} HAVING max(seq) - min(seq) + 1 <> count(*) "
        "ORDER BY 1, 2 LIMIT 1",
    )
    return row and _entry_finding(
        using, "foreign_txid", _("entrée marquée d'une transaction dont les autres entrées ne la précèdent pas"), *row
    )


def check_entry_actors(using: str = DEFAULT_DB_ALIAS, since: int = 0) -> Finding | None:
    """The author account kept beside an entry (used by maker ≠ checker) is the login its hash
    seals; an entry without an account is the system's, and the system's marker has no account.
    One pass over the entries: the first entry (by register and seq) whose account is not its
    author, else the first whose account and system marker disagree."""
    user = get_user_model()
    username = _q(user._meta.get_field(user.USERNAME_FIELD).column)
    row = _one(
        using,
        f"{_entries(since)}SELECT register_id, seq, not_author FROM (SELECT e.register_id, e.seq, "
        f"e.actor_user_id IS NOT NULL AND u.{username} IS DISTINCT FROM e.actor AS not_author, "
        "(e.actor_user_id IS NULL) <> (e.actor = %s AND e.role = %s) AS unmarked "
        f"FROM e LEFT JOIN {_q(user._meta.db_table)} u ON u.{_q(user._meta.pk.column)} = e.actor_user_id) a "
        "WHERE not_author OR unmarked ORDER BY not_author DESC, 1, 2 LIMIT 1",
        [SYSTEM_ACTOR, SYSTEM_ROLE],
    )
    if row is None:
        return None
    register_id, seq, not_author = row
    reason = (
        _("le compte de l'auteur n'est pas l'auteur scellé par l'empreinte")
        if not_author
        else _("entrée sans compte d'auteur qui n'est pas signée par le système")
    )
    return _entry_finding(using, "actor_user", reason, register_id, seq)


def check_history_times(using: str = DEFAULT_DB_ALIAS, since: int = 0) -> ObjectFinding | None:
    """A history row's time lies within its transaction's entries' times (a history row forged
    later with an earlier transaction's id does not). One pass over the entries, one join."""
    by_table, branches = {}, []
    for model, history in tracked_models():
        if model._meta.label not in EXEMPT:
            by_table[history._meta.db_table] = model
            branches.append(
                f"SELECT '{history._meta.db_table}' AS tbl, history_id AS hid, "
                f"{_q(model._meta.pk.column)}::text AS pk, {_q(TXID_COLUMN)} AS txid, history_date "
                f"FROM {_q(history._meta.db_table)} WHERE TRUE{since_clause(since)}"
            )
    if not branches:
        return None
    row = _one(
        using,
        f"WITH t AS MATERIALIZED (SELECT {_q(TXID_COLUMN)} AS txid, min(recorded_at) AS lo, max(recorded_at) AS hi "
        f"FROM {_q(Entry._meta.db_table)} WHERE {_q(TXID_COLUMN)} <> 0{since_clause(since)} GROUP BY 1), "
        f"h AS ({' UNION ALL '.join(branches)}), "
        # Materialized, so that the join is planned for all its rows (one hash join) rather than
        # for the first one the LIMIT asks for: that plan scans the transactions once per history
        # row when, as it should, none is out of its window.
        "bad AS MATERIALIZED (SELECT h.tbl, h.hid, h.pk FROM h JOIN t ON t.txid = h.txid "
        f"WHERE h.history_date NOT BETWEEN t.lo - interval '{TRANSACTION_WINDOW}' "
        f"AND t.hi + interval '{TRANSACTION_WINDOW}') "
        "SELECT tbl, hid, pk FROM bad ORDER BY 1, 2 LIMIT 1",
    )
    if row is None:
        return None
    model = by_table[row[0]]
    return ObjectFinding(
        model._meta.label,
        model._meta.pk.to_python(row[2]),
        "history_time",
        str(_("historique n° %(hid)s daté hors du temps des entrées de sa transaction") % {"hid": row[1]}),
    )


def verify_rows(using: str = DEFAULT_DB_ALIAS, since: int = 0) -> Iterator[tuple[str, Finding | ObjectFinding | None]]:
    """(name, first problem or None) of each row check on the database ``using``; nothing on
    SQLite (no transaction ids). Must run inside a transaction (``snapshot()``). With ``since``,
    the entries and history rows of that transaction and later; unstamped rows are looked for
    everywhere (an index finds them on the entries)."""
    if connections[using].vendor != "postgresql":
        return
    problems = [finding for _, finding in check_unstamped(using) if finding]
    yield "stamps", problems[0] if problems else None
    yield "entry transactions", check_entry_runs(using, since)
    yield "entry authors", check_entry_actors(using, since)
    yield "history times", check_history_times(using, since)
