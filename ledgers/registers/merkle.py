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
