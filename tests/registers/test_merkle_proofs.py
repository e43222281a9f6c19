"""RFC 9162 proofs computed from stored subtrees: the same as the RFC's definitions over the
leaves, of logarithmic size, and checked by their verifiers; a register's tree is extended at
each size from its new entries only."""

import pytest

from ledgers.registers import merkle, trees
from ledgers.registers.models import Entry, MerkleNode
from ledgers.registers.services import entries_bulk_append
from tests.registers.conftest import opened_register


def perfect_nodes(leaves: list[bytes]):
    def node(level: int, index: int) -> bytes:
        width = 1 << level
        return merkle.root(leaves[index * width : (index + 1) * width])

    return node


def reference_consistency(m: int, leaves: list[bytes], whole: bool = True) -> list[bytes]:
    n = len(leaves)
    if m == n:
        return [] if whole else [merkle.root(leaves)]
    k = 1 << ((n - 1).bit_length() - 1)
    if m <= k:
        return [*reference_consistency(m, leaves[:k], whole), merkle.root(leaves[k:])]
    return [*reference_consistency(m - k, leaves[k:], False), merkle.root(leaves[:k])]


def test_proofs_from_stored_subtrees_are_the_rfc_proofs_and_verify():
    for n in range(1, 34):
        leaves = [merkle.leaf_hash(bytes([i])) for i in range(n)]
        node, top = perfect_nodes(leaves), merkle.root(leaves)
        assert merkle.range_hash(0, n, node) == top
        for i in range(n):
            path = merkle.inclusion_proof(i, n, node)
            assert path == merkle.inclusion_path(i, leaves)
            assert merkle.inclusion_valid(leaves[i], i, n, path, top)
        for m in range(1, n + 1):
            proof = merkle.consistency_proof(m, n, node)
            assert proof == reference_consistency(m, leaves)
            first = merkle.root(leaves[:m])
            assert merkle.consistency_valid(m, n, first, top, proof)
            assert not merkle.consistency_valid(m, n, merkle.leaf_hash(b"x"), top, proof)
            if m < n:  # a tree that is not an extension: one of the first m leaves replaced
                forked = [*leaves[: m - 1], merkle.leaf_hash(b"fork"), *leaves[m:]]
                assert not merkle.consistency_valid(m, n, first, merkle.root(forked), proof)


@pytest.mark.django_db
def test_a_register_tree_extended_at_each_seal_gives_the_proofs_of_its_entries(mc, mc_staff):
    register = opened_register(mc, mc_staff)
    sizes = []
    for count in (4, 1, 9, 17, 30, 70):  # sizes on and off the stored subtrees' 16-leaf grid
        entries_bulk_append(
            register=register,
            actor=mc_staff.writer,
            role=mc_staff.writer_role,
            payloads=[{"n": i} for i in range(count)],
        )
        register.refresh_from_db()
        trees.extend(register, register.head_seq)
        sizes.append(register.head_seq)
    hashes = list(Entry.objects.filter(register=register).order_by("seq").values_list("entry_hash", flat=True))
    leaves = [trees.entry_leaf(h) for h in hashes]
    # The complete subtrees of 16 leaves and more (n >> level of each level); those below are hashed
    # from the entries.
    n = len(leaves)
    stored = MerkleNode.objects.filter(register=register)
    assert stored.count() == sum(n >> level for level in range(trees.BOTTOM, n.bit_length()))
    assert not stored.filter(level__lt=trees.BOTTOM).exists()
    for size in sizes:
        assert trees.root(register, size) == merkle.root(leaves[:size])
    top = trees.root(register, n)
    for seq in (1, 2, n // 2, n):
        assert merkle.inclusion_valid(leaves[seq - 1], seq - 1, n, trees.inclusion(register, seq, n), top)
    for m in sizes:
        assert merkle.consistency_valid(m, n, trees.root(register, m), top, trees.consistency(register, m, n))


@pytest.mark.postgresql  # COPY: the bulk path that builds 100k entries in seconds
@pytest.mark.django_db
def test_the_proof_of_an_early_entry_stays_logarithmic_at_100k_entries(mc, mc_staff):
    register = opened_register(mc, mc_staff)
    entries_bulk_append(
        register=register,
        actor=mc_staff.writer,
        role=mc_staff.writer_role,
        payloads=({"n": i} for i in range(100_000 - 1)),
        batch_size=10_000,
    )
    register.refresh_from_db()
    n = register.head_seq
    assert n == 100_000
    trees.extend(register, n)
    top = trees.root(register, n)
    first = Entry.objects.get(register=register, seq=1).entry_hash
    path = trees.inclusion(register, 1, n)
    assert len(path) == (n - 1).bit_length() == 17  # 17 hashes: 544 bytes, not the 100k entries after it
    assert merkle.inclusion_valid(trees.entry_leaf(first), 0, n, path, top)
    proof = trees.consistency(register, 1000, n)
    assert len(proof) <= 2 * n.bit_length()
    assert merkle.consistency_valid(1000, n, trees.root(register, 1000), top, proof)
