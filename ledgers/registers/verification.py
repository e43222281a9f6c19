"""Verification of registers: recompute every hash, link, sequence number and visa, and hold the
chain to its sealed checkpoints and to earlier exports.

A register verifies in one database snapshot (REPEATABLE READ on PostgreSQL when called outside
a transaction), so one that is being written to verifies as it stood when verification began
instead of reporting the entries appended meanwhile. Memory stays flat whatever the size: entries
are streamed through a server-side cursor and only the hashes that visas cover are kept.

Full verification walks every register from its opening act. Incremental verification
(``since_checkpoint``) starts at the register's last sealed checkpoint: the entries up to it were
verified when it was sealed and the seal holds their hash, so only that entry and those after it
are read. Every function takes the database alias to read (``using``), so that a full
verification can run against a read-only replica.
"""

import hashlib
import json
import queue
import threading
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from itertools import groupby
from operator import itemgetter
from typing import TypeVar

import orjson
from django.db import DEFAULT_DB_ALIAS, connections, transaction
from django.db.models import OuterRef, Q, Subquery
from django.utils.translation import gettext_lazy as _

from ledgers.core.db import TXID_COLUMN
from ledgers.core.forking import forked, second_process_possible
from ledgers.signatures.passkeys import act_digest, author_signs, check_assertion

from .chain import GENESIS_HASH, canonical_json, canonical_json_reference, format_timestamp
from .checkpoints import checkpoint_bytes, checkpoint_key, mac_valid
from .digests import Sealed, merge_sealed, note_sealed
from .kinds import AUTHORISATIONS
from .models import SYSTEM_ACTOR, Checkpoint, Entry, EntryKind, Register, TreeHead
from .signing import signature_valid

# A scanned row: (seq, recorded_at, actor, role, kind, JSON, corrects, prev_hash, entry_hash), the
# JSON fields as the text of one array [payload, objects written (format 2; null for format 1:
# hashed without them), history rows' digests (format 3; null before)], decoded in one call.
FETCH = 2000
T = TypeVar("T")


@dataclass(frozen=True)
class Finding:
    """The first problem of a register: where (seq) and what (a stable ``code`` and a reason)."""

    register: str
    seq: int | None
    code: str
    reason: str

    def __str__(self) -> str:
        where = f" n° {self.seq}" if self.seq is not None else ""
        return f"{self.register}{where} : {self.reason}"


def _scan_sql(vendor: str, *, bounded: bool = False, registers: int = 0, whole: int = 0) -> str:
    """The scan of one register from a seq (to another when ``bounded``); of ``registers`` registers
    each from its own seq, in the order given; of ``whole`` registers each from its first entry, in
    the order of their ids (the index's: the rows stream as the server reads them, unsorted). The
    many-register scans give each row's register id after its fields."""
    table = connections[DEFAULT_DB_ALIAS].ops.quote_name(Entry._meta.db_table)
    at, payload, written, digests = "e.recorded_at", "e.payload", "e.written", "e.digests"
    if vendor == "postgresql":  # the timestamp already in its canonical text, the JSON as text for orjson
        at, payload, written, digests = (
            """to_char(e.recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')""",
            "e.payload::text",
            "e.written::text",
            "e.digests::text",
        )
    # One JSON text for the three (SQLite stores JSON as text): one decoder call a row instead of three.
    objects = f"'[' || {payload} || ',' || coalesce({written}, 'null') || ',' || coalesce({digests}, 'null') || ']'"
    # The corrected entry's seq is looked up for the corrections only.
    corrects = (
        f"CASE WHEN e.corrects_id IS NULL THEN NULL ELSE (SELECT c.seq FROM {table} c WHERE c.id = e.corrects_id) END"
    )
    bound = " AND e.seq <= %s" if bounded else ""
    fields = f"SELECT e.seq, {at}, e.actor, e.role, e.kind, {objects}, {corrects}, e.prev_hash, e.entry_hash"
    if whole:
        ids = ", ".join(["%s"] * whole)
        return f"{fields}, e.register_id FROM {table} e WHERE e.register_id IN ({ids}) ORDER BY e.register_id, e.seq"
    if registers:
        starts = " OR ".join(["(e.register_id = %s AND e.seq >= %s)"] * registers)
        order = " ".join(["WHEN %s THEN %s"] * registers)
        return f"{fields}, e.register_id FROM {table} e WHERE {starts} ORDER BY CASE e.register_id {order} END, e.seq"
    return f"{fields} FROM {table} e WHERE e.register_id = %s AND e.seq >= %s{bound} ORDER BY e.seq"


def _rows(
    register: Register,
    *,
    start: int = 1,
    last: int | None = None,
    using: str = DEFAULT_DB_ALIAS,
    fetch: int = FETCH,
) -> Iterator[tuple]:
    """The entries of a register from ``start`` on (to ``last``), in seq order, as scanned rows
    (above FETCH): the timestamp as canonical text, the JSON fields as text (``_hashed`` decodes
    them). One ordered index scan (``_scanned``)."""
    bound = [] if last is None else [last]
    yield from _scanned(
        _scan_sql(connections[using].vendor, bounded=last is not None), [register.pk, start, *bound], using, fetch
    )


def _rows_from(starts: list[tuple[int, int]], using: str = DEFAULT_DB_ALIAS) -> Iterator[tuple]:
    """The entries of each (register id, start seq) of ``starts`` from its start on, register after
    register in that order, as ``_rows`` gives them with the register id after: one scan for all."""
    sql = _scan_sql(connections[using].vendor, registers=len(starts))
    params = [value for start in starts for value in start]
    params += [value for position, (pk, _start) in enumerate(starts) for value in (pk, position)]
    return _scanned(sql, params, using, FETCH)


