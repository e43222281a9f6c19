"""The regulator's witness (python -m witness, run here as a real server with its own PostgreSQL
database) cosigns each register's sealed head as a C2SP checkpoint, refuses a head that goes back
or diverges from the last one it cosigned, and verify_ledgers and the auditor's script hold the
registers to its cosignatures."""

import base64
import datetime
import hashlib
import io
import json
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid
from contextlib import suppress
from pathlib import Path

import psycopg
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from django.db.models import QuerySet
from django.test import override_settings
from django.utils import timezone

from ledgers.registers import cosign, merkle, trees
from ledgers.registers.models import Checkpoint, Cosignature, Entry, Register
from ledgers.registers.services import checkpoints_seal
from ledgers.registers.treeheads import (
    checkpoint_signature,
    log_origin,
    newest_document,
    register_checkpoint,
    tree_heads_seal,
)
from ledgers.registers.verification import export_lines
from tests.registers.conftest import triggers_bypassed
from tests.registers.test_evidence import append, rewrite, truncate
from witness import note
from witness.store import Head, Store

pytestmark = [pytest.mark.postgresql, pytest.mark.django_db]
NAME = "regulator.example/witness"
VERIFY = settings.BASE_DIR / "docs" / "verify_checkpoint.py"


class WitnessServer:
    """``python -m witness serve`` in a child process, on a free port, with its own database."""

    def __init__(self, tmp_path: Path, db: str) -> None:
        self.key, self.db, self.port, self.process = tmp_path / "witness.pem", db, 0, None
        self.vkey = self.cli("keygen", "--key", self.key, "--name", NAME).strip()
        self.cli("add-log", "--db", db, cosign.log_vkey())

    def cli(self, *args) -> str:
        done = subprocess.run(
            [sys.executable, "-m", "witness", *map(str, args)],
            capture_output=True,
            text=True,
            check=True,
            cwd=settings.BASE_DIR,
        )
        return done.stdout

    def start(self) -> None:
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "witness",
                "serve",
                "--db",
                self.db,
                "--key",
                self.key,
                "--name",
                NAME,
                "--listen",
                f"127.0.0.1:{self.port}",
            ],
            stdout=subprocess.PIPE,
            text=True,
            cwd=settings.BASE_DIR,
        )
        self.port = int(self.process.stdout.readline().strip().rsplit(":", 1)[1].strip("/"))

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=10)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def post(self, body: str) -> tuple[int, str]:
        request = urllib.request.Request(f"{self.url}/add-checkpoint", data=body.encode(), method="POST")
        try:
            with urllib.request.urlopen(request, timeout=5) as response:
                return response.status, response.read().decode()
        except urllib.error.HTTPError as exc:
            return exc.code, exc.read().decode()


@pytest.fixture
def witness_db():
    """A PostgreSQL database of the witness's own, on the same server as the casino's test database."""
    params = connection.get_connection_params()
    server = {k: params[k] for k in ("host", "port", "user", "password") if params.get(k)}
    name = f"witness_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(dbname="postgres", autocommit=True, **server) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    auth = f"{server['user']}:{server.get('password', '')}@" if server.get("user") else ""
    yield f"postgresql://{auth}{server.get('host', 'localhost')}:{server.get('port', 5432)}/{name}"
    with psycopg.connect(dbname="postgres", autocommit=True, **server) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture
def witness(tmp_path, witness_db):
    server = WitnessServer(tmp_path, witness_db)
    server.start()
    with override_settings(LEDGERS_WITNESSES=[{"url": server.url, "vkey": server.vkey}]):
        yield server
    with suppress(ProcessLookupError):
        server.stop()


def only(register) -> QuerySet[Register]:
    """The register under test (its establishment has others, the register of authorisations)."""
    return Register.objects.filter(pk=register.pk)


def seal(register) -> list[cosign.Outcome]:
    """What each sealing does: checkpoints, tree heads, then the witnesses asked."""
    assert all(isinstance(r, Checkpoint) for r in checkpoints_seal(registers=only(register)))
    tree_heads_seal()
    return cosign.cosignatures_request(registers=only(register))


