"""python verify_export.py REGISTER.jsonl [EARLIER.jsonl] | MANIFEST.json (docs/archive-format.md)
| TREE_HEAD.json PUBLIC_KEY_HEX [EXPORT.jsonl …] [--earlier HEAD.json|DIR …] [--qr 'LEDGER1;…' | --qr QR.txt]
| PROOF.json PUBLIC_KEY_HEX [--tsa-root ROOTS.pem …] (§11–14: an entry's or a consistency proof; needs
`cryptography` for the Ed25519 signatures, the Merkle proofs are checked with hashlib alone; a root makes a tree
head's RFC 3161 time trusted; --earlier: the tree heads received before, held in one sequence with this one)."""

import argparse
import base64
import datetime
import hashlib
import json
import pathlib
import sys

try:  # tree heads, proofs and time-stamps only; an export or a manifest needs the standard library alone
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.asymmetric import ec, padding, rsa
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
except ImportError:
    x509 = None

HASHED = "register seq recorded_at actor role kind payload corrects prev_hash written digests".split()
SIGNED = ("establishment", "number", "created_at", "size", "root", "prev", "tables", "key_id")
PKCS = "2a864886f70d01"  # DER of the OID 1.2.840.113549.1: 7.2 SignedData, 9.3 content type, 9.4 message digest
TST_INFO, SHA2 = PKCS + "0910" + "0104", "6086480165030402"  # 1.2.840.113549.1.9.16.1.4; SHA-2: .1 256, .2 384, .3 512


def unreadable(kind, exc, _traceback):  # a file that is not what it should be: one line, never a traceback
    sys.exit(f"FAIL unreadable input ({kind.__name__}: {exc})")


sys.excepthook = unreadable


def canon(document):
    return json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def verify(path, earlier=None, anchors=()):  # earlier: an export kept before; anchors: (seq, hash, who showed it,
    # the register's Merkle root at that size or None)
    prev, chain, seq, stack = "0" * 64, {}, 0, []  # the genesis hash: 64 zeros; stack: the tree's perfect subtrees
    sizes = {n: (top, who) for n, _, who, top in anchors if top}
    if path.stat().st_size == 0:
        sys.exit(f"FAIL {path.name}: empty export, no entry to verify (a volume awaiting its opening has none)")
    for seq, line in enumerate(path.open(encoding="utf-8"), start=1):
        entry = json.loads(line)
        digest = hashlib.sha256(canon({k: entry[k] for k in HASHED if k in entry})).hexdigest()
        if entry["seq"] != seq:
            sys.exit(f"FAIL line {seq}: seq {entry['seq']} instead of {seq} (missing or moved entry)")
        if entry["prev_hash"] != prev:
            sys.exit(f"FAIL seq {seq}: prev_hash is not the hash of the previous entry")
        if entry["entry_hash"] != digest:
            sys.exit(f"FAIL seq {seq}: entry_hash does not match the entry's content")
        if entry["kind"] == "visa" and chain.get(entry["payload"]["covers_seq"]) != entry["payload"]["covers_hash"]:
            sys.exit(f"FAIL seq {seq}: the visa's covers_hash is not the hash of the entry it covers")
        if earlier and earlier.readline() not in ("", line):
            sys.exit(f"FAIL seq {seq}: changed since the earlier export")
        prev = chain[seq] = digest
        if sizes:  # RFC 9162 tree over the entries, kept as its perfect subtrees (size, hash), left to right
            size, h = 1, hashlib.sha256(b"\0" + bytes.fromhex(digest)).digest()
            while stack and stack[-1][0] == size:
                size, h = 2 * size, node(stack.pop()[1], h)
            stack.append((size, h))
        if seq in sizes:
            sizes[seq] = (*sizes[seq], fold(stack).hex())
    if earlier and earlier.readline():
        sys.exit(f"FAIL seq {seq + 1}: missing since the earlier export (entries cut off the end)")
    for n, digest, who, _ in anchors:
        if chain.get(n) != digest:
            sys.exit(f"FAIL {path.name} n° {n}: not the entry {who} (rewritten, removed or cut)")
    for n, (top, who, *found) in sizes.items():  # found: the root of the export's first n entries
        if found != [top]:
            sys.exit(f"FAIL {path.name} n° {n}: the Merkle root of the entries up to it is not the one {who}")
    return seq, prev


