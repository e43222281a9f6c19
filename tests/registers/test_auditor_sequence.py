"""The auditor's script holds the tree heads it received as one sequence (numbers, chaining, each
register's head only moving on), and turns every problem into one line starting FAIL: an empty
export, a tampered or unreadable head file, a re-seal that numbers its heads from 1 again."""

import json

import pytest

from ledgers.registers.models import Checkpoint, MerkleNode, TreeHead
from ledgers.registers.verification import export_lines
from tests.registers.conftest import opened_register, triggers_bypassed
from tests.registers.test_chain_properties import run_sql
from tests.registers.test_evidence import append, rewrite
from tests.registers.test_tree_heads import audit, public_hex, sealed_file

pytestmark = pytest.mark.django_db


def exported(register, path):
    path.write_text("".join(line + "\n" for line in export_lines(register)), encoding="utf-8")
    return path


def one_fail_line(done) -> str:
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    (line,) = done.stderr.strip().splitlines()
    assert line.startswith("FAIL ")
    return line


def test_reg_20_heads_received_in_sequence_verify_together(mc, mc_staff, tmp_path):
    register = opened_register(mc, mc_staff)
    append(register, mc_staff, 2)
    first = sealed_file(tmp_path, "head-1.json")
    append(register, mc_staff, 2)
    second = sealed_file(tmp_path, "head-2.json")
    export = exported(register, tmp_path / "export.jsonl")
    done = audit(second, public_hex(), export, "--earlier", first)
    assert done.returncode == 0, done.stderr
    assert "2 tree heads held in sequence" in done.stdout
    assert audit(second, public_hex(), "--earlier", tmp_path).returncode == 0  # a directory of heads


def test_reg_20_a_full_re_seal_is_caught_by_the_head_already_received(mc, mc_staff, tmp_path):
    """The insider with the signing key rewrites an entry, removes every seal and seals again: the
    new head, numbered 1 again, stands on its own, but not beside the head 1 the auditor holds."""
    register = opened_register(mc, mc_staff)
    append(register, mc_staff, 3)
    received = sealed_file(tmp_path, "received.json")
    rewrite(register, 3, {"forged": True})
    with triggers_bypassed():
        run_sql(f"DELETE FROM {TreeHead._meta.db_table}", [])
        run_sql(f"DELETE FROM {Checkpoint._meta.db_table}", [])
        run_sql(f"DELETE FROM {MerkleNode._meta.db_table}", [])  # else the stale subtrees give it away
    resealed = sealed_file(tmp_path, "resealed.json")
    assert json.loads(resealed.read_text())["number"] == 1
    export = exported(register, tmp_path / "export.jsonl")
    assert audit(resealed, public_hex(), export).returncode == 0  # alone, it proves nothing wrong
    line = one_fail_line(audit(resealed, public_hex(), export, "--earlier", received))
    assert line == "FAIL tree head n° 1: two different heads with that number (a fork or a re-seal)"


def test_reg_20_a_later_head_that_does_not_chain_or_goes_back_fails(mc, mc_staff, tmp_path):
    register = opened_register(mc, mc_staff)
    append(register, mc_staff, 2)
    first = sealed_file(tmp_path, "head-1.json")
    append(register, mc_staff, 1)
    second = sealed_file(tmp_path, "head-2.json")
    append(register, mc_staff, 1)
    third = sealed_file(tmp_path, "head-3.json")
    # Held out of order and with a gap: still one sequence.
    assert audit(third, public_hex(), "--earlier", first).returncode == 0
    assert audit(first, public_hex(), "--earlier", third, "--earlier", second).returncode == 0
    # An export rewritten after head 2 fails against head 2's leaf even when only head 3 is checked.
    rewrite(register, 4, {"forged": True})
    export = exported(register, tmp_path / "export.jsonl")
    line = one_fail_line(audit(third, public_hex(), export, "--earlier", second))
    assert "not the entry tree head n° 2 signed" in line or "not the entry the tree head signed" in line


def test_an_empty_export_and_a_tampered_head_are_one_line_failures(mc, mc_staff, tmp_path):
    register = opened_register(mc, mc_staff)
    append(register, mc_staff, 1)
    head = sealed_file(tmp_path)
    empty = tmp_path / "awaiting.jsonl"
    empty.write_text("", encoding="utf-8")
    assert "empty export" in one_fail_line(audit(empty))
    assert "awaiting.jsonl: empty export" in one_fail_line(audit(head, public_hex(), empty))
    document = json.loads(head.read_text())
    tampered = tmp_path / "tampered.json"
    tampered.write_text(json.dumps({**document, "number": 7}), encoding="utf-8")
    line = one_fail_line(audit(tampered, public_hex()))
    assert line == "FAIL tree head n° 7: its signature does not verify under the public key given"
    tampered.write_text(head.read_text()[:-40], encoding="utf-8")
    assert one_fail_line(audit(tampered, public_hex())).startswith("FAIL unreadable input (JSONDecodeError")
    tampered.write_text(json.dumps({k: v for k, v in document.items() if k != "root"}), encoding="utf-8")
    assert "KeyError" in one_fail_line(audit(tampered, public_hex()))
    tampered.write_text(json.dumps({**document, "number": 7}), encoding="utf-8")
    assert "n° 7: its signature does not verify" in one_fail_line(audit(head, public_hex(), "--earlier", tampered))
