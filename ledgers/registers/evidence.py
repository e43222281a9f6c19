"""Evidence beyond the chain: the objects the registers speak about, held to their history and
their history held to the entries (docs/ledger-format.md §10).

The application's database role may UPDATE, INSERT and DELETE the rows of the domain tables (a
card unit's status, a die's location…): the services do so, writing a history row and a register
entry in the same transaction. A change made behind the services leaves the object's row unlike
its latest history row (``state``), and a history row forged to match leaves a row that no entry
shares a transaction with (``transaction``), or, copying a real entry's transaction id, a row
whose object no entry of that transaction names in its hashed ``written`` (``unnamed``). The
state check streams each table once; the transaction check reads the entries once, with the
other checks that read them (``scan_entries``).
"""

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.apps import apps
from django.contrib.auth import get_user_model
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import Max, Model, Subquery
from django.utils.translation import gettext_lazy as _

from ledgers.core.db import TXID_COLUMN

from .models import SYSTEM_ACTOR, SYSTEM_ROLE, Entry

if TYPE_CHECKING:
    from .digests import Sealed

# Changes that are not regulated acts, so no entry accompanies them, with the reason. One list
# for both checks: a model named here is skipped by the transaction check; with fields, only
# those fields are skipped by the state check.
EXEMPT: dict[str, tuple[str, tuple[str, ...]]] = {
    "authority.SeasonArchive": (
        "the archive of a closed period: a job that reads the registers (its request, status and file) "
        "and writes nothing in them, as a report does",
        (),
    ),
    "reports.ReportJob": (
        "a rendering job: operational state; its progress and heartbeat, the count and time of the "
        "messages sent to the broker and the notice that the broker was unreachable are written without "
        "history",
        ("progress", "heartbeat_at", "attempts", "sent_at", "notice"),
    ),
}

# Models whose creation precedes any entry that could name it, with the reason: their first
# history row, the creation, is skipped by the transaction check; every later change is held to
# the entry of its act, as any other model's.
CREATION_EXEMPT: dict[str, str] = {
    "core.Establishment": (
        "its creation is the organisation's set-up, before any of its registers exists; its settings "
        "change later only through the services, each written in a register"
    ),
    "registers.Register": (
        "a volume is created awaiting the authority's cote et paraphe, and its first entry is that "
        "opening act (seq 1, by the paraphing authority, not by the directorate that creates it): the "
        "creation cannot be an entry of the volume without breaking that rule, and no other register "
        "holds it for the first volume of a kind; the opening and the closing save the volume before "
        "their entries, which name it"
    ),
}

CHUNK = 2000


@dataclass(frozen=True)
class ObjectFinding:
    """The first problem of a tracked model: which object (pk), which field or history row, what."""

    model: str
    pk: object
    code: str
    reason: str
    field: str = ""
    history_id: int | None = None

    def __str__(self) -> str:
        where = f" {self.field}" if self.field else ""
        return f"{self.model} #{self.pk}{where} : {self.reason}"


def tracked_models() -> list[tuple[type[Model], type[Model]]]:
    """(model, its history model) for every model that django-simple-history tracks."""
    pairs = []
    for model in apps.get_models():
        manager = getattr(model._meta, "simple_history_manager_attribute", None)
        if manager:
            pairs.append((model, getattr(model, manager).model))
    return sorted(pairs, key=lambda pair: pair[0]._meta.label)


def _compared_fields(model: type[Model], history: type[Model]) -> list[str]:
    """The columns the history keeps (excluded fields such as a register's head are not kept),
    pk first; minus the exempt ones."""
    kept = {f.attname for f in history._meta.concrete_fields}
    exempt = EXEMPT.get(model._meta.label, ("", ()))[1]
    pk = model._meta.pk.attname
    return [
        pk,
        *(
            f.attname
            for f in model._meta.concrete_fields
            if f.attname in kept and f.attname != pk and f.attname not in exempt
        ),
    ]