def leaf(register, seq, digest, root=None):  # RFC 6962: leaf = SHA-256(0x00 ‖ data), node = SHA-256(0x01 ‖ l ‖ r)
    data = {"register": register, "seq": seq, "hash": digest, **({"root": root} if root else {})}  # root: format 2
    return hashlib.sha256(b"\0" + canon(data)).digest()


def node(left, right):
    return hashlib.sha256(b"\1" + left + right).digest()


def fold(stack):  # the root of a tree kept as its perfect subtrees: each joined to the ones on its right
    r = stack[-1][1]
    for _, h in reversed(stack[:-1]):
        r = node(h, r)
    return r


def walk(fn, sn, h, path):  # RFC 9162 §2.1.3.2 and §2.1.4.2: hash up a path; (the old tree's root, the new one's)
    fr = h
    for p in map(bytes.fromhex, path):
        if sn == 0:
            return None, None
        if fn & 1 or fn == sn:
            fr, h = node(p, fr), node(p, h)
            while not fn & 1 and fn:
                fn, sn = fn >> 1, sn >> 1
        else:
            h = node(h, p)
        fn, sn = fn >> 1, sn >> 1
    return (fr, h) if sn == 0 else (None, None)


def path_root(h, index, size, path):  # the root an inclusion path leads to, None if it does not fit
    return walk(index, size - 1, h, path)[1] if 0 <= index < size else None


def consistent(m, n, first, second, proof):  # the tree of n leaves extends the tree of m leaves
    if m == n or not 0 < m < n or (not proof and m & (m - 1)):
        return m == n and first == second and not proof
    proof = [first.hex(), *proof] if m & (m - 1) == 0 else proof
    fn, sn = m - 1, n - 1
    while fn & 1:
        fn, sn = fn >> 1, sn >> 1
    return walk(fn, sn, bytes.fromhex(proof[0]), proof[1:]) == (first, second)


def root(leaves):
    if len(leaves) <= 1:
        return leaves[0] if leaves else hashlib.sha256(b"").digest()
    k = 1 << ((len(leaves) - 1).bit_length() - 1)
    return node(root(leaves[:k]), root(leaves[k:]))


def signed(head, key_hex, roots):  # the tree head's signature, with the public key alone, and its time-stamp
    if x509 is None:
        sys.exit("FAIL a tree head is checked with the Python package `cryptography`: pip install cryptography")
    if head.get("format", 1) not in (1, 2):
        sys.exit(f"FAIL tree head n° {head['number']}: format {head['format']} is not known to this script")
    body = canon({k: head[k] for k in (*SIGNED, "format")[: len(SIGNED) + ("format" in head)]})
    try:
        Ed25519PublicKey.from_public_bytes(bytes.fromhex(key_hex)).verify(bytes.fromhex(head["signature"]), body)
    except Exception:  # InvalidSignature, or a signature or key that is not hex of the right length
        sys.exit(f"FAIL tree head n° {head['number']}: its signature does not verify under the public key given")
    if hashlib.sha256(body).hexdigest() != head["hash"]:
        sys.exit("FAIL the tree head's hash does not match its content")
    return stamped(head, roots) if head.get("timestamp_token") else ", no time-stamp"


def der(data):  # the elements (tag, content, whole element) of DER content; tags below 31 only
    i, out = 0, []
    while i < len(data):
        n, j = data[i + 1], i + 2
        if n & 0x80:
            j, n = j + (n & 0x7F), int.from_bytes(data[j : j + (n & 0x7F)], "big")
        out.append((data[i], data[j : j + n], data[i : j + n]))
        i = j + n
    return out


def signer(cert, sid):  # CMS SignerIdentifier: [0] subject key identifier, or issuer and serial number
    if sid[0] == 0x80:
        return cert.extensions.get_extension_for_class(x509.SubjectKeyIdentifier).value.digest == sid[1]
    name, serial = der(sid[1])
    return cert.issuer.public_bytes() == name[2] and cert.serial_number == int.from_bytes(serial[1], "big", signed=True)


def chained(cert, pool, roots, at, depth=4):  # valid at `at`, and a root or issued by a CA certificate that chains
    if not cert.not_valid_before_utc <= at <= cert.not_valid_after_utc or depth < 0:
        return False
    if cert in roots:
        return True
    for up in roots + pool:
        try:
            cert.verify_directly_issued_by(up)
            ca = up.extensions.get_extension_for_class(x509.BasicConstraints).value.ca
        except Exception:  # not its issuer (another name or key), or not a CA
            continue
        if ca and chained(up, pool, roots, at, depth - 1):
            return True
    return False


