"""Signed tree heads, public keys, rotation, proofs of one entry and the auditor's script that
checks them with the public key alone."""

import io
import json
import os
import subprocess
import sys
from urllib.parse import urlsplit

import pytest
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import override_settings

from ledgers.registers import merkle
from ledgers.registers.models import TreeHead
from ledgers.registers.printing.register import RegisterPrint, qr_path, qr_payload, render_register
from ledgers.registers.signing import load_private, new_private_pem, public_keys, raw_public
from ledgers.registers.treeheads import document_problem, tree_heads_seal
from ledgers.registers.verification import export_lines, verify_register
from tests.registers.conftest import opened_register
from tests.registers.test_evidence import append, rewrite

VERIFY = settings.BASE_DIR / "docs" / "verify_export.py"
HOST = urlsplit(settings.NOTIFICATIONS_SITE_URL).netloc.upper()  # as a printed page's QR code names it


def public_hex(private: str = "") -> str:
    return raw_public(load_private(private or settings.LEDGERS_SIGNING_KEY).public_key()).hex()


def audit(*args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(VERIFY), *map(str, args)], capture_output=True, text=True, check=False)


def sealed_file(tmp_path, name: str = "tree-head.json"):
    out = tmp_path / name
    call_command("seal_checkpoints", "--out", str(out), stdout=io.StringIO())
    return out


def test_merkle_inclusion_proofs_of_rfc_6962_trees_of_every_shape():
    for size in range(1, 18):
        leaves = [merkle.leaf_hash(bytes([i])) for i in range(size)]
        top = merkle.root(leaves)
        for index in range(size):
            path = merkle.inclusion_path(index, leaves)
            assert merkle.inclusion_valid(leaves[index], index, size, path, top)
            assert not merkle.inclusion_valid(merkle.leaf_hash(b"x"), index, size, path, top)
    # RFC 6962 hashing: a two-leaf tree is SHA-256(0x01 ‖ leaf0 ‖ leaf1), leaves prefixed 0x00.
    a, b = merkle.leaf_hash(b"a"), merkle.leaf_hash(b"b")
    assert merkle.root([a, b]) == merkle.node_hash(a, b) and a != merkle.leaf_hash(b"\x00a")


@pytest.mark.django_db
def test_reg_20_tree_heads_chain_and_stand_on_their_own(mc, mc_staff, tmp_path):
    first, second = opened_register(mc, mc_staff), opened_register(mc, mc_staff)
    append(first, mc_staff, 3)
    out = sealed_file(tmp_path)
    head = json.loads(out.read_text())
    # The house's volumes, with its register of authorisations (the staff's roles).
    assert head["number"] == 1 and head["prev"] == "0" * 64 and head["size"] == 3
    leaves = [leaf["register"] for leaf in head["leaves"]]
    assert [number for number in leaves if "-HABILITATIONS-" not in number] == sorted([first.number, second.number])
    assert document_problem(head) is None
    assert tree_heads_seal() == []  # nothing moved: no new tree head
    append(second, mc_staff, 1)
    call_command("seal_checkpoints", stdout=io.StringIO())
    newer = TreeHead.objects.get(establishment=mc, number=2)
    assert newer.prev_hash == head["hash"]
    forged = {**head, "root": "0" * 64}
    assert "signature" in document_problem(forged)
    # A leaf is hashed once for every head that repeats it, but only a leaf of the same bytes.
    for seq in (float(head["leaves"][0]["seq"]), [head["leaves"][0]["seq"]]):
        altered = {**head, "leaves": [{**head["leaves"][0], "seq": seq}, *head["leaves"][1:]]}
        assert "racine" in document_problem(altered)
    with override_settings(LEDGERS_SIGNING_KEY=new_private_pem()):
        assert "clé inconnue" in document_problem(head)  # the earlier key is no longer published


@pytest.mark.django_db
def test_reg_20_rotation_keeps_earlier_seals_verifying(mc, mc_register, mc_staff, tmp_path):
    append(mc_register, mc_staff, 2)
    call_command("seal_checkpoints", stdout=io.StringIO())
    earlier, newer = public_hex(), new_private_pem()
    with override_settings(LEDGERS_SIGNING_KEY=newer, LEDGERS_PUBLIC_KEYS=[earlier]):
        append(mc_register, mc_staff, 1)
        out = sealed_file(tmp_path)
        assert len(public_keys()) == 2
        assert verify_register(mc_register) is None
        call_command("verify_ledgers", "--tree-head", str(out), stdout=io.StringIO())
    assert audit(out, public_hex(newer)).returncode == 0
    with override_settings(LEDGERS_SIGNING_KEY=newer, LEDGERS_PUBLIC_KEYS=[]):
        assert verify_register(mc_register).code == "checkpoint_mac"  # its key withdrawn: not verifiable


