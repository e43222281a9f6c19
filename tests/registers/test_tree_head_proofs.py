"""Tree heads that sign each register's RFC 9162 Merkle root (format 2): proofs of one entry and
of consistency between two heads, of logarithmic size, served from stored subtrees and checked
offline by the auditor's script; format 1 heads keep verifying."""

import io
import json

import pytest
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from django.test.utils import CaptureQueriesContext

from ledgers.registers import merkle, trees
from ledgers.registers.models import Entry, TreeHead
from ledgers.registers.printing.register import qr_payload
from ledgers.registers.services import entries_bulk_append
from ledgers.registers.treeheads import (
    document,
    document_problem,
    leaf_hashes,
    register_checkpoint,
    tree_head_sign,
    tree_heads_seal,
    verify_tree_heads,
)
from ledgers.registers.verification import export_lines
from tests.registers.conftest import opened_register, triggers_bypassed
from tests.registers.test_evidence import append
from tests.registers.test_tree_heads import audit, public_hex, sealed_file
from witness import note


def resealed(head: TreeHead) -> None:
    """What whoever holds the server's key and the database can do: a tree head signed again."""
    with triggers_bypassed(TreeHead._meta.db_table):
        TreeHead.objects.filter(pk=head.pk).update(
            leaves=head.leaves,
            root_hash=head.root_hash,
            signature=head.signature,
            tree_hash=head.tree_hash,
            notes=head.notes,
        )


def head_of(part: dict) -> note.Checkpoint:
    """The register's checkpoint (origin, size, root) a format 3 proof carries."""
    return note.parse_checkpoint(note.split(part["checkpoint"])[0])


def proof_file(tmp_path, command: str, *args, name: str = "proof.json"):
    call_command(command, *map(str, args), stdout=(text := io.StringIO()))
    out = tmp_path / name
    out.write_text(text.getvalue(), encoding="utf-8")
    return out, json.loads(text.getvalue())


@pytest.mark.django_db
def test_reg_20_a_tree_head_signs_each_registers_merkle_root(mc, mc_staff, tmp_path):
    register = opened_register(mc, mc_staff)
    append(register, mc_staff, 6)
    head = json.loads(sealed_file(tmp_path).read_text())
    assert head["format"] == 2 and document_problem(head) is None
    (leaf,) = [leaf for leaf in head["leaves"] if leaf["register"] == register.number]
    hashes = list(Entry.objects.filter(register=register).order_by("seq").values_list("entry_hash", flat=True))
    assert leaf["seq"] == 7 and leaf["root"] == merkle.root([trees.entry_leaf(h) for h in hashes]).hex()
    checkpoint = register_checkpoint(register)
    assert (checkpoint.origin, checkpoint.size, checkpoint.root.hex()) == (
        f"{settings.LEDGERS_LOG_ORIGIN}/{register.number}",
        7,
        leaf["root"],
    )
    forged = {**head, "leaves": [{**x, "root": "0" * 64} if x is leaf else x for x in head["leaves"]]}
    assert "racine" in document_problem(forged)  # the signed root is over the leaves, Merkle roots included
    export = tmp_path / "export.jsonl"
    export.write_text("".join(line + "\n" for line in export_lines(register)), encoding="utf-8")
    done = audit(tmp_path / "tree-head.json", public_hex(), export)
    assert (done.returncode, done.stdout.strip()) == (0, "OK tree head mcb n° 1, 1 exports, no time-stamp")


@pytest.mark.django_db
def test_reg_20_a_format_1_tree_head_keeps_verifying_and_the_next_seal_signs_the_roots(mc, mc_staff, tmp_path):
    register = opened_register(mc, mc_staff)
    append(register, mc_staff, 2)
    call_command("seal_checkpoints", stdout=io.StringIO())
    # The head as sealed before the registers' roots were signed: [seq, hash] leaves, no format.
    head = TreeHead.objects.get(establishment=mc, number=1)
    head.leaves = {number: leaf[:2] for number, leaf in head.leaves.items()}
    head.root_hash = merkle.root(leaf_hashes(head.leaves)).hex()
    tree_head_sign(head)
    resealed(head)
    old = document(head)
    assert "format" not in old and "root" not in old["leaves"][0] and document_problem(old) is None
    assert register_checkpoint(register) is None  # it does not sign the register's Merkle root
    with pytest.raises(CommandError, match="Aucune tête d'arbre"):
        call_command("prove_entry", register.number, "1", stdout=io.StringIO())
    (tmp_path / "old.json").write_text(json.dumps(old), encoding="utf-8")
    export = tmp_path / "export.jsonl"
    export.write_text("".join(line + "\n" for line in export_lines(register)), encoding="utf-8")
    assert audit(tmp_path / "old.json", public_hex(), export).returncode == 0
    # Nothing moved, yet the next seal makes a format 2 head, chained to the format 1 one.
    (newer,) = tree_heads_seal()
    assert newer.number == 2 and newer.prev_hash == old["hash"] and len(newer.leaves[register.number]) == 3
    assert [finding for _name, finding in verify_tree_heads() if finding] == []
    (tmp_path / "new.json").write_text(json.dumps(document(newer)), encoding="utf-8")
    done = audit(tmp_path / "new.json", public_hex(), export, "--earlier", tmp_path / "old.json")
    assert done.returncode == 0 and "2 tree heads held in sequence" in done.stdout, done.stderr