def check_state(
    model: type[Model], history: type[Model], using: str = DEFAULT_DB_ALIAS, pks: set | None = None
) -> ObjectFinding | None:
    """Each row of ``model`` equals its latest history row, and each object whose latest history
    row is not a deletion still exists: a merge of both, in pk order; of the objects ``pks`` only
    when given."""
    label, fields = model._meta.label, _compared_fields(model, history)
    names = {f.attname: f.name for f in model._meta.concrete_fields}
    pk = fields[0]
    objects, histories = model._base_manager.using(using), history.objects.using(using)
    if pks is not None:
        if not pks:
            return None
        objects, histories = objects.filter(**{f"{pk}__in": pks}), histories.filter(**{f"{pk}__in": pks})
    latest = histories.values(pk).annotate(last=Max("history_id")).values("last")
    rows = objects.order_by(pk).values_list(*fields).iterator(chunk_size=CHUNK)
    logged = (
        histories.filter(history_id__in=Subquery(latest))
        .order_by(pk)
        .values_list("history_type", *fields)
        .iterator(chunk_size=CHUNK)
    )
    for row, log in _merge(rows, logged):
        if log is None or log[0] == "-":
            return ObjectFinding(
                label,
                row[0],
                "no_history",
                str(
                    _("objet sans historique (écrit hors des services)")
                    if log is None
                    else _("objet présent mais supprimé selon son historique")
                ),
            )
        if row is None:
            return ObjectFinding(label, log[1], "deleted", str(_("objet supprimé sans historique de suppression")))
        for attname, now, then in zip(fields[1:], row[1:], log[2:], strict=True):
            if now != then:
                return ObjectFinding(
                    label,
                    row[0],
                    "state",
                    str(
                        _("l'état actuel diffère du dernier historique (« %(then)s » → « %(now)s »)")
                        % {"then": then, "now": now}
                    ),
                    field=names[attname],
                )
    return None


def _merge(rows: Iterator[tuple], logged: Iterator[tuple]) -> Iterator[tuple[tuple | None, tuple | None]]:
    """Pair current rows and latest history rows by pk (both in pk order); None on the side that
    lacks one. Deleted objects whose latest history is the deletion are skipped. Every tracked
    model has an integer primary key, so Python orders pks as the database does."""
    row, log = next(rows, None), next(logged, None)
    while row is not None or log is not None:
        if log is not None and (row is None or log[1] < row[0]):
            if log[0] != "-":
                yield None, log
            log = next(logged, None)
        elif row is not None and (log is None or row[0] < log[1]):
            yield row, None
            row = next(rows, None)
        else:
            yield row, log
            row, log = next(rows, None), next(logged, None)


# A history row and the entries of its transaction are written within one transaction: their
# clocks cannot be further apart than the longest transaction (bulk imports included).
TRANSACTION_WINDOW = "1 hour"


@dataclass(frozen=True)
class EntryScan:
    """What the checks that read the entries found, in one scan of them (``scan_entries``):
    ``transactions`` (``check_transactions``), ``history_time`` (the first history row dated
    outside its transaction's entries), ``run`` ((register id, seq) of the first entry stamped with
    a transaction whose other entries of its register are not next to it) and ``actor`` ((register
    id, seq, whether its account is another author's) of the first entry whose account is not its
    author)."""

    transactions: list[ObjectFinding]
    history_time: ObjectFinding | None
    run: tuple[int, int] | None
    actor: tuple[int, int, bool] | None