def _rows_whole(pks: list[int], using: str = DEFAULT_DB_ALIAS) -> Iterator[tuple]:
    """Every entry of the registers ``pks``, register after register in the order of their ids, as
    ``_rows`` gives them with the register id after: one scan for all."""
    return _scanned(_scan_sql(connections[using].vendor, whole=len(pks)), sorted(pks), using, FETCH)


def _scanned(sql: str, params: list, using: str, fetch: int) -> Iterator[tuple]:
    """The rows of an entries scan through a server-side cursor (a chunked cursor: a plain one where
    DISABLE_SERVER_SIDE_CURSORS says the pooler cannot keep one), ``fetch`` rows a round trip; the
    timestamp made canonical text where the database does not."""
    connection = connections[using]
    with connection.chunked_cursor() as cursor:
        cursor.execute(sql, params)
        if connection.vendor == "postgresql":
            yield from _prefetched(cursor, fetch)
            return
        while batch := cursor.fetchmany(fetch):
            for seq, at, *rest in batch:
                yield seq, format_timestamp(connection.ops.convert_datetimefield_value(at, None, connection)), *rest


def _prefetched(cursor, fetch: int) -> Iterator[tuple]:
    """The rows of a PostgreSQL cursor, the next ``fetch`` fetched by a thread while the caller
    checks these: the server reads and the client hashes at once, instead of each waiting for the
    other. psycopg lets go of the interpreter while it waits on the server, and its connection's
    lock orders the thread's fetches with the queries the caller makes meanwhile."""
    batches: queue.Queue = queue.Queue(maxsize=2)
    stop = threading.Event()

    def fetching() -> None:
        try:
            while not stop.is_set() and (batch := cursor.fetchmany(fetch)):
                batches.put(batch)
            batches.put(None)
        except BaseException as exc:  # raised again in the caller's thread
            batches.put(exc)

    thread = threading.Thread(target=fetching, name="entries-scan", daemon=True)
    thread.start()
    try:
        while (batch := batches.get()) is not None:
            if isinstance(batch, BaseException):
                raise batch
            yield from batch
    finally:  # a walk stopped by a finding: the thread ends before its cursor is closed
        stop.set()
        while thread.is_alive():
            with suppress(queue.Empty):
                batches.get(timeout=0.01)
        thread.join()


def _document(number: str, row: tuple, payload, written, digests) -> dict:
    document = {
        "register": number,
        "seq": row[0],
        "recorded_at": row[1],
        "actor": row[2],
        "role": row[3],
        "kind": row[4],
        "payload": payload,
        "corrects": row[6],
        "prev_hash": row[7],
    }
    if written is not None:  # format 2
        document["written"] = written
    if digests is not None:  # format 3
        document["digests"] = digests
    return document


def _hashed(number: str, row: tuple) -> tuple[str, object, object, object]:
    """(sha256 of the canonical bytes, decoded payload, written objects, digests) of a scanned row. The JSON
    is decoded with orjson; a hash that does not match the stored one is computed again with the
    reference decoder and encoder before it is believed (orjson reads integers beyond 64 bits as
    floats): a mismatch is reported only on the definition's bytes, and the values returned are
    then the reference decoder's."""
    text = row[5]
    try:
        payload, written, digests = orjson.loads(text)
    except orjson.JSONDecodeError:
        pass
    else:
        # Decoded JSON holds nothing orjson refuses: canonical_json's fallback is not needed here.
        document = _document(number, row, payload, written, digests)
        digest = hashlib.sha256(orjson.dumps(document, option=orjson.OPT_SORT_KEYS)).hexdigest()
        if digest == row[8]:
            return digest, payload, written, digests
    payload, written, digests = json.loads(text)
    document = _document(number, row, payload, written, digests)
    return hashlib.sha256(canonical_json_reference(document)).hexdigest(), payload, written, digests


def _values(number: str, row: tuple) -> dict:
    # An entry of format 1 is exported as it always was, without the fields of the later formats.
    _digest, payload, written, digests = _hashed(number, row)
    return {**_document(number, row, payload, written, digests), "entry_hash": row[8]}


def scan(register: Register, page_size: int = FETCH, *, using: str = DEFAULT_DB_ALIAS) -> Iterator[dict]:
    """Entries of a register in seq order, as the dicts that are hashed (+ entry_hash)."""
    for row in _rows(register, using=using, fetch=page_size):
        yield _values(register.number, row)


def scan_range(register: Register, first: int, last: int) -> list[dict]:
    """Entries ``first``…``last`` of a register as scan() gives them (one bounded read)."""
    return [_values(register.number, row) for row in _rows(register, start=first, last=last)]


@contextmanager
def snapshot(*, read_only: bool = True, using: str = DEFAULT_DB_ALIAS, shared: bool = False) -> Iterator[str | None]:
    """One consistent view of the database for a multi-query read (and, with ``read_only``
    False, the writes that depend on it).

    Inside a caller's transaction the caller decides what is seen; otherwise open a REPEATABLE
    READ transaction (PostgreSQL) or a plain one (SQLite reads in one snapshot). Without JIT
    compilation: the row checks join set-returning functions over JSON, whose row estimates
    (hundreds per call) make the planner compile every query for seconds that it then runs in
    milliseconds. With ``shared``, gives the id of the snapshot exported for other connections to
    read in (``beside``), where this one opened it on PostgreSQL; None otherwise."""
    connection = connections[using]
    if connection.in_atomic_block:
        yield None
        return
    exported = None
    with transaction.atomic(using=using):
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                mode = ", READ ONLY" if read_only else ""
                cursor.execute(f"SET TRANSACTION ISOLATION LEVEL REPEATABLE READ{mode}; SET LOCAL jit = off")
                if shared:
                    cursor.execute("SELECT pg_export_snapshot()")
                    exported = cursor.fetchone()[0]
        yield exported


