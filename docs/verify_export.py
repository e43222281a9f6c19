"""python verify_export.py REGISTER.jsonl [EARLIER.jsonl] | MANIFEST.json (docs/archive-format.md)."""

import hashlib
import json
import pathlib
import sys

HASHED = ("register", "seq", "recorded_at", "actor", "role", "kind", "payload", "corrects", "prev_hash")


def verify(path, earlier=None):  # earlier: an export kept before, whose lines must all still be there
    prev, hashes, seq = "0" * 64, {}, 0  # the genesis hash: 64 zeros
    for seq, line in enumerate(path.open(encoding="utf-8"), start=1):
        entry = json.loads(line)
        canonical = json.dumps({k: entry[k] for k in HASHED}, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
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
    return seq, prev


path = pathlib.Path(sys.argv[1])
files = json.loads(path.read_text(encoding="utf-8"))["files"] if path.suffix == ".json" else None
for f in files or ():  # a manifest: each file's digest, and each export's chain, count and last hash
    if hashlib.sha256((path.parent / f["name"]).read_bytes()).hexdigest() != f["sha256"] or (
        "head_hash" in f and verify(path.parent / f["name"]) != (f["entries"], f["head_hash"])
    ):
        sys.exit(f"{f['name']}: does not match the manifest (SHA-256, entry count or last hash)")
earlier = open(sys.argv[2], encoding="utf-8") if len(sys.argv) > 2 else None
print(f"OK {len(files)} files" if files is not None else "OK {} entries, last hash {}".format(*verify(path, earlier)))
