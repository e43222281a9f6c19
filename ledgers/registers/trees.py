"""Each register's Merkle tree over its entries, kept as stored subtrees (``MerkleNode``): leaf i
is SHA-256(0x00 ‖ the 32 bytes of entry i+1's hash), nodes as RFC 9162 §2.1.1. Only the subtrees
of 2**BOTTOM leaves or more are stored (about one row per 8 entries); a smaller one is hashed from
its entries when a proof needs it (at most 2**BOTTOM entries read). ``extend`` adds the subtrees
that the entries up to a size complete (at each seal), reading only the new entries and one stored
node per level; inclusion and consistency proofs (RFC 9162 §2.1.3, §2.1.4) then read O(log² n)
stored hashes at most, and a few entries, in two queries, whatever the register's size."""

import hashlib
import itertools
import operator
from collections.abc import Callable, Iterator
from functools import reduce

from django.db import connection, transaction
from django.db.models import Q

from . import merkle
from .models import Entry, MerkleNode, Register

BATCH = 5000
CHUNK = 100_000  # nodes computed, then written, at a time
BOTTOM = 4  # the lowest level stored: the subtrees of 16 leaves


def entry_leaf(entry_hash: str) -> bytes:
    return merkle.leaf_hash(bytes.fromhex(entry_hash))


def stored_size(register: Register) -> int:
    """The leaves that the stored subtrees cover: a multiple of 2**BOTTOM."""
    last = MerkleNode.objects.filter(register=register, level=BOTTOM).order_by("-index").values_list("index", flat=True)
    top = last.first()
    return 0 if top is None else (top + 1) << BOTTOM


def _stored(register: Register, keys: set[tuple[int, int]]) -> dict[tuple[int, int], bytes]:
    """The stored nodes among ``keys``, in one query (one clause per level)."""
    by_level: dict[int, list[int]] = {}
    for level, index in keys:
        by_level.setdefault(level, []).append(index)
    if not by_level:
        return {}
    wanted = reduce(operator.or_, (Q(level=level, index__in=indexes) for level, indexes in by_level.items()))
    rows = MerkleNode.objects.filter(wanted, register=register).values_list("level", "index", "hash")
    return {(level, index): bytes(digest) for level, index, digest in rows}


def _hashed(register: Register, keys: set[tuple[int, int]]) -> dict[tuple[int, int], bytes]:
    """The subtrees ``keys`` (below BOTTOM) whose entries are all there, hashed from the entries
    read in one query."""
    spans = {(level, index): range((index << level) + 1, ((index + 1) << level) + 1) for level, index in keys}
    if not spans:
        return {}
    wanted = reduce(operator.or_, (Q(seq__range=(span[0], span[-1])) for span in spans.values()))
    rows = Entry.objects.filter(wanted, register=register).values_list("seq", "entry_hash")
    leaves = {seq: entry_leaf(digest) for seq, digest in rows}
    return {
        key: merkle.root([leaves[seq] for seq in span]) for key, span in spans.items() if leaves.keys() >= set(span)
    }


def _fetch(register: Register, keys: set[tuple[int, int]]) -> dict[tuple[int, int], bytes]:
    """The nodes ``keys``: those of BOTTOM and above stored, those below hashed from the entries;
    LookupError if one is neither."""
    low = {key for key in keys if key[0] < BOTTOM}
    nodes = {**_stored(register, keys - low), **_hashed(register, low)}
    if missing := keys - nodes.keys():
        raise LookupError(f"{register.number}: Merkle nodes not stored yet: {sorted(missing)[:3]}")
    return nodes


def batched(register: Register, compute: Callable[[Callable[[int, int], bytes]], object]):
    """Run ``compute(node)`` twice: once to learn which nodes it reads, then with them fetched at
    once (the recursion is the same whatever the hashes)."""
    wanted: set[tuple[int, int]] = set()

    def record(level: int, index: int) -> bytes:
        wanted.add((level, index))
        return b"\0" * 32

    compute(record)
    nodes = _fetch(register, wanted)
    return compute(lambda level, index: nodes[(level, index)])