def beside(work: Callable[[], T], exported: str | None, using: str = DEFAULT_DB_ALIAS) -> Callable[[], T]:
    """``work`` started on a second connection that reads the snapshot ``exported`` (``snapshot``
    with ``shared``), in a thread, while the caller goes on: the server runs its queries while the
    caller walks the chains. Gives what waits for its result (its exception raised in the
    caller). Without an exported snapshot (SQLite, or inside the caller's own transaction, whose
    writes no other connection sees), ``work`` runs when its result is asked for."""
    if exported is None:
        return work

    def run() -> T:
        connection = connections[using]  # the thread's own connection
        try:
            with transaction.atomic(using=using):
                with connection.cursor() as cursor:
                    cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
                    cursor.execute("SET TRANSACTION SNAPSHOT %s", [exported])
                    cursor.execute("SET LOCAL jit = off")
                return work()
        finally:
            connection.close()

    executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="checks-beside")
    future = executor.submit(run)
    executor.shutdown(wait=False)
    return future.result


def verify_register(
    register: Register,
    anchors: dict[int, tuple[str, str]] | None = None,
    *,
    since_checkpoint: bool = False,
    using: str = DEFAULT_DB_ALIAS,
    head: bool = True,
    gathered: Sealed | None = None,
) -> Finding | None:
    """Return the first problem found, or None when the register verifies (``anchors``,
    ``since_checkpoint``, ``head`` and ``gathered``: see ``verify_in_snapshot``)."""
    with snapshot(using=using):
        return verify_in_snapshot(
            register, anchors, since_checkpoint=since_checkpoint, using=using, head=head, gathered=gathered
        )


def verify_whole(
    registers: list[Register],
    anchors: dict[str, dict[int, tuple[str, str]]],
    *,
    using: str = DEFAULT_DB_ALIAS,
    head: bool = True,
    gathered: Sealed | None = None,
    exported: str | None = None,
) -> Iterator[tuple[Register, Finding | None]]:
    """(register, its first problem or None) of each of ``registers`` verified from its first entry
    (``anchors`` by register number; ``head`` and ``gathered``: see ``verify_in_snapshot``), in the
    caller's snapshot: what each walk is held to read for all at once (``prepare_whole``), then
    their entries in one scan in the order of the registers' ids; given in the order of
    ``registers`` once all are walked. With the snapshot ``exported`` (``snapshot`` with
    ``shared``) and entries enough, a second process prepares and walks part of the registers in
    it meanwhile (``_walked_elsewhere``): the walk is the client's work, and it takes two cores.
    Forked and prepared when called, walked as the answer is read."""
    walked = sorted({register.pk: register for register in registers}.values(), key=lambda register: register.pk)
    elsewhere = _part_elsewhere(walked) if exported is not None else []
    # Forked now, before the caller starts threads of its own (``beside``): a thread's locks would
    # be copied held. Each process then reads what its own walks are held to.
    waiting = _walked_elsewhere(elsewhere, anchors, exported, using, head, gathered) if elsewhere else None
    here = [register for register in walked if register not in elsewhere]
    prepared = prepare_whole(here, anchors, using)

    def found_in_order() -> Iterator[tuple[Register, Finding | None]]:
        try:
            found = _walked(here, prepared, using, head, gathered)
        finally:  # the second process is waited for even when this walk fails: it ends on its own
            there = waiting() if waiting is not None else None
        if there is not None:
            found.update(there[0])
            if gathered is not None:
                merge_sealed(gathered, there[1], {register.number: register.pk for register in walked})
        for register in registers:
            yield register, found[register.pk]

    return found_in_order()


def _walked(
    registers: list[Register],
    prepared: "dict[int, Prepared | Finding]",
    using: str,
    head: bool,
    gathered: Sealed | None,
) -> dict[int, Finding | None]:
    """{register id: its first problem or None} of ``registers`` walked from their ``prepared``
    starts, their entries read from the first in one scan."""
    pks = [register.pk for register in registers if isinstance(prepared[register.pk], Prepared)]
    rows = _rows_whole(pks, using) if pks else iter(())
    return {register.pk: finding for register, finding in _walks(registers, prepared, rows, using, head, gathered)}


# The entries under which one process walks them all: a second one costs its start and a connection.
ELSEWHERE_FROM = 200_000


def _part_elsewhere(walked: list[Register]) -> list[Register]:
    """The registers a second process is to walk: about half the entries by the registers' heads
    (the largest registers shared out first), where the machine has cores for two, this process
    may fork one, and there are ``ELSEWHERE_FROM`` entries or more; none otherwise."""
    sizes = {register.pk: register.head_seq for register in walked}
    if sum(sizes.values()) < ELSEWHERE_FROM or len(sizes) < 2:
        return []
    if not second_process_possible():
        return []
    here = there = 0
    elsewhere = set()
    for pk in sorted(sizes, key=sizes.__getitem__, reverse=True):
        if there < here:
            elsewhere.add(pk)
            there += sizes[pk]
        else:
            here += sizes[pk]
    return [register for register in walked if register.pk in elsewhere]