def signed(text: str) -> str:
    """A checkpoint's text signed with the casino's key, as the tree heads sign it."""
    return f"{text}\n\u2014 {settings.LEDGERS_LOG_ORIGIN} {checkpoint_signature(text)}\n"


def verify(*args) -> tuple[str, str | None]:
    out = io.StringIO()
    try:
        call_command("verify_ledgers", "--chain-only", *args, stdout=out)
    except CommandError as exc:
        return out.getvalue(), str(exc)
    return out.getvalue(), None


def reseal_from_scratch(register) -> None:
    """What the owner holding the signing key can do after rewriting: remove every seal, tree head,
    subtree and cosignature of the register, and seal it anew."""
    with triggers_bypassed(), connection.cursor() as cursor:
        cursor.execute(
            "DELETE FROM registers_cosignature WHERE checkpoint_id IN "
            "(SELECT id FROM registers_checkpoint WHERE register_id = %s)",
            [register.pk],
        )
        for table in ("registers_checkpoint", "registers_merklenode"):
            cursor.execute(f"DELETE FROM {table} WHERE register_id = %s", [register.pk])
        cursor.execute("DELETE FROM registers_treehead WHERE establishment_id = %s", [register.establishment_id])
    assert all(isinstance(r, Checkpoint) for r in checkpoints_seal(registers=only(register), full=True))
    tree_heads_seal()


def test_reg_20_each_seal_is_cosigned_by_the_witness(mc_register, mc_staff, witness, tmp_path):
    append(mc_register, mc_staff, 3)
    assert [o.status for o in seal(mc_register)] == ["cosigned"]
    append(mc_register, mc_staff, 4)
    assert [o.status for o in seal(mc_register)] == ["cosigned"]  # from the first head, with a consistency proof
    assert seal(mc_register) == []  # nothing new: not asked again
    cosignatures = list(Cosignature.objects.order_by("checkpoint__seq"))
    assert [c.checkpoint.seq for c in cosignatures] == [4, 8] and {c.witness for c in cosignatures} == {NAME}
    head = register_checkpoint(mc_register)
    assert cosignatures[-1].root == head.root.hex() == trees.root(mc_register, 8).hex()

    # The witness kept both heads, each with the casino's signature and its own cosignature.
    heads = witness.cli("heads", "--db", witness.db)
    assert heads.count(f"\n\u2014 {NAME} ") == 2
    newest = log_origin(mc_register) + heads.rpartition(log_origin(mc_register))[2]
    text = note.verify(newest.rstrip("\n") + "\n", [note.parse_vkey(cosign.log_vkey())])
    assert note.parse_checkpoint(text) == head

    out, failed = verify()
    assert failed is None, out
    assert f"COSIGNATURE\t{mc_register.number}\t{NAME}\tla plus récente il y a 0 min" in out
    assert "LACUNE" not in out

    # The auditor: the checkpoint the witness serves, its cosignature and the register's export, offline.
    served = urllib.request.urlopen(
        f"{witness.url}/{hashlib.sha256(log_origin(mc_register).encode()).hexdigest()}/checkpoint"
    ).read()
    (tmp_path / "checkpoint.txt").write_bytes(served)
    export = tmp_path / "register.jsonl"
    export.write_text("".join(line + "\n" for line in export_lines(mc_register)), encoding="utf-8")
    ok = audit(tmp_path / "checkpoint.txt", cosign.log_vkey(), witness.vkey, export)
    assert ok.returncode == 0, ok.stderr
    assert ok.stdout.startswith(f"OK {log_origin(mc_register)} n° 8 cosigned by {NAME} ")

    # A proof of one entry carries the same checkpoint, with the witness's cosignature: the
    # phone's check needs nothing else than the casino's key and the witness's.
    call_command("prove_entry", mc_register.number, "3", stdout=(printed := io.StringIO()))
    proof = tmp_path / "proof.json"
    proof.write_text(printed.getvalue(), encoding="utf-8")
    assert json.loads(printed.getvalue())["checkpoint"] == served.decode()
    ok = audit(proof, cosign.log_vkey(), witness.vkey)
    assert ok.returncode == 0 and ok.stdout.startswith(f"OK {log_origin(mc_register)} n° 8 cosigned by {NAME} ")
    public = note.parse_vkey(cosign.log_vkey()).public.hex()
    checked = subprocess.run(
        [sys.executable, str(VERIFY.parent / "verify_export.py"), proof, public], capture_output=True, text=True
    )
    expected = f"OK {mc_register.number} n° 3 in tree head n° 2 (8 entries, 3 hashes), 1 witness cosignatures"
    assert checked.stdout.strip() == expected, checked.stderr