def stamped(head, roots):  # RFC 3161 token: a CMS SignedData (RFC 5652) over a TSTInfo
    try:
        (_, kind, _), (_, explicit, _) = der(der(base64.b64decode(head["timestamp_token"]))[0][1])
        fields = der(der(explicit)[0][1])  # version, digest algorithms, content, [0] certificates, [1] CRLs, signers
        (_, content_type, _), (_, content, _) = der(fields[2][1])
        tst = der(content)[0][1]  # TSTInfo: version, policy, message imprint, serial number, genTime, …
        info = der(der(tst)[0][1])
        (_, algorithm, _), (_, imprint, _) = der(info[2][1])
        certs = [x509.load_der_x509_certificate(c[2]) for c in der(fields[3][1])]  # [0]: the token carries them
        ((_, signer_info, _),) = der(fields[-1][1])
        _, sid, digest, attrs, _, signature, *_ = der(signer_info)
        attributes = {(a := der(attr[1]))[0][1].hex(): der(a[1][1])[0][1] for attr in der(attrs[1])}
        cert = next(c for c in certs if signer(c, sid))
        h = {SHA2 + "01": hashes.SHA256(), SHA2 + "02": hashes.SHA384(), SHA2 + "03": hashes.SHA512()}
        h = h[der(digest[1])[0][1].hex()]
        key, at = cert.public_key(), datetime.datetime.strptime(info[4][1][:14].decode() + "+0000", "%Y%m%d%H%M%S%z")
        signed_attributes = b"\x31" + attrs[2][1:]  # signed as a SET, their [0] tag replaced; they hold the digest
        if isinstance(key, rsa.RSAPublicKey):  # PKCS #1 v1.5 (RSASSA-PSS is not read here)
            key.verify(signature[1], signed_attributes, padding.PKCS1v15(), h)
        elif isinstance(key, ec.EllipticCurvePublicKey):
            key.verify(signature[1], signed_attributes, ec.ECDSA(h))
        else:  # EdDSA
            key.verify(signature[1], signed_attributes)
    except Exception as exc:
        sys.exit(f"FAIL the tree head's time-stamp token does not verify ({type(exc).__name__}: {exc})")
    if (kind.hex(), content_type.hex(), attributes.get(PKCS + "0903")) != (PKCS + "0702", TST_INFO, content_type):
        sys.exit("FAIL the tree head's time-stamp token is not a signed TSTInfo")
    if attributes.get(PKCS + "0904") != hashlib.new(h.name, tst).digest():
        sys.exit("FAIL the time-stamp token's TSTInfo is not the one its authority signed (altered)")
    if (der(algorithm)[0][1].hex(), imprint.hex()) != (SHA2 + "01", head["hash"]):
        sys.exit("FAIL the time-stamp token is not over this tree head (its message imprint is another hash)")
    when = f", time-stamped {at:%Y-%m-%dT%H:%M:%SZ} by {cert.subject.rfc4514_string()}"
    if not roots:
        return when + " (time unverified: without --tsa-root any authority could have made the token)"
    usage = [e.value for e in cert.extensions if isinstance(e.value, x509.ExtendedKeyUsage)]
    if not (usage and x509.ExtendedKeyUsageOID.TIME_STAMPING in usage[0] and chained(cert, certs, roots, at)):
        sys.exit(
            "FAIL the time-stamp authority is not trusted: no time-stamping certificate valid then under a --tsa-root"
        )
    return when + " (trusted root)"


def checkpoint(part, register, key_hex):  # §14: the register's head as a signed note; (size, root, cosignatures)
    text, _, block = part["checkpoint"].rpartition("\n\n")
    (origin, size, top), lines, key = text.split("\n"), block.splitlines(), bytes.fromhex(key_hex)
    for name, raw in ((n, base64.b64decode(s)) for _, n, s in (line.split(" ") for line in lines)):
        if raw[:4] == hashlib.sha256(name.encode() + b"\n\1" + key).digest()[:4] and origin == f"{name}/{register}":
            try:
                Ed25519PublicKey.from_public_bytes(key).verify(raw[4:], f"{text}\n".encode())
            except Exception:  # InvalidSignature
                break
            return int(size), base64.b64decode(top), f", {len(lines) - 1} witness cosignatures" * (len(lines) > 1)
    sys.exit(f"FAIL {register}: its checkpoint is not signed for {register} by the public key given")