def _walked_elsewhere(
    registers: list[Register],
    anchors: dict[str, dict[int, tuple[str, str]]],
    exported: str,
    using: str,
    head: bool,
    gathered: Sealed | None,
) -> Callable[[], tuple[dict[int, Finding | None], Sealed]]:
    """``registers`` prepared and walked by a forked process in the snapshot ``exported``, on a
    connection of its own (a thread's: the connection the process inherits is its parent's, never
    used there), while the caller prepares and walks the others. Gives what waits for ({register
    id: finding}, the digests its walks gathered); an error there is raised here."""

    def walk() -> tuple[dict[int, Finding | None], Sealed]:
        sealed: Sealed | None = None if gathered is None else {}
        found = _walked(registers, prepare_whole(registers, anchors, using), using, head, sealed)
        return found, sealed or {}

    # The thread of ``beside`` is the forked process's own: started there.
    return forked(lambda: beside(walk, exported, using)(), name="the second walk of the registers")


def verify_since(
    registers: list[Register],
    anchors: dict[str, dict[int, tuple[str, str]]],
    *,
    using: str = DEFAULT_DB_ALIAS,
    head: bool = True,
) -> Iterator[tuple[Register, Finding | None]]:
    """(register, its first problem or None) of each of ``registers`` verified from its last sealed
    checkpoint on (``anchors`` by register number), in the caller's snapshot: where each walk
    starts read for all at once (``prepare_since``), then their entries in one scan."""
    prepared = prepare_since(registers, anchors, using)
    starts = [(r.pk, ready.walk.start) for r in registers if isinstance(ready := prepared[r.pk], Prepared)]
    yield from _walks(registers, prepared, _rows_from(starts, using) if starts else iter(()), using, head)


def first_unsealed_transaction(using: str = DEFAULT_DB_ALIAS) -> int:
    """The oldest transaction among the entries after each register's last checkpoint (every entry
    of a register never sealed): where an incremental verification starts reading entries and
    history rows. A sealed entry's transaction had committed when it was sealed, so each entry
    after it belongs to a later one; when no entry was written since, the transaction after the
    last entry's. 0 (read everything) on SQLite or an empty database. Bounded by the entries
    written since the seals, whatever the history."""
    connection = connections[using]
    if connection.vendor != "postgresql":
        return 0
    q = connection.ops.quote_name
    txid = q(TXID_COLUMN)
    with connection.cursor() as cursor:
        # Each register's entries after its checkpoint by the (register, seq) index: OFFSET 0 keeps
        # the planner from turning min() into a walk of the whole transaction index (or of the
        # whole table in a join).
        cursor.execute(
            f"SELECT coalesce(min(e.txid), (SELECT max({txid}) + 1 FROM {q(Entry._meta.db_table)})) "
            f"FROM {q(Register._meta.db_table)} r CROSS JOIN LATERAL (SELECT min(d.{txid}) AS txid FROM "
            f"(SELECT e.{txid} FROM {q(Entry._meta.db_table)} e WHERE e.register_id = r.id AND e.seq > "
            f"coalesce((SELECT max(c.seq) FROM {q(Checkpoint._meta.db_table)} c WHERE c.register_id = r.id), 0) "
            f"AND e.{txid} <> 0 OFFSET 0) d) e"
        )
        (first,) = cursor.fetchone()
    return first or 0


def _finder(number: str):
    """A register's ``finding(seq, code, reason)``."""

    def finding(seq: int | None, code: str, reason) -> Finding:
        return Finding(number, seq, code, str(reason))

    return finding


def _seal_problem(number: str, finding, row: tuple, signed_at: int | None, key: list[bytes]) -> Finding | None:
    """Why one checkpoint row's seal does not hold (forged, or written by something that does not
    hold the key; an HMAC one after the signed one at ``signed_at``), or None. ``key`` caches the
    HMAC key, read at the first HMAC seal."""
    seq, digest, created_at, mac, key_id, signature = row
    fields = {"register": number, "seq": seq, "entry_hash": digest, "created_at": created_at}
    if key_id:
        valid = signature_valid(key_id, signature, checkpoint_bytes(**fields))
    elif signed_at is not None:
        return finding(
            seq,
            "checkpoint_hmac_after_signed",
            _(
                "le point de contrôle du n° %(seq)s est scellé par HMAC alors que celui du n° %(signed)s "
                "est déjà signé (Ed25519) : un sceau HMAC n'est plus accepté après une signature"
            )
            % {"seq": seq, "signed": signed_at},
        )
    else:  # sealed before signatures: an HMAC
        if not key:
            key.append(checkpoint_key())
        valid = mac_valid(key[0], mac, **fields)
    if not valid:
        return finding(
            seq,
            "checkpoint_mac",
            _("le point de contrôle du n° %(seq)s n'a pas de sceau valide (faux ou autre clé)") % {"seq": seq},
        )
    return None


def _sealed(number: str, finding, rows: Iterable[tuple], key: list[bytes]) -> dict[int, tuple[str, str]] | Finding:
    """A register's checkpoint rows (in seq order) as {seq: (hash, local date)}, or the first one
    whose seal does not hold (``_seal_problem``): sealing has signed since the first signed one, so
    whoever still holds the HMAC key could have added an HMAC one after it."""
    sealed, signed_at = {}, None
    for row in rows:
        if problem := _seal_problem(number, finding, row, signed_at, key):
            return problem
        signed_at = signed_at or (row[0] if row[4] else None)
        sealed[row[0]] = (row[1], format_timestamp(row[2]))
    return sealed


def _leaf_anchor(leaves: dict, created_at, number: str) -> dict[int, tuple[str, str]]:
    if number not in leaves:
        return {}
    seq, digest = leaves[number][:2]  # format 2 adds the register's Merkle root
    return {seq: (digest, format_timestamp(created_at))}