def audit(*args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(VERIFY), *map(str, args)], capture_output=True, text=True, check=False)


def test_reg_20_the_auditor_needs_a_witness_cosignature_over_the_export(mc_register, mc_staff, witness, tmp_path):
    append(mc_register, mc_staff, 2)
    seal(mc_register)
    served = (
        urllib.request.urlopen(
            f"{witness.url}/{hashlib.sha256(log_origin(mc_register).encode()).hexdigest()}/checkpoint"
        )
        .read()
        .decode()
    )
    export = tmp_path / "register.jsonl"
    export.write_text("".join(line + "\n" for line in export_lines(mc_register)), encoding="utf-8")
    checkpoint = tmp_path / "checkpoint.txt"
    # Without the witness's cosignature line: the casino's signature alone is not enough.
    checkpoint.write_text("".join(line + "\n" for line in served.splitlines() if NAME not in line))
    refused = audit(checkpoint, cosign.log_vkey(), witness.vkey, export)
    assert refused.returncode == 1 and "no valid cosignature" in refused.stderr
    # Another register's export under this checkpoint.
    checkpoint.write_text(served)
    other = tmp_path / "other.jsonl"
    rewrite(mc_register, 2, {"n": "réécrit"})
    other.write_text("".join(line + "\n" for line in export_lines(mc_register)), encoding="utf-8")
    forked = audit(checkpoint, cosign.log_vkey(), witness.vkey, other)
    assert forked.returncode == 1 and "root" in forked.stderr


def test_reg_20_a_full_reseal_after_a_rewrite_is_refused_by_the_witness(mc_register, mc_staff, witness):
    append(mc_register, mc_staff, 5)
    assert [o.status for o in seal(mc_register)] == ["cosigned"]
    rewrite(mc_register, 3, {"n": "réécrit"})
    reseal_from_scratch(mc_register)
    # The casino no longer holds any cosignature: it asks from 0, the witness answers with its size
    # (409), and the rewritten tree's consistency proof from that size does not hold (422).
    (outcome,) = cosign.cosignatures_request(registers=only(mc_register))
    assert outcome.status == "refused" and outcome.detail.startswith("422 not consistent"), outcome
    assert not Cosignature.objects.exists()
    refused = witness.cli("refused", "--db", witness.db)
    assert f"{log_origin(mc_register)}\told 6\tsize 6" in refused and "\t422\t" in refused

    out, failed = verify()
    assert failed and "n'est plus celle du registre (réécrit)" in failed, out
    # Offline, only the stored cosignatures: none is missing yet, and then one is, past the delay.
    assert verify("--offline")[1] is None
    with override_settings(LEDGERS_WITNESS_MAX_DELAY_MINUTES=0):
        assert "sans cosignature de regulator.example/witness" in verify("--offline")[1]


