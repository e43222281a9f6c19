"""Each register's Merkle tree over its entries, kept as stored subtrees (``MerkleNode``): leaf i
is SHA-256(0x00 ‖ the 32 bytes of entry i+1's hash), nodes as RFC 9162 §2.1.1. ``extend`` adds the
subtrees that the entries up to a size complete (at each seal), reading only the new entries and
one stored node per level; inclusion and consistency proofs (RFC 9162 §2.1.3, §2.1.4) then read
O(log² n) stored hashes at most, in a few queries, whatever the register's size."""

import operator
from collections.abc import Callable
from functools import reduce

from django.db.models import Q

from . import merkle
from .models import Entry, MerkleNode, Register

BATCH = 5000


def entry_leaf(entry_hash: str) -> bytes:
    return merkle.leaf_hash(bytes.fromhex(entry_hash))


def stored_size(register: Register) -> int:
    last = MerkleNode.objects.filter(register=register, level=0).order_by("-index").values_list("index", flat=True)
    top = last.first()
    return 0 if top is None else top + 1


def _fetch(register: Register, keys: set[tuple[int, int]]) -> dict[tuple[int, int], bytes]:
    """The stored nodes among ``keys``, in one query (one clause per level)."""
    by_level: dict[int, list[int]] = {}
    for level, index in keys:
        by_level.setdefault(level, []).append(index)
    if not by_level:
        return {}
    wanted = reduce(operator.or_, (Q(level=level, index__in=indexes) for level, indexes in by_level.items()))
    rows = MerkleNode.objects.filter(wanted, register=register).values_list("level", "index", "hash")
    return {(level, index): bytes(digest) for level, index, digest in rows}


def batched(register: Register, compute: Callable[[Callable[[int, int], bytes]], object]):
    """Run ``compute(node)`` twice: once to learn which stored nodes it reads, then with them
    fetched in one query (the recursion is the same whatever the hashes)."""
    wanted: set[tuple[int, int]] = set()

    def record(level: int, index: int) -> bytes:
        wanted.add((level, index))
        return b"\0" * 32

    compute(record)
    nodes = _fetch(register, wanted)
    missing = wanted - nodes.keys()
    if missing:
        raise LookupError(f"{register.number}: Merkle nodes not stored yet: {sorted(missing)[:3]}")
    return compute(lambda level, index: nodes[(level, index)])


def extend(register: Register, size: int) -> int:
    """Store the subtrees completed by the entries up to ``size``; returns the nodes written."""
    old = stored_size(register)
    if size <= old:
        return 0
    hashes = (
        Entry.objects.filter(register=register, seq__gt=old, seq__lte=size)
        .order_by("seq")
        .values_list("entry_hash", flat=True)
        .iterator(chunk_size=BATCH)
    )
    level_nodes = {i: entry_leaf(h) for i, h in enumerate(hashes, start=old)}
    rows, level = [], 0
    while level_nodes:
        rows += [MerkleNode(register=register, level=level, index=i, hash=h) for i, h in level_nodes.items()]
        first = min(level_nodes)
        left = first - 1 if first % 2 else None
        if left is not None:  # the left sibling of the first new node, stored before
            level_nodes[left] = _fetch(register, {(level, left)})[(level, left)]
        level_nodes = {
            i // 2: merkle.node_hash(level_nodes[i], level_nodes[i + 1])
            for i in sorted(level_nodes)
            if i % 2 == 0 and i + 1 in level_nodes
        }
        level += 1
    MerkleNode.objects.bulk_create(rows, batch_size=BATCH, ignore_conflicts=True)
    return len(rows)


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
