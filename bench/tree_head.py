"""Sealing, proving and verifying against signed tree heads on one big register, as ratios against
the anchor scan (/work/shared/anchors/verify_anchor.py: a server-side cursor over as many rows
plus one SHA-256 each, in Python) and the raw independent scan of bench/ledger.py over the same
entries, both in the same run.

    DATABASE_URL=postgres://… python bench/tree_head.py [--entries 1000000] [--batch 20000]
    DATABASE_URL=postgres://… python bench/tree_head.py --proofs-of REGISTER

Fills a scratch register through the bulk path (``entries_bulk_append``, synthetic payloads) to
half its size and seals (``seal_checkpoints --out``: the register verified in full, its Merkle
subtrees stored, a tree head signing its root), then to its size and seals again (verified since
the last checkpoint). After each seal the regulator's witness (``python -m witness serve``, a
child process with its own SQLite database) is asked to cosign the register's head
(``cosignatures_request``: the first time from nothing, then with the consistency proof from the
first head), timed apart from the seal. Times ``verify_ledgers --chain-only --tree-head FILE
NUMBER`` (the register verified, then held to the tree head and to the witness's cosignatures);
then the proofs served (``entry_proof``: entry 1, n/2 and n against the newest tree head;
``consistency_proof`` between the two heads), computed from the stored subtrees: their hashes,
their size as served (compact JSON, the register's signed checkpoint and its cosignature
included), their time (the first call, and the median of seven more), and their offline check
by docs/verify_export.py (a process each, Python's start included). Figures go to
bench/results/tree-head-<entries>.json with the machine's load average: the absolute seconds
depend on it, the ratios to the scans of the same run are the figures to compare.
``--proofs-of`` times again only the proofs of a register a run has left, to
bench/results/tree-head-proofs-<entries>.json. Run it on a scratch database, never on a
production one: the rows stay."""

import argparse
import io
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from django.core.management import call_command
from django.db import connection
from django.test import override_settings
from django.utils import timezone
from ledger import WRITER_ROLE, anchor_scan, raw_connection, raw_verify, scratch, timed  # sets Django up

from ledgers.registers.cosign import cosignatures_request, log_vkey
from ledgers.registers.models import Register, TreeHead
from ledgers.registers.services import entries_bulk_append
from ledgers.registers.signing import raw_public, signing_key
from ledgers.registers.synthetic import synthetic_payloads
from ledgers.registers.treeheads import consistency_proof, entry_proof

VERIFY = Path(__file__).resolve().parent.parent / "docs" / "verify_export.py"


@contextmanager
def witness(work: Path):
    """The regulator's witness, serving on a free port with its own SQLite database, configured."""
    cli = [sys.executable, "-m", "witness"]
    root, db, key, name = Path(__file__).resolve().parent.parent, work / "witness.sqlite3", work / "w.pem", "bench/w"
    run = {"cwd": root, "capture_output": True, "text": True, "check": True}
    vkey = subprocess.run([*cli, "keygen", "--key", key, "--name", name], **run).stdout.strip()
    subprocess.run([*cli, "add-log", "--db", db, log_vkey()], **run)
    serve = [*cli, "serve", "--db", db, "--key", key, "--name", name, "--listen", "127.0.0.1:0"]
    server = subprocess.Popen(serve, cwd=root, stdout=subprocess.PIPE, text=True)
    url = server.stdout.readline().strip().rsplit(" ", 1)[-1].rstrip("/")
    try:
        with override_settings(LEDGERS_WITNESSES=[{"url": url, "vkey": vkey}]):
            yield
    finally:
        server.terminate()
        server.wait(timeout=10)


def offline(path: Path) -> tuple[float, str]:
    """docs/verify_export.py on a proof, with the public key: its seconds and its line."""
    key = raw_public(signing_key().public_key()).hex()
    start = time.perf_counter()
    done = subprocess.run([sys.executable, str(VERIFY), str(path), key], capture_output=True, text=True, check=True)
    return time.perf_counter() - start, done.stdout.strip()