def _newest_leaves(registers: list[Register], using: str) -> dict[int, tuple[dict, object]]:
    """{establishment id: (leaves, created_at)} of the newest tree head of each establishment of
    ``registers``, in one query: the head each register had then stays held even if its checkpoint
    rows are deleted (the tree heads' own signatures and chain are checked by
    treeheads.verify_tree_heads)."""
    newest = TreeHead.objects.using(using).filter(establishment_id=OuterRef("establishment_id")).order_by("-number")
    return {
        establishment: (head, at)
        for establishment, head, at in TreeHead.objects.using(using)
        .filter(
            establishment_id__in={register.establishment_id for register in registers},
            number=Subquery(newest.values("number")[:1]),
        )
        .values_list("establishment_id", "leaves", "created_at")
    }


def _held(register: Register, leaves: dict[int, tuple[dict, object]]) -> dict[int, tuple[str, str]]:
    """{seq: (hash, time)} of the register in its establishment's newest tree head (``_newest_leaves``)."""
    return (
        _leaf_anchor(*leaves[register.establishment_id], register.number) if register.establishment_id in leaves else {}
    )


@dataclass
class _Walk:
    """Where the walk of a chain starts: the first seq read, the hash it links to, and what the
    entries before it leave behind (the end of the last visa's range, the closing act's seq)."""

    start: int = 1
    prev: str = GENESIS_HASH
    visaed: int = 0
    closing: int | None = None


@dataclass
class Prepared:
    """What a register's verification holds its entries to, read before them: the register row's
    head, the sealed {seq: (hash, time)} (checkpoints and anchors), where the walk starts, the
    seqs whose hashes visas read (``wanted``) and those of them before the start (``kept``)."""

    head_seq: int
    head_hash: str
    sealed: dict[int, tuple[str, str]]
    walk: _Walk
    wanted: set[int]
    kept: dict[int, str]


def _anchored(sealed: dict, anchors: dict[int, tuple[str, str]], finding) -> Finding | None:
    """Add the anchors to the sealed heads: one that differs from its sealed checkpoint is a finding."""
    for seq, anchor in anchors.items():
        if sealed.setdefault(seq, anchor)[0] != anchor[0]:
            return finding(seq, "checkpoint_hash", _("le point de contrôle scellé diffère de la tête d'arbre signée"))
    return None


def _earlier_problem(sealed: dict, start: int, stored: dict[int, str], finding) -> Finding | None:
    """Anchors before the start are held to the stored hashes, which the resumed checkpoint's seal
    covers through the chain."""
    for seq in sorted(seq for seq in sealed if seq < start and seq in stored):
        if sealed[seq][0] != stored[seq]:
            return finding(
                seq,
                "checkpoint_hash",
                _("l'entrée ne correspond plus au point de contrôle scellé le %(date)s") % {"date": sealed[seq][1]},
            )
    return None


def prepare_whole(
    registers: list[Register], anchors: dict[str, dict[int, tuple[str, str]]], using: str = DEFAULT_DB_ALIAS
) -> dict[int, Prepared | Finding]:
    """{register pk: ``Prepared`` for a walk from its first entry, every checkpoint's seal checked
    and the anchors (``anchors`` by register number, then the newest tree head's leaf) added to
    them, or the finding that stops it} for all ``registers`` in four queries whatever their
    number: their heads, their checkpoints, the newest tree heads and the seqs their visas cover."""
    pks = [register.pk for register in registers]
    heads = {
        pk: (seq, digest)
        for pk, seq, digest in Register.objects.using(using)
        .filter(pk__in=pks)
        .values_list("pk", "head_seq", "head_hash")
    }
    checkpoints: dict[int, list[tuple]] = {}
    for pk, *row in (
        Checkpoint.objects.using(using)
        .filter(register_id__in=pks)
        .order_by("register_id", "seq")
        .values_list("register_id", "seq", "entry_hash", "created_at", "mac", "key_id", "signature")
    ):
        checkpoints.setdefault(pk, []).append(tuple(row))
    covered: dict[int, set[int]] = {}
    for pk, seq in (
        Entry.objects.using(using)
        .filter(register_id__in=pks, kind=EntryKind.VISA)
        .order_by()
        .values_list("register_id", "payload__covers_seq")
    ):
        if type(seq) is int:
            covered.setdefault(pk, set()).add(seq)
    leaves = _newest_leaves(registers, using)
    prepared: dict[int, Prepared | Finding] = {}
    key: list[bytes] = []
    for register in registers:
        number, finding = register.number, _finder(register.number)
        sealed = _sealed(number, finding, checkpoints.get(register.pk, ()), key)
        if isinstance(sealed, Finding):
            prepared[register.pk] = sealed
        elif problem := _anchored(sealed, {**_held(register, leaves), **anchors.get(number, {})}, finding):
            prepared[register.pk] = problem
        else:
            prepared[register.pk] = Prepared(*heads[register.pk], sealed, _Walk(), covered.get(register.pk, set()), {})
    return prepared


