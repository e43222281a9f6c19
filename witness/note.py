"""The C2SP transparency-log text formats: signed notes and verifier keys (c2sp.org/signed-note),
checkpoints (c2sp.org/tlog-checkpoint) and Ed25519 cosignatures (c2sp.org/tlog-cosignature).

Only Ed25519 is spoken: signature type 0x01 for a log's signature, 0x04 for a cosignature."""

import base64
import binascii
import hashlib
from dataclasses import dataclass
from pathlib import Path

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

ED25519 = 0x01
COSIGNATURE_V1 = 0x04
DASH = "\u2014"
MAX_SIGNATURES = 16
EMPTY_ROOT = hashlib.sha256(b"").digest()


class NoteError(ValueError):
    """A note, checkpoint, key or cosignature that is malformed or does not verify."""


def key_id(name: str, kind: int, public: bytes) -> bytes:
    """SHA-256(name ‖ 0x0A ‖ type ‖ public key)[:4], the recommended (and, for cosignatures, the
    mandatory) key ID."""
    return hashlib.sha256(name.encode("utf-8") + b"\n" + bytes([kind]) + public).digest()[:4]


def raw_public(key: Ed25519PublicKey) -> bytes:
    return key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


def _valid_name(name: str) -> bool:
    return bool(name) and "+" not in name and not any(c.isspace() for c in name)


@dataclass(frozen=True)
class Verifier:
    """A verifier key: the key name, its type (0x01 log, 0x04 cosigner) and the Ed25519 key."""

    name: str
    kind: int
    public: bytes

    @property
    def id(self) -> bytes:
        return key_id(self.name, self.kind, self.public)

    @property
    def key(self) -> Ed25519PublicKey:
        return Ed25519PublicKey.from_public_bytes(self.public)

    def __str__(self) -> str:
        """The vkey: name+hex(key ID)+base64(type ‖ public key)."""
        return f"{self.name}+{self.id.hex()}+{base64.b64encode(bytes([self.kind]) + self.public).decode()}"

    def verify(self, signature: bytes, message: bytes) -> bool:
        try:
            self.key.verify(signature, message)
        except InvalidSignature:
            return False
        return True


def parse_vkey(text: str) -> Verifier:
    try:
        name, hex_id, material = text.strip().split("+", 2)
        raw = base64.b64decode(material, validate=True)
    except (ValueError, binascii.Error) as exc:
        raise NoteError(f"not a verifier key: {text!r}") from exc
    if not _valid_name(name) or len(raw) != 33 or raw[0] not in (ED25519, COSIGNATURE_V1):
        raise NoteError(f"not an Ed25519 verifier key: {text!r}")
    verifier = Verifier(name, raw[0], raw[1:])
    if verifier.id.hex() != hex_id:
        raise NoteError(f"the key ID of {name} does not match its key")
    return verifier


def load_private(text: str) -> Ed25519PrivateKey:
    """A PEM (PKCS#8) Ed25519 private key, or the 64 hex digits of its seed."""
    text = text.strip()
    if text.startswith("-----BEGIN"):
        key = serialization.load_pem_private_key(text.encode("ascii"), password=None)
        if not isinstance(key, Ed25519PrivateKey):
            raise NoteError("the key is not an Ed25519 key")
        return key
    return Ed25519PrivateKey.from_private_bytes(bytes.fromhex(text))


def read_private(path: Path) -> Ed25519PrivateKey:
    return load_private(path.read_text(encoding="ascii"))


def private_pem(key: Ed25519PrivateKey) -> str:
    return key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    ).decode("ascii")


def signature_line(name: str, kid: bytes, signature: bytes) -> str:
    return f"{DASH} {name} {base64.b64encode(kid + signature).decode()}\n"


def sign(text: str, name: str, key: Ed25519PrivateKey) -> str:
    """The Ed25519 (type 0x01) signature line of ``key`` named ``name`` over the note text."""
    return signature_line(name, key_id(name, ED25519, raw_public(key.public_key())), key.sign(text.encode("utf-8")))