def head_of(part, register):  # what a proof's part signs: (size, root, time, tree head number, establishment)
    if "checkpoint" in part:  # format 3: the register's signed checkpoint (its register's number names the house)
        return (*checkpoint(part, register, args[0]), part["tree_head"], None)
    leaf_, head = part["leaf"], part["tree_head"]  # format 2: the register's leaf and its audit path in a tree head
    time, data = signed(head, args[0], roots), leaf(register, leaf_["seq"], leaf_["hash"], leaf_["root"])
    top = path_root(data, part["leaf_index"], head["size"], part["audit_path"])
    if leaf_["register"] != register or "format" not in head or top is None or top.hex() != head["root"]:
        sys.exit(f"FAIL {register}: its leaf does not lead to the root tree head n° {head['number']} signed")
    return leaf_["seq"], bytes.fromhex(leaf_["root"]), time, head["number"], head["establishment"]


def held(current, files, key_hex, roots):  # the heads received before and this one: one sequence, no fork
    heads = {current["number"]: current}
    for f in (g for d in files for g in (sorted(d.glob("*.json")) if d.is_dir() else [d])):
        head = json.loads(f.read_text(encoding="utf-8"))
        signed(head, key_hex, roots)
        if head["establishment"] != current["establishment"]:
            sys.exit(f"FAIL {f.name}: tree head of another establishment ({head['establishment']})")
        if heads.setdefault(head["number"], head)["hash"] != head["hash"]:
            sys.exit(f"FAIL tree head n° {head['number']}: two different heads with that number (a fork or a re-seal)")
    numbers = sorted(heads)
    for a, b in (map(heads.get, pair) for pair in zip(numbers, numbers[1:], strict=False)):  # noqa: RUF007
        if (b["number"] == a["number"] + 1 and b["prev"] != a["hash"]) or b["created_at"] < a["created_at"]:
            sys.exit(f"FAIL tree head n° {b['number']} does not follow n° {a['number']} (chain or time broken)")
        later = {leaf_["register"]: (leaf_["seq"], leaf_["hash"]) for leaf_ in b["leaves"]}
        for leaf_ in a["leaves"]:
            seq, digest = later.get(leaf_["register"], (0, ""))
            if seq < leaf_["seq"] or (seq == leaf_["seq"] and digest != leaf_["hash"]):
                sys.exit(
                    f"FAIL {leaf_['register']} n° {leaf_['seq']}: head n° {b['number']} not after n° {a['number']}"
                )
    return [heads[n] for n in numbers]


cli = argparse.ArgumentParser(usage=__doc__)
cli.add_argument("files", nargs="+")
cli.add_argument("--earlier", action="append", default=[], type=pathlib.Path, help="tree heads received before")
cli.add_argument("--qr", help="a printed page's QR code (§13), as text or in a file")
cli.add_argument("--tsa-root", action="append", default=[], type=pathlib.Path, help="root certificates (PEM)")
options = cli.parse_intermixed_args()
roots = [c for f in options.tsa_root for c in x509.load_pem_x509_certificates(f.read_bytes())]
path, args = pathlib.Path(options.files[0]), options.files[1:]
document = json.loads(path.read_text(encoding="utf-8")) if path.suffix == ".json" else {}


def page_of(text):  # §13: LEDGER1;register;seq;hash;establishment;tree head, or LEDGER2 … tree head size host
    qr = text if text.startswith("LEDGER") else pathlib.Path(text).read_text("utf-8").strip()
    page = qr.split(";") if qr.startswith("LEDGER1;") else qr.split(" ")
    if (page[0], len(page)) not in (("LEDGER1", 6), ("LEDGER2", 8)) or not page[2].isdigit():
        sys.exit("FAIL not the QR code of a printed page (LEDGER1;register;seq;hash;… or LEDGER2 register seq hash …)")
    return page[1], int(page[2]), page[3].lower(), page[4].lower(), page[5]