def scan_entries(using: str = DEFAULT_DB_ALIAS, since: int = 0, limit_per_model: int = 1) -> EntryScan | None:
    """The checks that hold the entries to each other and to the history rows, from one read of
    the entries (PostgreSQL: the ``ledgers_txid`` column of ledgers.core.db; None elsewhere). The
    entries are read once, grouped by register and transaction; each check reads those groups:

    - transactions: history rows of regulated models that share their transaction with no
      register entry, or whose object no entry of their transaction names (rows stamped 0 predate
      the stamp; NULL means inserted with the triggers off). Entries of format 2 name, in their
      hashed ``written``, the objects their transaction wrote before them; a transaction with an
      entry of format 1 (which names none) is held to the window check alone. The other way
      round, an object an entry names must still have its history row of that transaction: one
      deleted is reported (``deleted_history``). The models of ``CREATION_EXEMPT`` are held from
      their first change on (their creation row needs no entry, yet an entry that names it finds
      it). The first ``limit_per_model`` rows of each model by history id.
    - history times: a history row's time lies within its transaction's entries' times (a history
      row forged later with an earlier transaction's id does not); the first by model and id.
    - runs: a transaction holds the register's lock from its first append to its commit, so the
      entries it writes in one register are consecutive; the first break by register and seq.
    - authors: the author account kept beside an entry (used by maker ≠ checker) is the login its
      hash seals; an entry without an account is the system's, and the system's marker has no
      account. The first entry (by register and seq) whose account is not its author, else the
      first whose account and system marker disagree.

    With ``since``, the entries and history rows of that transaction and later (and every
    unstamped history row), read through the transaction-id indexes."""
    connection = connections[using]
    if connection.vendor != "postgresql":
        return None
    q = connection.ops.quote_name
    user = get_user_model()
    username = q(user._meta.get_field(user.USERNAME_FIELD).column)
    branches, by_table = [], {}
    for model, history in tracked_models():
        if model._meta.label in EXEMPT:
            continue
        by_table[history._meta.db_table] = model
        table, pk, hid = q(history._meta.db_table), q(model._meta.pk.attname), q("history_id")
        # Held to an entry: every history row, but the object's first one when it is the creation
        # of a model whose creation no entry can name (CREATION_EXEMPT).
        held = (
            f"NOT (h.history_type = '+' AND NOT EXISTS "
            f"(SELECT 1 FROM {table} f WHERE f.{pk} = h.{pk} AND f.{hid} < h.{hid}))"
            if model._meta.label in CREATION_EXEMPT
            else "TRUE"
        )
        branches.append(
            f"SELECT '{history._meta.db_table}' AS tbl, '{model._meta.label}' AS label, h.{hid} AS hid, "
            f"h.{pk}::text AS pk, h.{q(TXID_COLUMN)} AS txid, h.history_date AS at, {held} AS held FROM {table} h"
            + (f" WHERE h.{q(TXID_COLUMN)} IS NULL OR h.{q(TXID_COLUMN)} >= {int(since)}" if since else "")
        )
    entries, txid = q(Entry._meta.db_table), q(TXID_COLUMN)
    # One read of the entries, kept as what the checks need of each (``e``): grouped by register
    # and transaction for all but the objects named, which are expanded from it (an aggregate of
    # their JSON in the groups is planned at 8 kB a group, and spilled nearly every entry to disk
    # to hash the groups). Each NOT EXISTS
    # stands alone in its branch so the planner makes it one hash anti-join (inside an OR it
    # became a lookup per history row). The objects named are grouped by transaction and model:
    # the planner takes each JSON expansion for a hundred rows, so one row per object named was
    # planned as billions, hashed in tens of thousands of batches. The rows out of their window
    # are materialized so that their join is planned for all its rows (one hash join) rather
    # than for the first one the LIMIT asks for, which scans the transactions once per history
    # row when, as it should, none is out of its window.
    window = f"interval '{TRANSACTION_WINDOW}'"
    sql = (
        f"WITH e AS MATERIALIZED (SELECT e.register_id, e.{txid} AS txid, e.seq, e.recorded_at AS at, "
        "e.written IS NULL AS format1, CASE WHEN e.written <> '{}'::jsonb THEN e.written END AS written, "
        f"e.actor_user_id IS NOT NULL AND u.{username} IS DISTINCT FROM e.actor AS not_author, "
        "(e.actor_user_id IS NULL) <> (e.actor = %s AND e.role = %s) AS unmarked "
        f"FROM {entries} e LEFT JOIN {q(user._meta.db_table)} u ON u.{q(user._meta.pk.column)} = e.actor_user_id"
        f"{f' WHERE e.{txid} >= {int(since)}' if since else ''}), "
        "g AS MATERIALIZED (SELECT register_id, txid, count(*) AS n, min(seq) AS first, max(seq) AS last, "
        "min(at) AS lo, max(at) AS hi, bool_or(format1) AS format1, "
        "min(seq) FILTER (WHERE not_author) AS not_author, min(seq) FILTER (WHERE unmarked) AS unmarked "
        "FROM e GROUP BY 1, 2), "
        "tx AS MATERIALIZED (SELECT txid, bool_or(format1) AS format1, min(lo) AS lo, max(hi) AS hi "
        "FROM g WHERE txid <> 0 GROUP BY txid), "
        "named AS MATERIALIZED (SELECT e.txid, w.key AS label, array_agg(p.value::text) AS pks "
        "FROM e CROSS JOIN LATERAL jsonb_each(e.written) w CROSS JOIN LATERAL jsonb_array_elements(w.value) p "
        "WHERE e.written IS NOT NULL AND e.txid <> 0 GROUP BY 1, 2), "
        f"h AS MATERIALIZED ({' UNION ALL '.join(branches)}), "
        "bad AS (SELECT tbl, hid, pk, txid, 'unstamped' AS why FROM h WHERE txid IS NULL UNION ALL "
        "SELECT tbl, hid, pk, txid, 'no_entry' FROM h WHERE held AND txid <> 0 AND NOT EXISTS "
        "(SELECT 1 FROM tx WHERE tx.txid = h.txid) UNION ALL "
        "SELECT h.tbl, h.hid, h.pk, h.txid, 'unnamed' FROM h JOIN tx ON tx.txid = h.txid AND NOT tx.format1 "
        "WHERE h.held AND NOT EXISTS "
        "(SELECT 1 FROM named n WHERE n.txid = h.txid AND n.label = h.label AND h.pk = ANY(n.pks)) "
        "UNION ALL SELECT t.tbl, NULL, n.pk, n.txid, 'deleted_history' "
        "FROM (SELECT txid, label, unnest(pks) AS pk FROM named) n "
        f"JOIN (VALUES {', '.join(['(%s, %s)'] * len(by_table))}) AS t (tbl, label) ON t.label = n.label "
        "WHERE NOT EXISTS (SELECT 1 FROM h WHERE h.txid = n.txid AND h.label = n.label AND h.pk = n.pk)), "
        "ranked AS (SELECT tbl, hid, pk, txid, why, row_number() OVER (PARTITION BY tbl ORDER BY hid, txid) AS n "
        "FROM bad), "
        "late AS MATERIALIZED (SELECT h.tbl, h.hid, h.pk FROM h JOIN tx ON tx.txid = h.txid "
        f"WHERE h.at NOT BETWEEN tx.lo - {window} AND tx.hi + {window}) "
        # Every finding in one answer: what (its order), then the columns of each.
        "SELECT 0, tbl, hid, pk, txid, why FROM ranked WHERE n <= %s UNION ALL "
        "(SELECT 1, tbl, hid, pk, NULL, NULL FROM late ORDER BY 2, 3 LIMIT 1) UNION ALL "
        "(SELECT 2, NULL, register_id, NULL, last, NULL FROM g WHERE txid <> 0 AND last - first + 1 <> n "
        "ORDER BY 3, 5 LIMIT 1) UNION ALL "
        "(SELECT 3, NULL, register_id, NULL, coalesce(not_author, unmarked), (not_author IS NOT NULL)::text "
        "FROM g WHERE not_author IS NOT NULL OR unmarked IS NOT NULL "
        "ORDER BY not_author IS NOT NULL DESC, 3, 5 LIMIT 1) "
        "ORDER BY 1, 2, 3, 5"
    )
    labels = [value for table, model in by_table.items() for value in (table, model._meta.label)]
    with connection.cursor() as cursor:
        cursor.execute(sql, [SYSTEM_ACTOR, SYSTEM_ROLE, *labels, limit_per_model])
        found = cursor.fetchall()
    reasons = {
        "unstamped": _("historique n° %(hid)s écrit les déclencheurs désactivés"),
        "no_entry": _("historique n° %(hid)s écrit sans entrée de registre dans la même transaction"),
        "unnamed": _("historique n° %(hid)s : aucune entrée de sa transaction ne nomme cet objet"),
        "deleted_history": _(
            "historique de la transaction n° %(txid)s disparu : une entrée de cette transaction nomme l'objet"
        ),
    }
    codes = {"unnamed": "unnamed", "deleted_history": "deleted_history"}
    transactions, history_time, run, actor = [], None, None, None
    for what, table, hid, pk, txid_or_seq, why in found:
        if what == 0:
            model = by_table[table]
            transactions.append(
                ObjectFinding(
                    model._meta.label,
                    model._meta.pk.to_python(pk),
                    codes.get(why, "transaction"),
                    str(reasons[why] % {"hid": hid, "txid": txid_or_seq}),
                    history_id=hid,
                )
            )
        elif what == 1:
            model = by_table[table]
            history_time = ObjectFinding(
                model._meta.label,
                model._meta.pk.to_python(pk),
                "history_time",
                str(_("historique n° %(hid)s daté hors du temps des entrées de sa transaction") % {"hid": hid}),
            )
        elif what == 2:
            run = (hid, txid_or_seq)
        else:
            actor = (hid, txid_or_seq, why == "true")
    return EntryScan(transactions, history_time, run, actor)