def test_the_development_key_is_refused_when_debug_is_off():
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    env.update(DEBUG="0", SECRET_KEY="x" * 50, LEDGERS_SIGNING_KEY=settings.DEV_SIGNING_KEY)
    done = subprocess.run(
        [sys.executable, "-c", "import casino_compliance.settings"],
        cwd=settings.BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode != 0 and "must not be the development key" in done.stderr


@pytest.mark.django_db
def test_reg_20_the_auditor_checks_a_tree_head_and_exports_with_the_public_key_alone(mc, mc_staff, tmp_path):
    register = opened_register(mc, mc_staff)
    append(register, mc_staff, 4)
    out = sealed_file(tmp_path)
    export = tmp_path / "export.jsonl"
    export.write_text("".join(line + "\n" for line in export_lines(register)), encoding="utf-8")
    done = audit(out, public_hex(), export)
    assert (done.returncode, done.stdout.strip()) == (0, "OK tree head mcb n° 1, 1 exports, no time-stamp")
    assert audit(out, public_hex(new_private_pem())).returncode == 1  # another key: InvalidSignature
    rewrite(register, 3, {"forged": True})
    export.write_text("".join(line + "\n" for line in export_lines(register)), encoding="utf-8")
    done = audit(out, public_hex(), export)
    assert done.returncode == 1 and "n° 5: not the entry the tree head signed" in done.stderr
    with pytest.raises(CommandError):
        call_command("verify_ledgers", "--tree-head", str(out), stdout=(text := io.StringIO()))
    assert f"ÉCHEC\t{register.number} n° 5 : l'entrée ne correspond plus" in text.getvalue()


@pytest.mark.django_db
def test_public_keys_are_served_to_anyone(client):
    keys = client.get("/api/v1/registers/public-keys/").json()["keys"]
    assert [k["public_key"] for k in keys] == [public_hex()]
    page = client.get("/registres/cles-publiques/")
    assert page.status_code == 200 and public_hex() in page.content.decode()


@pytest.mark.django_db
def test_reg_21_a_page_qr_payload_checks_against_an_export(mc, mc_staff):
    register = opened_register(mc, mc_staff)
    append(register, mc_staff, 2)
    call_command("seal_checkpoints", stdout=io.StringIO())
    printer = RegisterPrint(register, head_seq=3, head_hash=register.entries.get(seq=3).entry_hash, lang="fr")
    digest = register.entries.get(seq=3).entry_hash
    payload = qr_payload(register.number, 3, digest, mc.code, printer.tree_head, printer.tree_size)
    tag, number, seq, digest, code, tree_head, size, host = payload.split(" ")
    assert (tag, number, code, tree_head, size, host) == ("LEDGER2", register.number, "MCB", "1", "3", HOST)
    assert qr_path(payload)[0] <= 41  # alphanumeric mode: no larger than format 1's shorter text in byte mode
    digest = digest.lower()
    exported = {json.loads(line)["seq"]: json.loads(line)["entry_hash"] for line in export_lines(register)}
    assert exported[int(seq)] == digest
    assert render_register(register, io.BytesIO()).pages >= 1  # the footer draws it on every page


@pytest.mark.django_db
def test_reg_21_the_auditor_checks_a_printed_pages_qr_code_against_an_export_and_a_tree_head(
    mc, mc_staff, tmp_path, monkeypatch
):
    register = opened_register(mc, mc_staff)
    append(register, mc_staff, 3)
    first = sealed_file(tmp_path, "tree-head-1.json")  # covers n° 4
    append(register, mc_staff, 2)
    drawn = []  # the text of every QR code the printed register draws
    draw = RegisterPrint._qr
    monkeypatch.setattr(RegisterPrint, "_qr", staticmethod(lambda c, text: (drawn.append(text), draw(c, text))))
    render_register(register, io.BytesIO())
    page = drawn[-1]
    digest = register.entries.get(seq=6).entry_hash
    # Printed after tree head n° 1, which holds the register's first 4 entries.
    assert page == f"LEDGER2 {register.number} 6 {digest.upper()} MCB 1 4 {HOST}"
    append(register, mc_staff, 1)
    export = tmp_path / "export.jsonl"
    export.write_text("".join(line + "\n" for line in export_lines(register)), encoding="utf-8")
    # Tree head n° 1 was sealed before the page's last entry: it does not cover it.
    done = audit(first, public_hex(), export, "--qr", page)
    assert done.returncode == 1 and f"{register.number} n° 6: not covered by this tree head" in done.stderr
    second = sealed_file(tmp_path, "tree-head-2.json")  # covers n° 7, hence n° 6 through the chain
    (tmp_path / "qr.txt").write_text(page + "\n", encoding="utf-8")
    for qr in (page, tmp_path / "qr.txt"):  # the decoded text, or a file of it
        done = audit(second, public_hex(), export, "--qr", qr)
        assert (done.returncode, done.stdout.strip()) == (
            0,
            f"OK tree head mcb n° 2, 1 exports, no time-stamp; printed page {register.number} n° 6 "
            "(tree head n° 1 when printed) covered",
        ), done.stderr
    done = audit(second, public_hex(), export, "--qr", page.replace(digest.upper(), "0" * 64))
    assert done.returncode == 1 and "n° 6: not the entry the printed page shows" in done.stderr
    done = audit(second, public_hex(), "--qr", page)
    assert done.returncode == 1 and f"give the export of {register.number}" in done.stderr
    done = audit(second, public_hex(), export, "--qr", "LEDGER1;nothing")
    assert done.returncode == 1 and "not the QR code of a printed page" in done.stderr
    # The export rewritten from before the page on: it no longer holds the tree head's entry.
    rewrite(register, 5, {"forged": True})
    export.write_text("".join(line + "\n" for line in export_lines(register)), encoding="utf-8")
    done = audit(second, public_hex(), export, "--qr", page)
    assert done.returncode == 1 and "n° 7: not the entry the tree head signed" in done.stderr
