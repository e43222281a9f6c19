"""The check of an RFC 9162 §2.1.4.2 consistency proof (RFC 6962 hashing), all the witness needs
of Merkle trees: it never holds a log's leaves."""

import hashlib


def node_hash(left: bytes, right: bytes) -> bytes:
    return hashlib.sha256(b"\x01" + left + right).digest()


def consistent(first: int, second: int, first_root: bytes, second_root: bytes, proof: list[bytes]) -> bool:
    """Whether ``proof`` shows that the tree of ``second`` leaves with ``second_root`` extends the
    tree of ``first`` leaves with ``first_root`` (0 < first ≤ second)."""
    if first == second:
        return first_root == second_root and not proof
    if not 0 < first < second or not proof:
        return False
    if first & (first - 1) == 0:  # first is a power of two: its root is the proof's implicit start
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