def test_reg_20_a_head_forking_from_the_witnesss_is_refused(mc_register, mc_staff, witness):
    append(mc_register, mc_staff, 4)
    seal(mc_register)  # the witness holds the head of 5 entries
    origin = log_origin(mc_register)
    leaves = [
        trees.entry_leaf(h)
        for h in Entry.objects.filter(register=mc_register).order_by("seq").values_list("entry_hash", flat=True)
    ]
    # A tree of 8 leaves whose second one differs: signed with the key, with its own consistency proof.
    forked = [leaves[0], merkle.leaf_hash(b"fork"), *leaves[2:], *(merkle.leaf_hash(bytes([i])) for i in range(3))]
    proof = merkle.consistency_proof(5, 8, lambda level, i: merkle.root(forked[i << level : (i + 1) << level]))
    lines = "".join(base64.b64encode(h).decode() + "\n" for h in proof)
    head = signed(note.Checkpoint(origin, 8, merkle.root(forked)).text)
    assert witness.post(f"old 5\n{lines}\n{head}") == (
        422,
        "not consistent with the checkpoint of size 5 cosigned before\n",
    )
    same_size = signed(note.Checkpoint(origin, 5, merkle.root(forked[:5])).text)
    assert witness.post(f"old 5\n\n{same_size}")[0] == 422
    back = signed(note.Checkpoint(origin, 3, merkle.root(leaves[:3])).text)
    assert witness.post(f"old 3\n\n{back}") == (409, "5\n")  # not the size it cosigned last
    assert witness.post(f"old 5\n\n{back}")[0] == 400  # an old size above the new one
    text = note.Checkpoint(origin, 5, merkle.root(leaves[:5])).text
    assert (
        witness.post(f"old 5\n\n{text}\n{note.sign(text, settings.LEDGERS_LOG_ORIGIN, witness_key(witness))}")[0] == 403
    )  # signed by another key under the casino's name
    unknown = signed(note.Checkpoint("elsewhere.example/R", 1, leaves[0]).text)
    assert witness.post(f"old 0\n\n{unknown}")[0] == 404
    assert witness.cli("refused", "--db", witness.db).count(f"\t{origin}\told 5\t") == 2  # the signed forks, kept
    assert witness.post(f"old 5\n\n{signed(text)}")[0] == 200  # its own head still holds

    # In the casino's database, a rewrite under a stored cosignature: it no longer bears on the register.
    rewrite(mc_register, 2, {"n": "réécrit"})
    report = cosign.cosignatures_verify(mc_register)
    assert report.finding.code == "cosignature" and report.finding.seq == 5, report


def witness_key(server: WitnessServer):
    return note.read_private(server.key)


def test_reg_20_a_witness_down_stops_no_seal_and_is_caught_up(mc_register, mc_staff, witness):
    append(mc_register, mc_staff, 2)
    assert [o.status for o in seal(mc_register)] == ["cosigned"]
    witness.stop()
    append(mc_register, mc_staff, 2)
    (down,) = seal(mc_register)
    assert down.status == "unreachable"
    append(mc_register, mc_staff, 2)
    assert [o.status for o in seal(mc_register)] == ["unreachable"]
    assert list(mc_register.checkpoints.values_list("seq", flat=True).order_by("seq")) == [3, 5, 7]
    out, failed = verify()
    assert failed is None and f"NON VÉRIFIÉ\t{mc_register.number}\ttémoin {NAME} injoignable" in out
    later = timezone.now() + datetime.timedelta(minutes=settings.LEDGERS_WITNESS_MAX_DELAY_MINUTES + 1)
    report = cosign.cosignatures_verify(mc_register, ask=False, now=later)
    assert report.finding.code == "cosignature_missing" and report.finding.seq == 5

    witness.start()  # back, on the same port
    assert [o.status for o in cosign.cosignatures_request(registers=only(mc_register))] == [
        "cosigned"
    ]  # the newest head, from size 3
    assert list(Cosignature.objects.values_list("checkpoint__seq", flat=True).order_by("checkpoint__seq")) == [3, 7]
    out, failed = verify()
    assert failed is None, out
    assert f"LACUNE\t{mc_register.number}\t{NAME}\t1 tête(s) scellée(s) sans cosignature, n° 5 à 5" in out
    assert cosign.cosignatures_verify(mc_register, ask=False, now=later).finding is None


def test_the_witness_refuses_to_change_what_it_cosigned(mc_register, mc_staff, witness, witness_db):
    append(mc_register, mc_staff, 1)
    seal(mc_register)
    with psycopg.connect(witness_db) as db, pytest.raises(psycopg.errors.RaiseException, match="never changes"):
        db.execute("UPDATE cosigned SET size = 1")
    served = json.dumps(witness.cli("heads", "--db", witness_db))
    assert base64.b64encode(trees.root(mc_register, 2)).decode() in served