def prepare_since(
    registers: list[Register], anchors: dict[str, dict[int, tuple[str, str]]], using: str = DEFAULT_DB_ALIAS
) -> dict[int, Prepared | Finding]:
    """{register pk: ``Prepared`` for a walk from its last sealed checkpoint, or the finding that
    stops it} for all ``registers`` in four queries whatever their number and size: the last
    checkpoint alone is read and its seal checked (the earlier ones were when it was sealed, and
    its seal covers them through the chain); from before it, the entry it links to (a closing act
    there closes the volume), the last visa's range, and the hashes of the anchors (``anchors``
    by register number, then the newest tree head's leaf) and of the entries that the visas since
    read. Each lookup goes by the (register, seq) indexes."""
    last = Checkpoint.objects.using(using).filter(register=OuterRef("pk")).order_by("-seq")
    # Entries are ordered by establishment by default: each read here orders itself, without the join.
    before = Entry.objects.using(using).filter(register=OuterRef("pk")).order_by()
    linked = before.filter(seq=OuterRef("sealed_seq") - 1)
    fields = ("seq", "entry_hash", "created_at", "mac", "key_id", "signature")
    rows = {
        row[0]: row[1:]
        for row in Register.objects.using(using)
        .filter(pk__in=[register.pk for register in registers])
        .annotate(
            **{f"sealed_{field}": Subquery(last.values(field)[:1]) for field in fields},
            signed_at=Subquery(last.exclude(key_id="").order_by("seq").values("seq")[:1]),
            linked_hash=Subquery(linked.values("entry_hash")[:1]),
            linked_kind=Subquery(linked.values("kind")[:1]),
            # The whole payload: a key of it through a subquery is not decoded alike on every database.
            visa=Subquery(
                before.filter(kind=EntryKind.VISA, seq__lt=OuterRef("sealed_seq"))
                .order_by("-seq")
                .values("payload")[:1]
            ),
        )
        .values_list(
            "pk",
            "head_seq",
            "head_hash",
            *(f"sealed_{field}" for field in fields),
            "signed_at",
            "linked_hash",
            "linked_kind",
            "visa",
        )
    }
    # The visas since each start, by the visas' index.
    since = Q(pk__in=[])
    for pk, row in rows.items():
        since |= Q(register_id=pk, seq__gte=row[2] or 1)
    covered: dict[int, list] = {}
    for pk, seq in (
        Entry.objects.using(using)
        .filter(since, kind=EntryKind.VISA)
        .order_by()
        .values_list("register_id", "payload__covers_seq")
    ):
        covered.setdefault(pk, []).append(seq)
    leaves = _newest_leaves(registers, using)
    prepared: dict[int, Prepared | Finding] = {}
    key: list[bytes] = []
    for register in registers:
        number, finding = register.number, _finder(register.number)
        head_seq, head_hash, *last, signed_at, prev, prev_kind, visa = rows[register.pk]
        sealed, walk = {}, _Walk()
        if last[0] is not None:
            if problem := _seal_problem(number, finding, tuple(last), signed_at, key):
                prepared[register.pk] = problem
                continue
            sealed[last[0]] = (last[1], format_timestamp(last[2]))
            walk = _Walk(
                start=last[0],
                prev=prev or GENESIS_HASH,
                visaed=visaed if isinstance(visa, dict) and type(visaed := visa.get("covers_seq")) is int else 0,
                closing=last[0] - 1 if prev_kind == EntryKind.CLOSING else None,
            )
        if problem := _anchored(sealed, {**_held(register, leaves), **anchors.get(number, {})}, finding):
            prepared[register.pk] = problem
            continue
        wanted = {seq for seq in covered.get(register.pk, ()) if type(seq) is int}
        prepared[register.pk] = Prepared(head_seq, head_hash, sealed, walk, wanted, {})
    # The stored hashes of the anchors and visaed entries before each walk's start: one lookup.
    pairs = {
        pk: seqs
        for pk, ready in prepared.items()
        if isinstance(ready, Prepared)
        and (seqs := [seq for seq in {*ready.sealed, *ready.wanted} if seq < ready.walk.start])
    }
    stored: dict[int, dict[int, str]] = {}
    if pairs:
        wanted = Q(pk__in=[])
        for pk, seqs in pairs.items():
            wanted |= Q(register_id=pk, seq__in=seqs)
        for pk, seq, digest in (
            Entry.objects.using(using).filter(wanted).values_list("register_id", "seq", "entry_hash")
        ):
            stored.setdefault(pk, {})[seq] = digest
    for register in registers:
        ready = prepared[register.pk]
        if not isinstance(ready, Prepared):
            continue
        hashes = stored.get(register.pk, {})
        if problem := _earlier_problem(ready.sealed, ready.walk.start, hashes, _finder(register.number)):
            prepared[register.pk] = problem
        else:
            ready.kept = {seq: hashes[seq] for seq in ready.wanted if seq < ready.walk.start and seq in hashes}
    return prepared


def _walks(
    registers: list[Register],
    prepared: dict[int, Prepared | Finding],
    rows: Iterator[tuple],
    using: str,
    head: bool,
    gathered: Sealed | None = None,
) -> Iterator[tuple[Register, Finding | None]]:
    """(register, its first problem or None) of each of ``registers`` walked from its ``prepared``
    start over ``rows``: their entries with the register id after, register after register in the
    same order."""
    groups = groupby(rows, key=itemgetter(-1))
    group = next(groups, None)
    holders: dict[int, dict[str, list[tuple[str, str]]]] = {}
    for register in registers:
        mine = group is not None and group[0] == register.pk
        entries: Iterable[tuple] = group[1] if mine else ()
        yield (
            register,
            verify_in_snapshot(
                register,
                using=using,
                head=head,
                prepared=prepared[register.pk],
                rows=entries,
                gathered=gathered,
                holders=holders,
            ),
        )
        if mine:  # the rest of the register's rows, after a finding, is skipped
            group = next(groups, None)


