"""Sealing and verifying against a signed tree head on one big register, as ratios against the
raw independent scan of bench/ledger.py over the same entries in the same run.

    DATABASE_URL=postgres://… python bench/tree_head.py [--entries 1000000] [--batch 20000]

Fills a scratch register through the bulk path (``entries_bulk_append``, synthetic payloads),
then times ``seal_checkpoints --out`` (which verifies the register in full before sealing) and
``verify_ledgers --chain-only --tree-head FILE NUMBER`` (the register verified, then held to the
tree head), then the register's Merkle tree: the proof of inclusion of entries 1, n/2 and n and the
consistency proof from n/2 to n, computed from the stored subtrees, their size and time, and their
check. Run it at 1M and 10M (``--entries 10000000``). Figures go to
bench/results/tree-head-<entries>.json with the machine's load average: the absolute seconds
depend on it, the ratios to the raw scan of the same run are the figures to compare. Run it on a
scratch database, never on a production one: the rows stay."""

import argparse
import io
import json
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from django.core.management import call_command
from django.db import connection
from django.utils import timezone
from ledger import WRITER_ROLE, raw_connection, raw_verify, scratch, timed  # sets Django up

from ledgers.registers import merkle, trees
from ledgers.registers.models import Entry
from ledgers.registers.services import entries_bulk_append
from ledgers.registers.synthetic import synthetic_payloads


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--entries", type=int, default=1_000_000)
    parser.add_argument("--batch", type=int, default=20_000)
    args = parser.parse_args()
    (_single, register), writer = scratch()
    payloads = synthetic_payloads(register.kind_info, args.entries, start=timezone.now())
    t_fill = 0.0
    while register.head_seq < args.entries:
        part = [next(payloads) for _ in range(min(args.batch, args.entries - register.head_seq))]
        t_fill += timed(
            lambda part=part: entries_bulk_append(register=register, actor=writer, role=WRITER_ROLE, payloads=part)
        )
    out = Path(tempfile.mkdtemp()) / "tree-head.json"
    t_seal = timed(
        lambda: call_command(
            "seal_checkpoints", "--out", str(out), "--establishment", register.establishment.code, stdout=io.StringIO()
        )
    )
    t_verify = timed(
        lambda: call_command(
            "verify_ledgers", "--chain-only", "--tree-head", str(out), register.number, stdout=io.StringIO()
        )
    )
    raw = raw_connection()
    t_raw = timed(lambda: raw_verify(raw, register))
    raw.close()
    n, proofs = register.head_seq, {}
    top = trees.root(register, n)
    for seq in (1, n // 2, n):
        t_prove = timed(lambda seq=seq: proofs.__setitem__(seq, trees.inclusion(register, seq, n)))
        leaf = trees.entry_leaf(Entry.objects.get(register=register, seq=seq).entry_hash)
        t_check = timed(lambda seq=seq, leaf=leaf: merkle.inclusion_valid(leaf, seq - 1, n, proofs[seq], top))
        proofs[seq] = (len(proofs[seq]) * 32, t_prove, t_check)
    t_consistency = timed(lambda: proofs.__setitem__("c", trees.consistency(register, n // 2, n)))
    print(f"entries {register.head_seq + 0}: bulk fill {t_fill:.1f} s")
    print(f"seal_checkpoints --out: {t_seal:.1f} s ({t_seal / t_raw:.2f}x the raw scan, {t_raw:.1f} s)")
    print(f"verify_ledgers --tree-head: {t_verify:.1f} s ({t_verify / t_raw:.2f}x the raw scan)")
    for seq in (1, n // 2, n):
        size, t_prove, t_check = proofs[seq]
        print(
            f"inclusion proof of entry {seq}: {size} bytes in {t_prove * 1000:.1f} ms "
            f"({t_prove / t_raw:.5f}x the raw scan), checked in {t_check * 1000:.2f} ms"
        )
    print(
        f"consistency proof {n // 2} -> {n}: {len(proofs['c']) * 32} bytes in {t_consistency * 1000:.1f} ms "
        f"({t_consistency / t_raw:.5f}x the raw scan)"
    )
    results = {
        "bench": f"bench/tree_head.py --entries {args.entries} --batch {args.batch}",
        "postgresql": connection.pg_version,
        "machine": f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at the end of the run",
        "entries": register.head_seq,
        "bulk_fill_s": round(t_fill, 1),
        "raw_scan_s": round(t_raw, 1),
        "seal_checkpoints_out_s": round(t_seal, 1),
        "seal_checkpoints_vs_raw_scan": round(t_seal / t_raw, 2),
        "verify_ledgers_chain_only_tree_head_s": round(t_verify, 1),
        "verify_ledgers_tree_head_vs_raw_scan": round(t_verify / t_raw, 2),
        "inclusion_proofs": {
            str(seq): {"bytes": proofs[seq][0], "ms": round(proofs[seq][1] * 1000, 1)} for seq in (1, n // 2, n)
        },
        "inclusion_proof_entry_1_vs_raw_scan": round(proofs[1][1] / t_raw, 5),
        "consistency_proof": {"bytes": len(proofs["c"]) * 32, "ms": round(t_consistency * 1000, 1)},
    }
    path = Path(__file__).resolve().parent / "results" / f"tree-head-{args.entries}.json"
    path.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    print(f"written to {path}")


if __name__ == "__main__":
    main()