def split(note: str) -> tuple[str, list[tuple[str, bytes, bytes]]]:
    """(text, [(key name, key ID, signature)]) of a signed note; the text ends in a newline and is
    separated from the signature lines by the last empty line."""
    if any(ord(c) < 0x20 and c != "\n" for c in note):
        raise NoteError("a note holds no control character other than newline")
    text, sep, block = note.rpartition("\n\n")
    if not sep or not block.endswith("\n"):
        raise NoteError("no signature block after an empty line")
    signatures = []
    for line in block[:-1].split("\n"):
        parts = line.split(" ")
        if len(parts) != 3 or parts[0] != DASH or not _valid_name(parts[1]):
            raise NoteError(f"not a signature line: {line!r}")
        try:
            raw = base64.b64decode(parts[2], validate=True)
        except binascii.Error as exc:
            raise NoteError(f"not base64: {parts[2]!r}") from exc
        if len(raw) < 5:
            raise NoteError("a signature is a key ID and at least one byte")
        signatures.append((parts[1], raw[:4], raw[4:]))
    if len(signatures) > MAX_SIGNATURES:
        raise NoteError("too many signatures")
    return text + "\n", signatures


def verify(note: str, verifiers: list[Verifier]) -> str:
    """The note's text, once a signature of one of ``verifiers`` (type 0x01) verifies; unknown
    signatures are ignored, a known one that fails rejects the note."""
    text, signatures = split(note)
    known = {(v.name, v.id): v for v in verifiers if v.kind == ED25519}
    verified = False
    for name, kid, signature in signatures:
        verifier = known.get((name, kid))
        if verifier is None:
            continue
        if not verifier.verify(signature, text.encode("utf-8")):
            raise NoteError(f"the signature of {name} does not verify")
        verified = True
    if not verified:
        raise NoteError("no signature from a trusted key")
    return text


@dataclass(frozen=True)
class Checkpoint:
    origin: str
    size: int
    root: bytes
    extensions: tuple[str, ...] = ()

    @property
    def text(self) -> str:
        lines = [self.origin, str(self.size), base64.b64encode(self.root).decode(), *self.extensions]
        return "\n".join(lines) + "\n"


def parse_checkpoint(text: str) -> Checkpoint:
    lines = text.split("\n")
    if len(lines) < 4 or lines[-1] != "" or any(not line for line in lines[:-1]):
        raise NoteError("a checkpoint is at least three non-empty lines")
    origin, size, root = lines[:3]
    if not size.isdigit() or (size != "0" and size.startswith("0")):
        raise NoteError(f"not a tree size: {size!r}")
    try:
        digest = base64.b64decode(root, validate=True)
    except binascii.Error as exc:
        raise NoteError(f"not a base64 root hash: {root!r}") from exc
    if len(digest) != 32:
        raise NoteError("a root hash is 32 bytes")
    return Checkpoint(origin, int(size), digest, tuple(lines[3:-1]))


def cosigned_message(text: str, timestamp: int) -> bytes:
    return f"cosignature/v1\ntime {timestamp}\n{text}".encode()


def cosign(text: str, name: str, key: Ed25519PrivateKey, timestamp: int) -> str:
    """The cosignature/v1 line of the cosigner ``name`` over the checkpoint text at ``timestamp``."""
    signature = key.sign(cosigned_message(text, timestamp))
    kid = key_id(name, COSIGNATURE_V1, raw_public(key.public_key()))
    return signature_line(name, kid, timestamp.to_bytes(8, "big") + signature)


def cosignature_time(text: str, line: str, cosigner: Verifier) -> int | None:
    """The timestamp of ``line`` when it is a valid cosignature of ``cosigner`` over the checkpoint
    text, else None (another key, or a signature that does not verify)."""
    try:
        _, ((name, kid, raw),) = split(f"x\n\n{line}")
    except (NoteError, ValueError):
        return None
    if (name, kid) != (cosigner.name, cosigner.id) or cosigner.kind != COSIGNATURE_V1 or len(raw) != 72:
        return None
    timestamp = int.from_bytes(raw[:8], "big")
    if timestamp >= 1 << 63 or not cosigner.verify(raw[8:], cosigned_message(text, timestamp)):
        return None
    return timestamp
