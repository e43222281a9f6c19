"""Merkle tree hashing of RFC 6962 §2.1: leaf = SHA-256(0x00 ‖ data), node = SHA-256(0x01 ‖ left ‖
right), a tree of n leaves split at the largest power of two below n; inclusion proofs and
their check as RFC 9162 §2.1.3 gives them."""

import hashlib

EMPTY_ROOT = hashlib.sha256(b"").digest()


def leaf_hash(data: bytes) -> bytes:
    return hashlib.sha256(b"\x00" + data).digest()


def node_hash(left: bytes, right: bytes) -> bytes:
    return hashlib.sha256(b"\x01" + left + right).digest()


def _split(n: int) -> int:
    """The largest power of two smaller than n (n ≥ 2)."""
    return 1 << ((n - 1).bit_length() - 1)


def root(leaves: list[bytes]) -> bytes:
    """The Merkle tree hash of the leaf hashes ``leaves``."""
    if not leaves:
        return EMPTY_ROOT
    if len(leaves) == 1:
        return leaves[0]
    k = _split(len(leaves))
    return node_hash(root(leaves[:k]), root(leaves[k:]))


def inclusion_path(index: int, leaves: list[bytes]) -> list[bytes]:
    """The audit path of leaf ``index`` (RFC 6962 PATH(m, D[n]))."""
    if len(leaves) <= 1:
        return []
    k = _split(len(leaves))
    if index < k:
        return [*inclusion_path(index, leaves[:k]), root(leaves[k:])]
    return [*inclusion_path(index - k, leaves[k:]), root(leaves[:k])]


def inclusion_valid(leaf: bytes, index: int, size: int, path: list[bytes], expected_root: bytes) -> bool:
    if index >= size:
        return False
    fn, sn, r = index, size - 1, leaf
    for p in path:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            r = node_hash(p, r)
            while not fn & 1 and fn:
                fn, sn = fn >> 1, sn >> 1
        else:
            r = node_hash(r, p)
        fn, sn = fn >> 1, sn >> 1
    return sn == 0 and r == expected_root


# Proofs from stored subtrees. ``node(level, index)`` gives the hash of the perfect subtree of
# 2**level leaves that starts at leaf index * 2**level; every range the RFC 9162 recursion asks for
# is one such subtree or splits into O(log n) of them, so a proof reads O(log² n) stored hashes
# at most, never the leaves.


def range_hash(lo: int, hi: int, node) -> bytes:
    """MTH(D[lo:hi]) for a range the RFC 9162 recursion produces (lo aligned to the split)."""
    n = hi - lo
    if n & (n - 1) == 0 and lo % n == 0:
        return node(n.bit_length() - 1, lo // n)
    k = _split(n)
    return node_hash(range_hash(lo, lo + k, node), range_hash(lo + k, hi, node))


def inclusion_proof(index: int, size: int, node, lo: int = 0) -> list[bytes]:
    """PATH(index, D[lo:lo+size]) of RFC 9162 §2.1.3.1, from stored subtrees."""
    if size <= 1:
        return []
    k = _split(size)
    if index < lo + k:
        return [*inclusion_proof(index, k, node, lo), range_hash(lo + k, lo + size, node)]
    return [*inclusion_proof(index, size - k, node, lo + k), range_hash(lo, lo + k, node)]


def consistency_proof(first: int, second: int, node) -> list[bytes]:
    """PROOF(first, D[0:second]) of RFC 9162 §2.1.4.1 (0 < first ≤ second), from stored subtrees."""

    def sub(m: int, lo: int, hi: int, whole: bool) -> list[bytes]:
        n = hi - lo
        if m == n:
            return [] if whole else [range_hash(lo, hi, node)]
        k = _split(n)
        if m <= k:
            return [*sub(m, lo, lo + k, whole), range_hash(lo + k, hi, node)]
        return [*sub(m - k, lo + k, hi, False), range_hash(lo, lo + k, node)]

    return sub(first, 0, second, True) if 0 < first <= second else []


def consistency_valid(first: int, second: int, first_root: bytes, second_root: bytes, proof: list[bytes]) -> bool:
    """RFC 9162 §2.1.4.2: the tree of ``second`` leaves extends the tree of ``first`` leaves."""
    if first == second:
        return first_root == second_root and not proof
    if not 0 < first < second or (not proof and first & (first - 1)):
        return False
    if first & (first - 1) == 0:
        proof = [first_root, *proof]
    fn, sn = first - 1, second - 1
    while fn & 1:
        fn, sn = fn >> 1, sn >> 1
    fr = sr = proof[0]
    for c in proof[1:]:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            fr, sr = node_hash(c, fr), node_hash(c, sr)
            while not fn & 1 and fn:
                fn, sn = fn >> 1, sn >> 1
        else:
            sr = node_hash(sr, c)
        fn, sn = fn >> 1, sn >> 1
    return fr == first_root and sr == second_root and sn == 0