@pytest.mark.django_db
def test_reg_20_proof_of_one_entry_is_logarithmic_and_checked_offline(mc, mc_staff, tmp_path, client):
    register = opened_register(mc, mc_staff)
    append(register, mc_staff, 5)
    with pytest.raises(CommandError, match="Aucune tête d'arbre"):
        call_command("prove_entry", register.number, "3", stdout=io.StringIO())
    call_command("seal_checkpoints", stdout=io.StringIO())  # tree head n° 1: 6 entries
    append(register, mc_staff, 3)
    call_command("seal_checkpoints", stdout=io.StringIO())  # n° 2: 9 entries
    out, proof = proof_file(tmp_path, "prove_entry", register.number, 3)
    assert (proof["format"], proof["tree_head"], head_of(proof).size, proof["entry"]["seq"]) == (3, 2, 9, 3)
    assert len(proof["inclusion"]) == 4 and "entries" not in proof  # ⌈log₂ 9⌉ hashes, not the entries after it
    assert head_of(proof).root.hex() == TreeHead.objects.get(establishment=mc, number=2).leaves[register.number][2]
    done = audit(out, public_hex())
    assert (done.returncode, done.stdout.strip()) == (
        0,
        f"OK {register.number} n° 3 in tree head n° 2 (9 entries, 4 hashes)",
    )
    _, older = proof_file(tmp_path, "prove_entry", register.number, 3, "--tree-head", 1)
    assert (older["tree_head"], head_of(older).size, len(older["inclusion"])) == (1, 6, 3)
    with pytest.raises(CommandError):
        call_command("prove_entry", register.number, "8", "--tree-head", "1", stdout=io.StringIO())  # sealed after
    for forged, message in (
        ({**proof, "entry": {**proof["entry"], "payload": {"forged": True}}}, "does not give its hash"),
        ({**proof, "inclusion": proof["inclusion"][::-1]}, "does not lead to a root the tree head signed"),
        ({**proof, "checkpoint": proof["checkpoint"].replace("\n9\n", "\n10\n")}, "not signed for"),
    ):
        out.write_text(json.dumps(forged), encoding="utf-8")
        done = audit(out, public_hex())
        assert done.returncode == 1 and message in done.stderr, done.stderr
    client.force_login(mc_staff.writer)
    served = client.get(f"/api/v1/registers/{register.number}/entries/3/proof/?tree_head=1")
    assert served.status_code == 200 and served.json() == older
    assert client.get(f"/api/v1/registers/{register.number}/entries/12/proof/").status_code == 404
    # A head sealed before the checkpoints' signatures were kept: the proof carries the whole
    # head (format 2), and the script still checks it.
    with triggers_bypassed(TreeHead._meta.db_table):
        TreeHead.objects.filter(establishment=mc, number=2).update(notes={})
    out, whole = proof_file(tmp_path, "prove_entry", register.number, 3)
    assert (whole["format"], whole["tree_head"]["number"], whole["leaf"]["seq"]) == (2, 2, 9)
    done = audit(out, public_hex())
    assert done.returncode == 0 and done.stdout.startswith(f"OK {register.number} n° 3 in tree head n° 2 (9 en")


