"""python verify_passkeys.py REGISTER.jsonl AUTHORISATIONS.jsonl (docs/ledger-format.md, "Passkey signatures")

Checks every passkey (WebAuthn) assertion kept in the entries of a register's export with the public key
of its credential's registration line in the export of the register of authorisations, and that every
visa, opening act and volume paraphe whose author held an active passkey when it was recorded carries
their assertion. Check the exports' chains first with verify_export.py. Needs the Python package
`cryptography`."""

import base64
import hashlib
import json
import pathlib
import sys

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, padding, rsa


def canon(document):
    return json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def b64u(text):  # base64url without padding, as WebAuthn writes it
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def credentials(path):  # credential id → its registration line's payload; login → [(registered, revoked or "")]
    keys, revoked = {}, {}
    for line in path.open(encoding="utf-8"):
        entry = json.loads(line)
        payload = entry["payload"]
        if isinstance(payload, dict) and "credential_id" in payload and "public_key" in payload:
            keys.setdefault(payload["credential_id"], {**payload, "recorded_at": entry["recorded_at"]})
        elif isinstance(payload, dict) and "credential_id" in payload and "revoked_at" in payload:
            revoked.setdefault(payload["credential_id"], entry["recorded_at"])
    held = {}
    for credential_id, key in keys.items():
        held.setdefault(key.get("person"), []).append((key["recorded_at"], revoked.get(credential_id, "")))
    return keys, held


def author_signs(entry):  # a visa, an opening act, a printed volume's paraphe: the author's own signature
    payload = entry["payload"]
    return entry["kind"] in ("visa", "opening") or (isinstance(payload, dict) and "page_digests" in payload)


def check(entry, person, assertion, keys):  # why `assertion` is not `person`'s signature of the entry's act, or None
    key = keys.get(assertion.get("credential_id"))
    if key is None:
        return f"passkey {assertion.get('credential_id')} has no registration line in the export given"
    if key.get("person") != person:
        return f"passkey {assertion['credential_id']} is {key.get('person')}'s, not the signer's ({person})"
    body = {k: v for k, v in entry["payload"].items() if k not in ("passkey", "passkeys")}
    digest = hashlib.sha256(canon({"register": entry["register"], "kind": entry["kind"], "payload": body})).digest()
    client_bytes, data = b64u(assertion["client_data_json"]), b64u(assertion["authenticator_data"])
    client, signature = json.loads(client_bytes), b64u(assertion["signature"])
    if client.get("type") != "webauthn.get":
        return "the client data is not that of a WebAuthn assertion"
    if client.get("challenge") != base64.urlsafe_b64encode(digest).rstrip(b"=").decode():
        return "the passkey signed another act (its challenge is not this entry's digest)"
    host = client.get("origin", "").partition("://")[2].partition(":")[0]
    if host != key["rp_id"] and not host.endswith("." + key["rp_id"]):
        return f"the passkey signed on another site ({client.get('origin')})"
    if data[:32] != hashlib.sha256(key["rp_id"].encode()).digest() or not data[32] & 1:
        return f"the authenticator data is not for {key['rp_id']} or shows no user presence"
    public = serialization.load_der_public_key(b64u(key["public_key"]))
    signed = data + hashlib.sha256(client_bytes).digest()
    try:
        if isinstance(public, ec.EllipticCurvePublicKey):  # ES256: ECDSA P-256, SHA-256, DER signature
            public.verify(signature, signed, ec.ECDSA(hashes.SHA256()))
        elif isinstance(public, rsa.RSAPublicKey):  # RS256
            public.verify(signature, signed, padding.PKCS1v15(), hashes.SHA256())
        else:  # EdDSA (Ed25519)
            public.verify(signature, signed)
    except InvalidSignature:
        return "the passkey's signature does not verify with the public key of its registration line"
    return None


if len(sys.argv) != 3:
    sys.exit(__doc__)
(keys, held), count = credentials(pathlib.Path(sys.argv[2])), 0
for line in pathlib.Path(sys.argv[1]).open(encoding="utf-8"):
    entry = json.loads(line)
    payload = entry["payload"] if isinstance(entry["payload"], dict) else {}
    signers = [(entry["actor"], payload["passkey"])] if "passkey" in payload else []
    for person, assertion in [*signers, *payload.get("passkeys", {}).items()]:  # its author, its other signers
        reason = check(entry, person, assertion, keys)
        if reason:
            sys.exit(f"{entry['register']} seq {entry['seq']}: {reason}")
        count += 1
    # Timestamps are canonical (fixed width, UTC): they compare as text.
    at = entry["recorded_at"]
    if (
        not signers
        and author_signs(entry)
        and any(since < at and (not until or at < until) for since, until in held.get(entry["actor"], ()))
    ):
        sys.exit(f"{entry['register']} seq {entry['seq']}: signed without the passkey its author held then")
print(f"OK {count} passkey signature(s), each verified with its registration line's public key")
