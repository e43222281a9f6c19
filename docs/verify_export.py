"""python verify_export.py REGISTER.jsonl [EARLIER.jsonl] | MANIFEST.json (docs/archive-format.md)
| TREE_HEAD.json PUBLIC_KEY_HEX [EXPORT.jsonl …] | PROOF.json PUBLIC_KEY_HEX (§11–12: needs `cryptography`)."""

import hashlib
import json
import pathlib
import sys

HASHED = ("register", "seq", "recorded_at", "actor", "role", "kind", "payload", "corrects", "prev_hash", "written")
SIGNED = ("establishment", "number", "created_at", "size", "root", "prev", "tables", "key_id")


def canon(document):
    return json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def verify(path, earlier=None, anchor=None):  # earlier: an export kept before; anchor: (seq, hash) signed
    prev, hashes, seq = "0" * 64, {}, 0  # the genesis hash: 64 zeros
    for seq, line in enumerate(path.open(encoding="utf-8"), start=1):
        entry = json.loads(line)
        digest = hashlib.sha256(canon({k: entry[k] for k in HASHED if k in entry})).hexdigest()
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
    if anchor and hashes.get(anchor[0]) != anchor[1]:
        sys.exit(f"{path.name} n° {anchor[0]}: not the entry the tree head signed (rewritten, removed or cut)")
    return seq, prev


def leaf(register, seq, digest):  # RFC 6962: leaf = SHA-256(0x00 ‖ data), node = SHA-256(0x01 ‖ left ‖ right)
    return hashlib.sha256(b"\0" + canon({"register": register, "seq": seq, "hash": digest})).digest()


def node(left, right):
    return hashlib.sha256(b"\1" + left + right).digest()


def root(leaves):
    if len(leaves) <= 1:
        return leaves[0] if leaves else hashlib.sha256(b"").digest()
    k = 1 << ((len(leaves) - 1).bit_length() - 1)
    return node(root(leaves[:k]), root(leaves[k:]))


def signed(head, key_hex):  # the tree head's signature, with the public key alone
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    body = canon({k: head[k] for k in SIGNED})
    Ed25519PublicKey.from_public_bytes(bytes.fromhex(key_hex)).verify(bytes.fromhex(head["signature"]), body)
    if hashlib.sha256(body).hexdigest() != head["hash"]:
        sys.exit("the tree head's hash does not match its content")
    return head


def included(proof):  # RFC 9162 §2.1.3.2: the leaf and its audit path give the signed root
    fn, sn, r = proof["leaf_index"], proof["tree_head"]["size"] - 1, leaf(proof["register"], *proof["head"])
    for p in map(bytes.fromhex, proof["audit_path"]):
        if fn & 1 or fn == sn:
            r = node(p, r)
            while not fn & 1 and fn:
                fn, sn = fn >> 1, sn >> 1
        else:
            r = node(r, p)
        fn, sn = fn >> 1, sn >> 1
    return sn == 0 and r.hex() == proof["tree_head"]["root"]


path, args = pathlib.Path(sys.argv[1]), sys.argv[2:]
document = json.loads(path.read_text(encoding="utf-8")) if path.suffix == ".json" else {}
if "leaves" in document:  # a tree head, and the exports it covers
    heads = {leaf_["register"]: (leaf_["seq"], leaf_["hash"]) for leaf_ in signed(document, args[0])["leaves"]}
    if root([leaf(r, *heads[r]) for r in sorted(heads)]).hex() != document["root"] or len(heads) != document["size"]:
        sys.exit("the tree head's root is not the Merkle root of its leaves")
    for export in map(pathlib.Path, args[1:]):
        verify(export, anchor=heads[json.loads(export.open(encoding="utf-8").readline())["register"]])
    sys.exit(print(f"OK tree head {document['establishment']} n° {document['number']}, {len(args) - 1} exports"))
if "audit_path" in document:  # one entry, its chain up to the register's head, the head in a tree head
    signed(document["tree_head"], args[0])
    prev, entries = document["entries"][0]["prev_hash"], document["entries"]
    for entry in entries:
        digest = hashlib.sha256(canon({k: entry[k] for k in HASHED if k in entry})).hexdigest()
        if entry["prev_hash"] != prev or entry["entry_hash"] != digest:
            sys.exit(f"seq {entry['seq']}: the chain from the proved entry to the head is broken")
        prev = digest
    if [entries[-1]["seq"], prev] != document["head"] or not included(document):
        sys.exit("the entry's chain does not lead to a head the tree head signed")
    sys.exit(
        print(f"OK {document['register']} n° {entries[0]['seq']} in tree head n° {document['tree_head']['number']}")
    )
files = document.get("files")
for f in files or ():  # a manifest: each file's digest, and each export's chain, count and last hash
    if hashlib.sha256((path.parent / f["name"]).read_bytes()).hexdigest() != f["sha256"] or (
        "head_hash" in f and verify(path.parent / f["name"]) != (f["entries"], f["head_hash"])
    ):
        sys.exit(f"{f['name']}: does not match the manifest (SHA-256, entry count or last hash)")
earlier = open(args[0], encoding="utf-8") if args else None
print(f"OK {len(files)} files" if files is not None else "OK {} entries, last hash {}".format(*verify(path, earlier)))