def check_transactions(limit_per_model: int = 1, using: str = DEFAULT_DB_ALIAS, since: int = 0) -> list[ObjectFinding]:
    """The transaction check of ``scan_entries``: nothing where it cannot run (SQLite)."""
    scanned = scan_entries(using, since, limit_per_model)
    return [] if scanned is None else scanned.transactions


TRANSACTIONS = "transactions"
ROW_DIGESTS = "history digests"


def check_row_digests(
    using: str = DEFAULT_DB_ALIAS, since: int = 0, sealed: "Sealed | None" = None
) -> list[ObjectFinding]:
    """History rows that no longer match the digest an entry of format 3 sealed (changed in
    place, or gone): the first of each model by history id, naming the object, the history row and
    the (last) entry that sealed the digest it no longer has. Every entry of a transaction seals
    the rows its transaction wrote so far, so a row is sealed many times over: the digests are
    gathered first, each row's distinct ones once (memory grows with the history rows, not the
    entries), then each row is read and digested once, by history id. ``sealed``: the digests as
    the walk of every chain gathered them (``verify_register``), instead of reading the entries
    again."""
    from .digests import note_sealed, sealed_digests

    if connections[using].vendor != "postgresql":
        return []
    labels = {model._meta.label for model, _history in tracked_models()}
    if sealed is None:
        sealed = {}
        for number, seq, label, rows in sealed_digests(using, since):
            note_sealed(sealed, number, seq, {label: rows})
    return [
        finding
        for label in sorted(sealed)
        if label in labels and (finding := _row_digest_finding(label, sealed[label], using))
    ]