def proofs_timed(register: Register, heads: list[int], work: Path, t_anchor: float) -> dict:
    """The proofs of entries 1, n/2 and n against the newest tree head and the consistency proof
    between ``heads``: hashes, bytes served, the first call's time (cold caches) and the median of
    seven more, and the offline check of each."""
    n, proofs = register.head_seq, {}
    for key, make in (
        (1, lambda: entry_proof(register, 1)),
        (n // 2, lambda: entry_proof(register, n // 2)),
        (n, lambda: entry_proof(register, n)),
        ("consistency", lambda: consistency_proof(register, *heads)),
    ):
        first = timed(lambda key=key, make=make: proofs.__setitem__(key, make()))
        t_prove = statistics.median(timed(make) for _ in range(7))
        proof = proofs[key]
        hashes = len(proof.get("inclusion", proof.get("consistency")))
        body = json.dumps(proof, separators=(",", ":"), ensure_ascii=False)
        (path := work / f"proof-{key}.json").write_text(body, encoding="utf-8")
        t_check, line = offline(path)
        proofs[key] = {
            "hashes": hashes,
            "bytes": len(body.encode()),
            "ms": round(t_prove * 1000, 1),
            "first_ms": round(first * 1000, 1),
            "vs_anchor_scan": round(t_prove / t_anchor, 6),
            "offline_check_ms": round(t_check * 1000),
            "offline_check": line,
        }
    return proofs


def print_proofs(proofs: dict, n: int) -> None:
    for key, proof in proofs.items():
        what = f"consistency proof {n // 2} -> {n}" if key == "consistency" else f"inclusion proof of entry {key}"
        print(
            f"{what}: {proof['hashes']} hashes, {proof['bytes']} bytes served in {proof['ms']} ms, median of 7 "
            f"(first call {proof['first_ms']} ms; {proof['vs_anchor_scan']}x the anchor scan); offline check "
            f"{proof['offline_check_ms']} ms: {proof['offline_check']}"
        )


def proofs_of(number: str) -> None:
    """The proofs of a register a run already sealed twice, timed again (on a quiet machine)."""
    register = Register.objects.get(number=number)
    heads = sorted(
        TreeHead.objects.filter(establishment=register.establishment, leaves__has_key=number).values_list(
            "number", flat=True
        )
    )[-2:]
    raw = raw_connection()
    t_anchor = anchor_scan(raw, register.head_seq)
    raw.close()
    proofs = proofs_timed(register, heads, Path(tempfile.mkdtemp()), t_anchor)
    print(f"anchor scan (verify_anchor.py, {register.head_seq} rows): {t_anchor:.1f} s")
    print_proofs(proofs, register.head_seq)
    results = {
        "bench": f"bench/tree_head.py --proofs-of {number}",
        "machine": f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at the end of the run",
        "entries": register.head_seq,
        "anchor_scan_s": round(t_anchor, 1),
        "proofs": {str(key): proof for key, proof in proofs.items()},
    }
    path = Path(__file__).resolve().parent / "results" / f"tree-head-proofs-{register.head_seq}.json"
    path.write_text(json.dumps(results, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"written to {path}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--entries", type=int, default=1_000_000)
    parser.add_argument("--batch", type=int, default=20_000)
    parser.add_argument("--proofs-of", metavar="REGISTER", help="only time again the proofs of a sealed register")
    args = parser.parse_args()
    if args.proofs_of:
        return proofs_of(args.proofs_of)
    (_single, register), writer = scratch()
    payloads = synthetic_payloads(register.kind_info, args.entries, start=timezone.now())
    t_fill, seals, cosigns, work = 0.0, [], [], Path(tempfile.mkdtemp())
    only = Register.objects.filter(pk=register.pk)
    with witness(work):
        for size in (args.entries // 2, args.entries):
            while register.head_seq < size:
                part = [next(payloads) for _ in range(min(args.batch, size - register.head_seq))]
                t_fill += timed(
                    lambda part=part: entries_bulk_append(
                        register=register, actor=writer, role=WRITER_ROLE, payloads=part
                    )
                )
            out = work / f"tree-head-{len(seals) + 1}.json"
            command = ("seal_checkpoints", "--out", str(out), "--establishment", register.establishment.code)
            with override_settings(LEDGERS_WITNESSES=[]):  # the witness asked apart, below
                seals.append(timed(lambda command=command: call_command(*command, stdout=io.StringIO())))
            outcomes: list = []
            cosigns.append(timed(lambda outcomes=outcomes: outcomes.extend(cosignatures_request(registers=only))))
            assert [o.status for o in outcomes] == ["cosigned"], outcomes
        heads = [json.loads((work / f"tree-head-{i}.json").read_text())["number"] for i in (1, 2)]
        t_verify = timed(
            lambda: call_command(
                "verify_ledgers", "--chain-only", "--tree-head", str(out), register.number, stdout=io.StringIO()
            )
        )
    raw = raw_connection()
    t_raw = timed(lambda: raw_verify(raw, register))
    t_anchor = anchor_scan(raw, register.head_seq)
    raw.close()
    n, proofs = register.head_seq, proofs_timed(register, heads, work, t_anchor)
    print(f"entries {n}: bulk fill {t_fill:.1f} s")
    print(f"anchor scan (verify_anchor.py, {n} rows): {t_anchor:.1f} s; raw scan of the register: {t_raw:.1f} s")
    for label, t in zip(("at n/2 (full)", "at n (since n/2)"), seals, strict=True):
        print(f"seal_checkpoints --out {label}: {t:.1f} s ({t / t_anchor:.2f}x the anchor scan)")
    for label, t in zip(("at n/2 (from nothing)", "at n (consistency proof from n/2)"), cosigns, strict=True):
        print(f"cosignatures_request {label}: {t:.2f} s ({t / t_anchor:.3f}x the anchor scan)")
    print(f"verify_ledgers --tree-head, witness asked: {t_verify:.1f} s ({t_verify / t_anchor:.2f}x the anchor scan)")
    print_proofs(proofs, n)
    results = {
        "bench": f"bench/tree_head.py --entries {args.entries} --batch {args.batch}",
        "postgresql": connection.pg_version,
        "machine": f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at the end of the run",
        "seal_half_vs_anchor_scan": round(seals[0] / t_anchor, 2),
        "entries": n,
        "bulk_fill_s": round(t_fill, 1),
        "anchor_scan_s": round(t_anchor, 1),
        "raw_scan_s": round(t_raw, 1),
        "seal_half_full_s": round(seals[0], 1),
        "seal_incremental_s": round(seals[1], 1),
        "seal_incremental_vs_anchor_scan": round(seals[1] / t_anchor, 3),
        "cosign_first_s": round(cosigns[0], 2),
        "cosign_incremental_s": round(cosigns[1], 2),
        "cosign_incremental_vs_anchor_scan": round(cosigns[1] / t_anchor, 4),
        "verify_ledgers_chain_only_tree_head_s": round(t_verify, 1),
        "verify_ledgers_tree_head_vs_anchor_scan": round(t_verify / t_anchor, 2),
        "proofs": {str(key): proof for key, proof in proofs.items()},
    }
    path = Path(__file__).resolve().parent / "results" / f"tree-head-{args.entries}.json"
    path.write_text(json.dumps(results, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"written to {path}")


if __name__ == "__main__":
    main()
