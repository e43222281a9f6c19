"""Verify a register export (JSON Lines) with the Python standard library alone.

Usage: python verify_export.py REGISTER.jsonl [EARLIER.jsonl]
Prints "OK", the entry count and the last hash (compare it with the printed register or a visa),
or names the first bad entry and exits with status 1. Given an earlier export of the register,
also checks that each of its lines is still there, unchanged (nothing rewritten or cut off since).
"""
import hashlib
import json
import sys

HASHED = ("register", "seq", "recorded_at", "actor", "role", "kind", "payload", "corrects", "prev_hash")
prev, hashes, seq = "0" * 64, {}, 0  # the genesis hash: 64 zeros
earlier = open(sys.argv[2], encoding="utf-8") if len(sys.argv) > 2 else None
with open(sys.argv[1], encoding="utf-8") as export:
    for seq, line in enumerate(export, start=1):
        entry = json.loads(line)
        canonical = json.dumps({k: entry[k] for k in HASHED}, sort_keys=True, separators=(",", ":"),
                               ensure_ascii=False)
        digest = hashlib.sha256(canonical.encode("utf-8")).hexdigest()
        if entry["seq"] != seq:
            sys.exit(f"line {seq}: seq {entry['seq']} instead of {seq} (missing or moved entry)")
        if entry["prev_hash"] != prev:
            sys.exit(f"seq {seq}: prev_hash is not the hash of the previous entry")
        if entry["entry_hash"] != digest:
            sys.exit(f"seq {seq}: entry_hash does not match the entry's content")
        if entry["kind"] == "visa" and hashes.get(entry["payload"]["covers_seq"]) != entry["payload"]["covers_hash"]:
            sys.exit(f"seq {seq}: the visa's covers_hash is not the hash of the entry it covers")
        if earlier and earlier.readline() not in ("", line):
            sys.exit(f"seq {seq}: changed since the earlier export")
        prev = hashes[seq] = digest
if earlier and earlier.readline():
    sys.exit(f"seq {seq + 1}: missing since the earlier export (entries cut off the end)")
print(f"OK {seq} entries, last hash {prev}")