def _new_nodes(register: Register, old: int, size: int) -> Iterator[tuple[int, int, bytes]]:
    """(level, index, hash) of each subtree of BOTTOM and above completed by the entries
    ``old``+1..``size``, as each completes: a binary counter over the leaves, whose stack starts as
    the stored perfect subtrees that make up the first ``old`` leaves (one per bit of ``old``, a
    multiple of 2**BOTTOM) and never holds more than one node per level."""
    frontier = [(level, (old >> level) - 1) for level in reversed(range(old.bit_length())) if old >> level & 1]
    stored = _fetch(register, set(frontier))
    stack = [(level, stored[(level, index)]) for level, index in frontier]
    hashes = (
        Entry.objects.filter(register=register, seq__gt=old, seq__lte=size)
        .order_by("seq")
        .values_list("entry_hash", flat=True)
        .iterator(chunk_size=BATCH)
    )
    sha256, fromhex = hashlib.sha256, bytes.fromhex
    for index, digest in enumerate(hashes, start=old):
        node, level = sha256(b"\0" + fromhex(digest)).digest(), 0
        while stack and stack[-1][0] == level:
            node = sha256(b"\1" + stack.pop()[1] + node).digest()
            level += 1
            if level >= BOTTOM:
                yield level, index >> level, node
        stack.append((level, node))


def _chunks(nodes: Iterator[tuple[int, int, bytes]]) -> Iterator[list[tuple[int, int, bytes]]]:
    """The nodes CHUNK at a time: each chunk is computed (its entries read) before it is written, as
    the connection reading the entries cannot run another statement during a COPY."""
    while chunk := list(itertools.islice(nodes, CHUNK)):
        yield chunk


def _copy(register: Register, nodes: Iterator[tuple[int, int, bytes]]) -> int:
    """PostgreSQL: the nodes by binary COPY into a temporary table, then inserted with ON CONFLICT
    DO NOTHING (a concurrent seal may have stored the same nodes)."""
    q = connection.ops.quote_name
    columns = ", ".join(q(column) for column in ("register_id", "level", "index", "hash"))
    count = 0
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("CREATE TEMP TABLE merkle_new (level smallint, index bigint, hash bytea)")
        for chunk in _chunks(nodes):
            with cursor.copy("COPY merkle_new FROM STDIN (FORMAT BINARY)") as copy:
                copy.set_types(["int2", "int8", "bytea"])
                for row in chunk:
                    copy.write_row(row)
            count += len(chunk)
        cursor.execute(
            f"INSERT INTO {q(MerkleNode._meta.db_table)} ({columns}) "
            "SELECT %s, level, index, hash FROM merkle_new ON CONFLICT DO NOTHING",
            [register.pk],
        )
        cursor.execute("DROP TABLE merkle_new")
    return count


def _bulk_create(register: Register, nodes: Iterator[tuple[int, int, bytes]]) -> int:
    """Elsewhere (SQLite): the nodes by ``bulk_create``, a node already stored left as it is."""
    count = 0
    for chunk in _chunks(nodes):
        rows = [MerkleNode(register=register, level=level, index=index, hash=digest) for level, index, digest in chunk]
        MerkleNode.objects.bulk_create(rows, batch_size=BATCH, ignore_conflicts=True)
        count += len(rows)
    return count


def extend(register: Register, size: int) -> int:
    """Store the subtrees of BOTTOM and above completed by the entries up to ``size``; returns the
    nodes written."""
    old = stored_size(register)
    if size >> BOTTOM <= old >> BOTTOM:
        return 0
    store = _copy if connection.vendor == "postgresql" else _bulk_create
    return store(register, _new_nodes(register, old, size))


def root(register: Register, size: int) -> bytes:
    if size == 0:
        return merkle.EMPTY_ROOT
    return batched(register, lambda node: merkle.range_hash(0, size, node))


def inclusion(register: Register, seq: int, size: int) -> list[bytes]:
    """The audit path of entry ``seq`` in the register's tree of ``size`` entries."""
    return batched(register, lambda node: merkle.inclusion_proof(seq - 1, size, node))


def consistency(register: Register, first: int, second: int) -> list[bytes]:
    """The consistency proof between the register's trees of ``first`` and ``second`` entries."""
    return batched(register, lambda node: merkle.consistency_proof(first, second, node))
