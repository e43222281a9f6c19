"""python verify_checkpoint.py CHECKPOINT.txt|PROOF.json LOG_VKEY WITNESS_VKEY… [EXPORT.jsonl …] (ledger-format.md §14)

A register's checkpoint as the regulator's witness serves it, or as a proof of one entry carries it
(§12, format 3; verify_export.py checks the rest of the proof): signed by the casino's log key, and
cosigned (c2sp.org/tlog-cosignature) by at least one of the witnesses given; each export given is
the register's, its chain holds, and its first `size` entries give the cosigned Merkle root.
Needs `cryptography`. Every problem is one line starting `FAIL ` with status 1."""

import base64
import datetime
import hashlib
import json
import pathlib
import sys

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

HASHED = "register seq recorded_at actor role kind payload corrects prev_hash written digests".split()
sys.excepthook = lambda kind, exc, _: sys.exit(f"FAIL unreadable input ({kind.__name__}: {exc})")


def vkey(text):  # c2sp.org/signed-note: name+hex(key ID)+base64(type ‖ key), ID = SHA-256(name ‖ \n ‖ type ‖ key)[:4]
    name, kid, material = text.split("+", 2)
    raw = base64.b64decode(material)
    if len(raw) != 33 or raw[0] not in (1, 4) or hashlib.sha256(name.encode() + b"\n" + raw).digest()[:4].hex() != kid:
        sys.exit(f"FAIL not an Ed25519 verifier key (type 01 log, 04 cosigner): {text}")
    return (name, bytes.fromhex(kid)), raw[0], Ed25519PublicKey.from_public_bytes(raw[1:])


def signers(note, keys):  # {1: the log's signatures, 4: the cosignatures (name, time)}, each verified
    text, _, block = note.rpartition("\n\n")
    text, found = text + "\n", {1: [], 4: []}
    for name, signature in (line.split(" ")[1:] for line in block.splitlines()):
        raw = base64.b64decode(signature)
        for _, kind, key in (k for k in keys if k[0] == (name, raw[:4])):  # unknown keys are ignored
            at = int.from_bytes(raw[4:12], "big") if kind == 4 else 0  # a cosignature: time, then signature
            message = text if kind == 1 else f"cosignature/v1\ntime {at}\n{text}"
            try:
                key.verify(raw[4:] if kind == 1 else raw[12:], message.encode())
            except Exception:  # InvalidSignature, or a signature of the wrong length
                sys.exit(f"FAIL the signature of {name} does not verify: a known key that fails rejects the note")
            found[kind].append((name, datetime.datetime.fromtimestamp(at, datetime.UTC)))
    return text, found


def root(leaves):  # RFC 6962: node = SHA-256(0x01 ‖ left ‖ right), split at the largest power of two below n
    if len(leaves) <= 1:
        return leaves[0] if leaves else hashlib.sha256(b"").digest()
    k = 1 << ((len(leaves) - 1).bit_length() - 1)
    return hashlib.sha256(b"\1" + root(leaves[:k]) + root(leaves[k:])).digest()


def entry_hashes(path):  # the export's chain (§7): each entry's hash recomputed and linked to the previous one
    prev, hashes = "0" * 64, []
    for seq, line in enumerate(path.open(encoding="utf-8"), start=1):
        entry = json.loads(line)
        fields = {k: entry[k] for k in HASHED if k in entry}  # §2: keys sorted, no spaces, UTF-8 unescaped
        canonical = json.dumps(fields, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
        digest = hashlib.sha256(canonical).hexdigest() if entry["prev_hash"] == prev else None
        if entry["seq"] != seq or digest != entry["entry_hash"]:
            sys.exit(f"FAIL {path.name} seq {seq}: the chain is broken (moved, changed or unlinked entry)")
        prev = digest
        hashes.append((entry["register"], digest))
    return hashes


checkpoint, *args = sys.argv[1:] or sys.exit(__doc__)
note = pathlib.Path(checkpoint).read_text(encoding="utf-8")
note = json.loads(note)["checkpoint"] if checkpoint.endswith(".json") else note  # a proof: the checkpoint it carries
text, found = signers(note, [vkey(a) for a in args if "+" in a])
if not found[1]:
    sys.exit("FAIL the checkpoint is not signed by the log key given (the casino's)")
if not found[4]:
    sys.exit("FAIL no valid cosignature of a witness given: the head was not witnessed")
origin, size, digest = text.split("\n")[:3]
size, exports = int(size), [pathlib.Path(a) for a in args if "+" not in a]
for export in exports:
    hashes = entry_hashes(export)
    if not hashes or not origin.endswith("/" + hashes[0][0]):
        sys.exit(f"FAIL {export.name}: not an export of the register {origin}")
    leaves = [hashlib.sha256(b"\0" + bytes.fromhex(h)).digest() for _, h in hashes[:size]]
    if len(leaves) < size or base64.b64encode(root(leaves)).decode() != digest:
        sys.exit(f"FAIL {export.name}: its first {size} entries do not give the cosigned root (rewritten or cut)")
name, at = max(found[4], key=lambda cosignature: cosignature[1])
age = (datetime.datetime.now(datetime.UTC) - at).total_seconds() // 60
print(f"OK {origin} n° {size} cosigned by {name} {at:%Y-%m-%dT%H:%M:%SZ} ({age:.0f} min ago), {len(exports)} exports")