def verify_in_snapshot(
    register: Register,
    anchors: dict[int, tuple[str, str]] | None = None,
    *,
    since_checkpoint: bool = False,
    using: str = DEFAULT_DB_ALIAS,
    head: bool = True,
    prepared: Prepared | Finding | None = None,
    rows: Iterable[tuple] | None = None,
    gathered: Sealed | None = None,
    holders: dict[int, dict[str, list[tuple[str, str]]]] | None = None,
) -> Finding | None:
    """``verify_register`` in the caller's snapshot (the sealing of checkpoints verifies first).
    ``anchors``: more {seq: (hash, time)} the chain must hold, as sealed checkpoints (a tree head
    that left the building); the newest tree head's are always added. With ``since_checkpoint``
    the walk starts at the last signed checkpoint, and the anchors before it are held to the
    stored hashes (``prepare_since``; ``prepared`` and ``rows``: its answer and the entries from
    its start, when the caller read them for many registers at once). Without ``head`` the
    register row's head is not held to the chain's end (a witness copy receives the register rows
    as created, not their heads' moves). ``gathered``: where to gather the history rows' digests that
    the entries read seal (``digests.note_sealed``), for the history digests check to read the
    entries once with the chain. ``holders``: the passkey holders by establishment
    (``passkey_holders``), read once for the many registers a caller walks."""
    number, finding = register.number, _finder(register.number)
    if prepared is None:
        prepare = prepare_since if since_checkpoint else prepare_whole
        prepared = prepare([register], {number: anchors or {}}, using)[register.pk]
    if isinstance(prepared, Finding):
        return prepared
    head_seq, head_hash, sealed, walk = prepared.head_seq, prepared.head_hash, prepared.sealed, prepared.walk
    wanted, kept = prepared.wanted, dict(prepared.kept)
    expected_seq, prev, visaed, closing = walk.start, walk.prev, walk.visaed, walk.closing
    credentials: dict[str, dict | None] = {}
    holders = {} if holders is None else holders
    for row in _rows(register, start=walk.start, using=using) if rows is None else rows:
        seq, kind, corrects, prev_hash, stored = row[0], row[4], row[6], row[7], row[8]
        if seq != expected_seq:
            return finding(
                expected_seq,
                "missing",
                _("entrée manquante (l'entrée suivante conservée est le n° %(next)s)") % {"next": seq},
            )
        if prev_hash != prev:
            return finding(seq, "prev_hash", _("l'empreinte précédente ne correspond pas à l'entrée précédente"))
        computed, payload, _written, digests = _hashed(number, row)
        if computed != stored:
            return finding(seq, "entry_hash", _("l'empreinte ne correspond pas au contenu de l'entrée"))
        if gathered is not None and digests:
            note_sealed(gathered, number, seq, digests)
        if seq in sealed and sealed[seq][0] != computed:
            # Re-hashed consistently from some earlier entry on: only the sealed copy shows it.
            return finding(
                seq,
                "checkpoint_hash",
                _("l'entrée ne correspond plus au point de contrôle scellé le %(date)s") % {"date": sealed[seq][1]},
            )
        if isinstance(payload, dict) and ("passkey" in payload or "passkeys" in payload):
            reason = passkeys_reason(register, number, kind, row[2], payload, credentials, using)
            if reason:
                return finding(seq, "passkey", reason)
        elif row[2] != SYSTEM_ACTOR and author_signs(kind, payload):
            if register.establishment_id not in holders:
                holders[register.establishment_id] = passkey_holders(register.establishment_id, using)
            if held_at(holders[register.establishment_id].get(row[2], ()), row[1]):
                return finding(seq, "passkey_missing", _("signé sans la clé d'accès que son auteur détenait alors"))
        if seq == 1 and kind != EntryKind.OPENING:
            return finding(seq, "opening", _("la première entrée n'est pas l'acte d'ouverture"))
        if closing is not None:
            return finding(
                seq, "after_closing", _("entrée postérieure à l'acte de clôture (n° %(seq)s)") % {"seq": closing}
            )
        if corrects is not None and not 1 <= corrects < seq:
            return finding(seq, "corrects", _("la correction désigne une entrée hors des entrées précédentes"))
        if kind == EntryKind.VISA:
            payload = payload if isinstance(payload, dict) else {}
            covers, start = payload.get("covers_seq"), payload.get("covers_from")
            if type(covers) is not int or not 1 <= covers < seq:
                return finding(seq, "visa_range", _("le visa ne porte sur aucune entrée précédente"))
            if start != visaed + 1 or covers < start:
                return finding(
                    seq,
                    "visa_range",
                    _("la plage du visa ne suit pas le visa précédent (attendu : à partir du n° %(start)s)")
                    % {"start": visaed + 1},
                )
            if kept.get(covers) != payload.get("covers_hash"):
                return finding(
                    seq, "visa_hash", _("l'empreinte visée ne correspond plus à l'entrée n° %(seq)s") % {"seq": covers}
                )
            visaed = covers
        elif kind == EntryKind.CLOSING:
            closing = seq
        if seq in wanted:
            kept[seq] = computed
        prev, expected_seq = computed, seq + 1
    last_seq = expected_seq - 1
    beyond = [seq for seq in sealed if seq > last_seq]
    if beyond:
        # Entries removed from the end, the head moved back with them.
        return finding(
            last_seq + 1,
            "checkpoint_missing",
            _("la chaîne s'arrête au n° %(last)s mais un point de contrôle scellé le %(date)s porte sur le n° %(seq)s")
            % {"last": last_seq, "seq": max(beyond), "date": sealed[max(beyond)][1]},
        )
    if not head:
        return None
    if last_seq != head_seq:
        return finding(
            min(last_seq, head_seq) + 1,
            "head_seq",
            _("la tête du registre est le n° %(head)s mais la chaîne s'arrête au n° %(last)s")
            % {"head": head_seq, "last": last_seq},
        )
    if prev != head_hash:
        return finding(
            last_seq, "head_hash", _("l'empreinte de tête du registre ne correspond pas à la dernière entrée")
        )
    return None