def _row_digest_finding(label: str, sealed: dict[int, dict[str, tuple[str, int]]], using: str) -> ObjectFinding | None:
    """The first history row of ``label`` (by id) that is not as every digest sealed of it says."""
    from .digests import stored_digests

    hids = sorted(sealed)
    for start in range(0, len(hids), CHUNK):
        chunk = hids[start : start + CHUNK]
        stored = stored_digests(label, chunk, using)
        for hid in chunk:
            now = stored.get(hid)
            for digest, (number, seq) in sealed[hid].items():
                where = {"hid": hid, "register": number, "seq": seq}
                if now is None:
                    reason, pk = _("historique n° %(hid)s disparu : l'entrée %(register)s n° %(seq)s l'a scellé"), "?"
                elif now[1] != digest:
                    pk = now[0]
                    reason = _(
                        "historique n° %(hid)s modifié : ses colonnes ne sont plus celles que l'entrée "
                        "%(register)s n° %(seq)s a scellées"
                    )
                else:
                    continue
                return ObjectFinding(label, pk, "row_digest", str(reason % where), history_id=hid)
    return None


def written_since(since: int, using: str = DEFAULT_DB_ALIAS) -> dict[str, set]:
    """{model label: pks} of the tracked objects that the transactions from ``since`` on wrote: those
    their entries name (``written``) and those of their history rows (and of every unstamped one),
    read through the transaction-id indexes (PostgreSQL)."""
    connection = connections[using]
    q, txid = connection.ops.quote_name, connection.ops.quote_name(TXID_COLUMN)
    pairs = tracked_models()
    branches = [
        f"SELECT %s, {q(model._meta.pk.attname)}::text FROM {q(history._meta.db_table)} "
        f"WHERE {txid} >= {int(since)} OR {txid} IS NULL"
        for model, history in pairs
    ]
    models = {model._meta.label: model for model, _history in pairs}
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT w.key, p.value #>> '{{}}' FROM {q(Entry._meta.db_table)} e "
            "CROSS JOIN LATERAL jsonb_each(e.written) w CROSS JOIN LATERAL jsonb_array_elements(w.value) p "
            f"WHERE e.written IS NOT NULL AND e.{txid} >= {int(since)}"
            + "".join(f" UNION {branch}" for branch in branches),
            list(models),
        )
        found = cursor.fetchall()
    written: dict[str, set] = {}
    for label, pk in found:
        if label in models:
            written.setdefault(label, set()).add(models[label]._meta.pk.to_python(pk))
    return written