@pytest.mark.django_db
def test_reg_20_consistency_between_two_tree_heads_checked_offline(mc, mc_staff, tmp_path, client):
    register = opened_register(mc, mc_staff)
    append(register, mc_staff, 4)
    call_command("seal_checkpoints", stdout=io.StringIO())  # n° 1: 5 entries
    append(register, mc_staff, 8)
    call_command("seal_checkpoints", stdout=io.StringIO())  # n° 2: 13 entries
    out, proof = proof_file(tmp_path, "prove_consistency", register.number, 1, 2)
    assert (proof["format"], head_of(proof["first"]).size, head_of(proof["second"]).size) == (3, 5, 13)
    done = audit(out, public_hex())
    assert (done.returncode, done.stdout.strip()) == (
        0,
        f"OK {register.number}: tree head n° 2 (13 entries) extends n° 1 (5 entries)",
    )
    client.force_login(mc_staff.writer)
    served = client.get(f"/api/v1/registers/{register.number}/consistency/?first=1")
    assert served.status_code == 200 and served.json() == proof
    assert client.get(f"/api/v1/registers/{register.number}/consistency/?first=3").status_code == 404
    with pytest.raises(CommandError):
        call_command("prove_consistency", register.number, "2", "1", stdout=io.StringIO())
    # An insider re-signs tree head n° 2 with another root for the register (a rewritten
    # history): it stands on its own, but does not extend tree head n° 1.
    head = TreeHead.objects.get(establishment=mc, number=2)
    head.leaves[register.number][2] = merkle.leaf_hash(b"another history").hex()
    head.root_hash = merkle.root(leaf_hashes(head.leaves)).hex()
    tree_head_sign(head)
    resealed(head)
    out, forked = proof_file(tmp_path, "prove_consistency", register.number, 1)
    assert (
        document_problem(document(head)) is None
        and head_of(forked["second"]).root.hex() == head.leaves[register.number][2]
    )
    done = audit(out, public_hex())
    assert done.returncode == 1 and "does not extend its tree of 5 entries (tree head n° 1)" in done.stderr


@pytest.mark.django_db
def test_reg_21_a_printed_pages_qr_code_leads_to_a_proof_of_its_entry(mc, mc_staff, tmp_path, client):
    register = opened_register(mc, mc_staff)
    append(register, mc_staff, 3)
    call_command("seal_checkpoints", stdout=io.StringIO())
    digest = register.entries.get(seq=2).entry_hash
    page = qr_payload(register.number, 2, digest, mc.code, 1, 4)
    client.force_login(mc_staff.writer)
    # What a phone does: the proof from the site the page names, against the head it names.
    served = client.get(f"/api/v1/registers/{register.number}/entries/2/proof/?tree_head=1")
    (tmp_path / "proof.json").write_text(served.content.decode(), encoding="utf-8")
    done = audit(tmp_path / "proof.json", public_hex(), "--qr", page)
    assert done.returncode == 0 and done.stdout.strip().endswith("; the printed page's entry"), done.stderr
    done = audit(tmp_path / "proof.json", public_hex(), "--qr", page.replace(" 2 ", " 3 "))
    assert done.returncode == 1 and "this proof is not of the printed page's entry" in done.stderr


@pytest.mark.postgresql  # COPY: the bulk path that builds 100k entries in seconds
@pytest.mark.django_db
def test_reg_20_the_proof_of_entry_1_of_a_large_register_stays_small_and_verifies(mc, mc_staff, tmp_path):
    register = opened_register(mc, mc_staff)
    entries_bulk_append(
        register=register,
        actor=mc_staff.writer,
        role=mc_staff.writer_role,
        payloads=({"n": i} for i in range(100_000 - 1)),
        batch_size=10_000,
    )
    call_command("seal_checkpoints", stdout=io.StringIO())
    with CaptureQueriesContext(connection) as queries:
        call_command("prove_entry", register.number, "1", stdout=(text := io.StringIO()))
    proof = json.loads(text.getvalue())
    assert head_of(proof).size == 100_000 and len(proof["inclusion"]) == 17
    # 17 hashes, the entry and the register's signed checkpoint, not the 100k entries after it nor
    # the establishment's whole tree head: the same size for entry 1 as for the last.
    assert len(json.dumps(proof, separators=(",", ":")).encode()) < 3_000  # 1.1 kB of hashes, the opening act
    assert len(queries) <= 6  # the register, the head, the entry, the stored subtrees: never a scan
    (tmp_path / "proof.json").write_text(text.getvalue(), encoding="utf-8")
    done = audit(tmp_path / "proof.json", public_hex())
    assert done.returncode == 0 and "(100000 entries," in done.stdout, done.stderr