def passkeys_reason(
    register: Register, number: str, kind: str, actor: str, payload: dict, credentials: dict, using: str
) -> str:
    """Why a passkey assertion an entry holds is not its signer's signature of that entry's act
    ("" when each is): its author's (``passkey``) and its other signers' (``passkeys``, by login),
    each checked with the public key of the credential's registration line in the establishment's
    registers (docs/ledger-format.md, "Passkey signatures")."""
    signed = [(actor, payload["passkey"])] if "passkey" in payload else []
    others = payload.get("passkeys", {})
    if not isinstance(others, dict):
        return str(_("signature par clé d'accès illisible"))
    challenge = act_digest(register=number, kind=kind, payload=payload)
    for person, assertion in [*signed, *others.items()]:
        if not isinstance(assertion, dict) or not isinstance(assertion.get("credential_id"), str):
            return str(_("signature par clé d'accès illisible"))
        credential_id = assertion["credential_id"]
        if credential_id not in credentials:
            credentials[credential_id] = (
                Entry.objects.using(using)
                .filter(
                    register__establishment_id=register.establishment_id,
                    payload__credential_id=credential_id,
                    payload__has_key="public_key",
                )
                .order_by("recorded_at")
                .values_list("payload", flat=True)
                .first()
            )
        line = credentials[credential_id]
        if line is None:
            return str(_("la clé d'accès %(id)s n'est inscrite dans aucun registre") % {"id": credential_id})
        if line.get("person") != person:
            return str(_("la clé d'accès %(id)s n'est pas celle du signataire") % {"id": credential_id})
        reason = check_assertion(
            assertion,
            public_key=line["public_key"],
            algorithm=line.get("algorithm", -7),
            rp=line.get("rp_id", ""),
            challenge=challenge,
        )
        if reason:
            return reason
    return ""


def passkey_holders(establishment_id: int, using: str = DEFAULT_DB_ALIAS) -> dict[str, list[tuple[str, str]]]:
    """Who held a passkey here, and when: login → [(registered at, revoked at or "")], the
    canonical times of the registration and revocation lines of the register of authorisations."""
    lines = (
        Entry.objects.using(using)
        .filter(
            register__establishment_id=establishment_id,
            register__kind=AUTHORISATIONS.code,
            payload__has_key="credential_id",
        )
        .order_by("recorded_at")
        .values_list("recorded_at", "payload")
    )
    registered: dict[str, tuple[str, str]] = {}
    revoked: dict[str, str] = {}
    for at, payload in lines:
        if "public_key" in payload:
            registered.setdefault(payload["credential_id"], (payload.get("person", ""), format_timestamp(at)))
        elif "revoked_at" in payload:
            revoked.setdefault(payload["credential_id"], format_timestamp(at))
    holders: dict[str, list[tuple[str, str]]] = {}
    for credential_id, (person, since) in registered.items():
        holders.setdefault(person, []).append((since, revoked.get(credential_id, "")))
    return holders


def held_at(periods: Iterable[tuple[str, str]], moment: str) -> bool:
    """Whether one of the periods (registered at, revoked at or "") holds ``moment`` (canonical
    times, which compare as text)."""
    return any(since < moment and (not until or moment < until) for since, until in periods)


def chain_end(register: Register, using: str = DEFAULT_DB_ALIAS) -> tuple[int, str]:
    """(seq, entry_hash) of the register's last stored entry, (0, genesis) when it has none: its
    head as its entries say, whatever its row says."""
    last = (
        Entry.objects.using(using).filter(register=register).order_by("-seq").values_list("seq", "entry_hash").first()
    )
    return last or (0, GENESIS_HASH)


def _lines(register: Register, using: str = DEFAULT_DB_ALIAS) -> Iterator[str]:
    for row in scan(register, using=using):
        yield canonical_json(row).decode("utf-8")


def export_lines(register: Register) -> Iterator[str]:
    """JSON Lines: every hashed field plus entry_hash, one entry per line, from one snapshot."""
    with snapshot():
        yield from _lines(register)


def verify_against_export(lines: Iterable[str], using: str = DEFAULT_DB_ALIAS) -> Finding | None:
    """Hold the registers to an earlier export of theirs: every exported line must still be the
    export line of the same entry, byte for byte (what was once exported can be neither changed
    nor removed, whatever the head says). Lines of several registers may follow one another."""
    with snapshot(using=using):
        number, current = None, iter(())
        for n, line in enumerate(lines, start=1):
            line = line.rstrip("\n")
            try:
                exported = json.loads(line)
                seq = exported["seq"]
                if exported["register"] != number:
                    number = exported["register"]
                    register = Register.objects.using(using).filter(number=number).first()
                    if register is None:
                        return Finding(
                            str(number), None, "export_register", str(_("registre exporté absent de la base"))
                        )
                    current = _lines(register, using)
            except (ValueError, KeyError, TypeError):
                return Finding(
                    str(number or "?"), None, "export_format", str(_("ligne %(n)s de l'export illisible") % {"n": n})
                )
            now = next(current, None)
            if now is None:
                return Finding(number, seq, "export_missing", str(_("entrée exportée absente de la base")))
            if now != line:
                return Finding(number, seq, "export_changed", str(_("l'entrée diffère de celle de l'export")))
    return None
