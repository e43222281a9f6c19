"""The witness's C2SP formats and rules without a server: the specifications' own examples, its
consistency check against the registers' proofs, its SQLite store and its alarm for silent logs."""

import base64
import hashlib
import sqlite3

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from ledgers.registers import merkle
from witness import note
from witness.merkle import consistent
from witness.monitor import Silence, silent_logs
from witness.server import Witness
from witness.store import Head, Store

# c2sp.org/signed-note, "Verifier keys": this vkey verifies this note.
SPEC_VKEY = "example.com/foo+530d903a+AekyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U2k"
SPEC_NOTE = (
    "This is an example message.\n\n— example.com/foo "
    "Uw2QOkn8srV1yJGh2VYRlL1Tnagv1YEq6TfXppzi2ONncAlTgK7Ztg1ERYNZXsYjOBH3mFXmRKuwHjG1Yu72IneyaQM=\n"
)


def test_the_signed_note_specification_example_verifies_and_a_changed_one_does_not():
    key = note.parse_vkey(SPEC_VKEY)
    assert str(key) == SPEC_VKEY
    assert note.verify(SPEC_NOTE, [key]) == "This is an example message.\n"
    with pytest.raises(note.NoteError, match="does not verify"):
        note.verify(SPEC_NOTE.replace("example message", "example massage"), [key])
    other = note.Verifier("example.com/bar", note.ED25519, key.public)
    with pytest.raises(note.NoteError, match="no signature from a trusted key"):  # unknown keys are ignored
        note.verify(SPEC_NOTE, [other])


def test_a_cosignature_binds_the_time_and_the_checkpoint():
    key = Ed25519PrivateKey.generate()
    cosigner = note.Verifier("w.example/1", note.COSIGNATURE_V1, note.raw_public(key.public_key()))
    text = note.Checkpoint("log.example/R", 3, hashlib.sha256(b"r").digest()).text
    line = note.cosign(text, cosigner.name, key, 1_700_000_000)
    assert note.cosignature_time(text, line, cosigner) == 1_700_000_000
    other = note.Checkpoint("log.example/R", 4, hashlib.sha256(b"r").digest()).text
    assert note.cosignature_time(other, line, cosigner) is None
    raw = base64.b64decode(line.split(" ")[2])
    later = raw[:4] + (1_700_000_001).to_bytes(8, "big") + raw[12:]
    assert note.cosignature_time(text, f"— w.example/1 {base64.b64encode(later).decode()}\n", cosigner) is None


def test_the_witness_checks_consistency_as_the_registers_prove_it():
    leaves = [merkle.leaf_hash(bytes([i])) for i in range(20)]

    def node(level: int, index: int) -> bytes:
        return merkle.root(leaves[index << level : (index + 1) << level])

    for second in range(1, 21):
        for first in range(1, second + 1):
            proof = merkle.consistency_proof(first, second, node)
            a, b = merkle.root(leaves[:first]), merkle.root(leaves[:second])
            assert consistent(first, second, a, b, proof)
            assert not consistent(first, second, merkle.leaf_hash(b"x"), b, proof)
            if first < second:
                assert not consistent(first, second, a, merkle.leaf_hash(b"x"), proof)


def test_the_sqlite_store_keeps_every_cosigned_head_and_refuses_the_empty_trees_rules(tmp_path):
    log, witness_key = Ed25519PrivateKey.generate(), Ed25519PrivateKey.generate()
    log_key = note.Verifier("log.example", note.ED25519, note.raw_public(log.public_key()))
    store = Store(str(tmp_path / "w.sqlite3"))
    store.migrate()
    with store.transaction() as tx:
        tx.add_log(str(log_key), 0)
    witness = Witness(store, "w.example/1", witness_key)

    def signed(size: int, root: bytes) -> str:
        text = note.Checkpoint("log.example/R", size, root).text
        return f"{text}\n{note.sign(text, 'log.example', log)}"

    assert witness.add_checkpoint(f"old 0\n\n{signed(0, b'x' * 32)}".encode()).status == 422  # not the empty root
    assert witness.add_checkpoint(f"old 0\n\n{signed(0, note.EMPTY_ROOT)}".encode()).status == 200
    proof = base64.b64encode(b"p" * 32).decode()
    assert witness.add_checkpoint(f"old 0\n{proof}\n\n{signed(1, b'a' * 32)}".encode()).status == 422
    assert witness.add_checkpoint(f"old 0\n\n{signed(1, b'a' * 32)}".encode()).status == 200
    assert witness.add_checkpoint(b"old 01\n\nx").status == 400
    with store.transaction() as tx:
        assert [h.size for h in tx.heads()] == [0, 1] and len(tx.refusals()) == 2
    db = sqlite3.connect(tmp_path / "w.sqlite3")
    with pytest.raises(sqlite3.IntegrityError, match="never changes"):
        db.execute("DELETE FROM cosigned")


def vkey(name: str) -> str:
    return str(note.Verifier(name, note.ED25519, note.raw_public(Ed25519PrivateKey.generate().public_key())))


def test_a_log_is_silent_from_its_newest_cosignature_over_all_the_origins_its_key_covers(tmp_path):
    store = Store(str(tmp_path / "w.sqlite3"))
    store.migrate()
    hour = 3600
    with store.transaction() as tx:
        tx.add_log(vkey("casino.example"), 0)
        tx.add_log(vkey("casino.example"), 5 * hour)  # its key after a rotation: the same log
        tx.add_log(vkey("casino.example.org"), 0)  # another log, whose name only starts alike
        tx.add_log(vkey("new.example"), 9 * hour)
        for origin, size, at in (
            ("casino.example/A", 3, 1 * hour),
            ("casino.example/B", 8, 6 * hour),  # the newest of the log's registers
            ("casino.example/A", 5, 2 * hour),
            ("casino.example.org/A", 1, 7 * hour),
        ):
            tx.cosigned(Head(origin, size, "root", "note", at))
    now = 10 * hour
    assert silent_logs(store, 60, now) == [
        Silence("casino.example", 6 * hour, "casino.example/B", 8),
        Silence("casino.example.org", 7 * hour, "casino.example.org/A", 1),
    ]
    assert silent_logs(store, 60, 9 * hour + 61 * 60) == [
        Silence("casino.example", 6 * hour, "casino.example/B", 8),
        Silence("casino.example.org", 7 * hour, "casino.example.org/A", 1),
        Silence("new.example", 9 * hour),  # trusted, never cosigned: silent once the age has passed
    ]
    assert silent_logs(store, 4 * 60 + 1, now) == []
    assert Silence("new.example", 9 * hour).line(now) == (
        "SILENT\tnew.example\tnever cosigned since trusted at 1970-01-01T09:00:00Z\t60 min ago"
    )