def verify_states(
    using: str = DEFAULT_DB_ALIAS, since: int = 0, scanned: EntryScan | None = None
) -> list[tuple[str, ObjectFinding | None]]:
    """(model label, its first problem or None) for every tracked model, then the transaction
    check (``since``: of that transaction on, see ``scan_entries``, given as ``scanned`` or read
    here): (TRANSACTIONS, None) when sound, one pair per model with a problem otherwise; no
    transaction check where it cannot run (SQLite). With ``since``, only the objects written from
    that transaction on are held to their history (``written_since``); every object otherwise.
    What needs no walk of the chains: it can run beside it (``verification.beside``)."""
    written = written_since(since, using) if since and connections[using].vendor == "postgresql" else None
    checked: list[tuple[str, ObjectFinding | None]] = []
    for model, history in tracked_models():
        label = model._meta.label
        checked.append(
            (label, check_state(model, history, using, None if written is None else written.get(label, set())))
        )
    if connections[using].vendor != "postgresql":
        return checked
    findings = (scanned or scan_entries(using, since)).transactions
    checked += [(finding.model, finding) for finding in findings] if findings else [(TRANSACTIONS, None)]
    return checked


def verify_row_digests(
    using: str = DEFAULT_DB_ALIAS, since: int = 0, sealed: "Sealed | None" = None
) -> list[tuple[str, ObjectFinding | None]]:
    """(model label, its problem) of each model whose history rows no longer match what the
    entries sealed, or (ROW_DIGESTS, None) when all do; nothing on SQLite. ``sealed``: see
    ``check_row_digests``."""
    if connections[using].vendor != "postgresql":
        return []
    findings = check_row_digests(using=using, since=since, sealed=sealed)
    return [(finding.model, finding) for finding in findings] if findings else [(ROW_DIGESTS, None)]


def verify_objects(
    using: str = DEFAULT_DB_ALIAS, since: int = 0, sealed: "Sealed | None" = None
) -> list[tuple[str, ObjectFinding | None]]:
    """Every object check in order: ``verify_states``, then ``verify_row_digests``."""
    return verify_states(using, since) + verify_row_digests(using, since, sealed)