if "leaves" in document:  # a tree head, the exports it covers, and a printed page it covers
    time = signed(document, args[0], roots)
    heads = {leaf_["register"]: (leaf_["seq"], leaf_["hash"], leaf_.get("root")) for leaf_ in document["leaves"]}
    if root([leaf(r, *heads[r]) for r in sorted(heads)]).hex() != document["root"] or len(heads) != document["size"]:
        sys.exit("FAIL the tree head's root is not the Merkle root of its leaves")
    sequence = held(document, options.earlier, args[0], roots)
    exports = {}
    for export in map(pathlib.Path, args[1:]):
        if not (first := export.open(encoding="utf-8").readline()):
            sys.exit(f"FAIL {export.name}: empty export, no entry to verify (a volume awaiting its opening has none)")
        exports[json.loads(first)["register"]] = export
    anchors = {register: [(*heads[register][:2], "the tree head signed", None)] for register in exports}
    for head in sequence:  # every head held: what it signed (from format 2, the Merkle root too) is in the exports
        for leaf_ in (leaf_ for leaf_ in head["leaves"] if leaf_["register"] in exports):
            who = f"tree head n° {head['number']} signed"
            anchors[leaf_["register"]].append((leaf_["seq"], leaf_["hash"], who, leaf_.get("root")))
    time += f"; {len(sequence)} tree heads held in sequence" if len(sequence) > 1 else ""
    if options.qr:
        register, seq, digest, establishment, printed = page_of(options.qr)
        if establishment != document["establishment"].lower() or seq > heads.get(register, (0,))[0]:
            sys.exit(
                f"FAIL {register} n° {seq}: not covered by this tree head (another establishment's, or sealed before)"
            )
        if register not in exports:
            sys.exit(f"FAIL {register} n° {seq}: give the export of {register} to check the printed page against")
        anchors[register].append((seq, digest, "the printed page shows", None))
        time += f"; printed page {register} n° {seq} (tree head n° {printed} when printed) covered"
    for register, export in exports.items():
        verify(export, anchors=anchors[register])
    sys.exit(print(f"OK tree head {document['establishment']} n° {document['number']}, {len(exports)} exports{time}"))
if "inclusion" in document:  # one entry, its path to the register's Merkle root, and what signs that root
    entry, register = document["entry"], document["register"]
    digest = hashlib.sha256(canon({k: entry[k] for k in HASHED if k in entry})).hexdigest()
    if (entry["register"], entry["seq"], entry["entry_hash"]) != (register, document["seq"], digest):
        sys.exit(f"FAIL seq {document['seq']}: the entry's content does not give its hash")
    size, top, time, number, establishment = head_of(document, register)
    h, hashes = hashlib.sha256(b"\0" + bytes.fromhex(digest)).digest(), len(document["inclusion"])
    if path_root(h, entry["seq"] - 1, size, document["inclusion"]) != top:
        sys.exit(f"FAIL {register} n° {entry['seq']}: its inclusion path does not lead to a root the tree head signed")
    if options.qr:  # the page the proof was fetched for (§13): the same register, entry, hash and establishment
        page = page_of(options.qr)
        owned = establishment.lower() == page[3] if establishment else register.lower().startswith(page[3] + "-")
        if page[:3] != (register, entry["seq"], digest) or not owned:
            sys.exit(f"FAIL {page[0]} n° {page[1]}: this proof is not of the printed page's entry")
        time += "; the printed page's entry"
    hashes += len(document.get("audit_path", ()))
    sys.exit(print(f"OK {register} n° {entry['seq']} in tree head n° {number} ({size} entries, {hashes} hashes){time}"))
if "consistency" in document:  # a register's tree in a later tree head extends the one in an earlier
    register = document["register"]
    (m, old, _, a, house), (n, new, _, b, other) = (head_of(document[k], register) for k in ("first", "second"))
    if house != other or a > b:
        sys.exit(f"FAIL {register}: the two heads are not the register's in two tree heads in order")
    extends = f"its tree of {n} entries (tree head n° {b}) does not extend its tree of {m} entries (tree head n° {a})"
    if not consistent(m, n, old, new, document["consistency"]):
        sys.exit(f"FAIL {register}: {extends}: rewritten or forked")
    sys.exit(print(f"OK {register}: tree head n° {b} ({n} entries) extends n° {a} ({m} entries)"))
files = document.get("files")
for f in files or ():  # a manifest: each file's digest, and each export's chain, count and last hash
    if hashlib.sha256((path.parent / f["name"]).read_bytes()).hexdigest() != f["sha256"] or (
        "head_hash" in f and verify(path.parent / f["name"]) != (f["entries"], f["head_hash"])
    ):
        sys.exit(f"FAIL {f['name']}: does not match the manifest (SHA-256, entry count or last hash)")
earlier = open(args[0], encoding="utf-8") if args else None
print(f"OK {len(files)} files" if files is not None else "OK {} entries, last hash {}".format(*verify(path, earlier)))