def witness_run(db: str, *args) -> subprocess.CompletedProcess:
    """``python -m witness`` at the regulator, its exit status kept."""
    command = [sys.executable, "-m", "witness", *args, "--db", db]
    return subprocess.run(command, capture_output=True, text=True, cwd=settings.BASE_DIR)


def test_reg_20_the_witness_alone_names_the_logs_gone_silent_and_exits_non_zero(mc_register, mc_staff, witness):
    append(mc_register, mc_staff, 2)
    assert [o.status for o in seal(mc_register)] == ["cosigned"]
    live = witness_run(witness.db, "silent")
    assert (live.returncode, live.stdout) == (0, "")  # the casino's log: cosigned just now

    # Two more logs, trusted two hours ago: one cosigned once then, the other never.
    two_hours_ago = int(time.time()) - 2 * 3600
    with Store(witness.db).transaction() as tx:
        for name in ("quiet.example", "never.example"):
            public = note.raw_public(Ed25519PrivateKey.generate().public_key())
            tx.add_log(str(note.Verifier(name, note.ED25519, public)), two_hours_ago)
        tx.cosigned(Head("quiet.example/MC-001", 7, "root", "note", two_hours_ago))
    found = witness_run(witness.db, "silent")
    assert found.returncode == 1
    never, quiet = found.stdout.splitlines()
    assert never.startswith("SILENT\tnever.example\tnever cosigned since trusted at ")
    assert quiet.startswith("SILENT\tquiet.example\tlast cosigned quiet.example/MC-001 size 7 at ")
    assert quiet.endswith("\t120 min ago") and settings.LEDGERS_LOG_ORIGIN not in found.stdout
    assert witness_run(witness.db, "silent", "--max-age", "180").returncode == 0

    # The heads listing: the cosigned notes as before, the silent logs on standard error.
    heads = witness_run(witness.db, "heads")
    assert heads.returncode == 0 and heads.stderr == found.stdout
    assert heads.stdout == witness.cli("heads", "--db", witness.db) and log_origin(mc_register) in heads.stdout


def test_reg_20_a_rollback_to_an_older_backup_is_found_by_the_witness_and_the_head_kept_outside(
    mc_register, mc_staff, witness, tmp_path
):
    append(mc_register, mc_staff, 2)
    assert [o.status for o in seal(mc_register)] == ["cosigned"]  # 3 entries: the backup is taken then
    append(mc_register, mc_staff, 4)
    assert [o.status for o in seal(mc_register)] == ["cosigned"]  # 7 entries
    kept = tmp_path / "tree-head.json"
    kept.write_text(json.dumps(newest_document(mc_register.establishment)), encoding="utf-8")
    # The database restored from the backup: every row written after it is gone, consistently.
    with triggers_bypassed(), connection.cursor() as cursor:
        cursor.execute(
            "DELETE FROM registers_cosignature WHERE checkpoint_id IN "
            "(SELECT id FROM registers_checkpoint WHERE register_id = %s AND seq > 3)",
            [mc_register.pk],
        )
        cursor.execute("DELETE FROM registers_checkpoint WHERE register_id = %s AND seq > 3", [mc_register.pk])
        cursor.execute(
            "DELETE FROM registers_merklenode WHERE register_id = %s AND (index + 1) * power(2, level) > 3",
            [mc_register.pk],
        )
        cursor.execute(
            "DELETE FROM registers_treehead WHERE establishment_id = %s AND number > 1", [mc_register.establishment_id]
        )
    truncate(mc_register, 3)
    with override_settings(LEDGERS_WITNESSES=[]):
        assert verify()[1] is None  # the database alone is consistent
        out, failed = verify("--tree-head", kept)
        assert failed and "absente de la base ou différente" in out, out
    out, failed = verify()
    assert failed and f"{mc_register.number} n° 7 : {NAME} a cosigné 7 entrées, le registre en a moins" in failed, out
