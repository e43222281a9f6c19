"""Ed25519 signatures of checkpoints and tree heads (docs/ledger-format.md §9 and §11).

The private key lives outside the database: in ``LEDGERS_SIGNING_KEY`` (PEM, or the 32-byte seed
in hex) or in the PEM file named by ``LEDGERS_SIGNING_KEY_FILE``. Whoever holds only the public
keys can check every seal but forge none. A key id is the first 16 hex digits of the SHA-256 of
the raw 32-byte public key; after a rotation the earlier public keys stay listed in
``LEDGERS_PUBLIC_KEYS`` (their raw bytes in hex), so earlier seals keep verifying."""

import hashlib
from functools import cache
from pathlib import Path

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured


def raw_public(key: Ed25519PublicKey) -> bytes:
    return key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


def key_id(key: Ed25519PublicKey) -> str:
    return hashlib.sha256(raw_public(key)).hexdigest()[:16]


def load_private(text: str) -> Ed25519PrivateKey:
    """A PEM (PKCS#8) private key, or the 64 hex digits of its seed."""
    text = text.strip()
    if text.startswith("-----BEGIN"):
        key = serialization.load_pem_private_key(text.encode("ascii"), password=None)
        if not isinstance(key, Ed25519PrivateKey):
            raise ImproperlyConfigured("The ledgers signing key must be an Ed25519 key.")
        return key
    return Ed25519PrivateKey.from_private_bytes(bytes.fromhex(text))


@cache
def _private(text: str, path: str) -> Ed25519PrivateKey | None:
    if path:
        text = Path(path).read_text(encoding="ascii")
    return load_private(text) if text.strip() else None


def signing_key() -> Ed25519PrivateKey:
    key = _private(settings.LEDGERS_SIGNING_KEY, settings.LEDGERS_SIGNING_KEY_FILE)
    if key is None:
        raise ImproperlyConfigured(
            "LEDGERS_SIGNING_KEY or LEDGERS_SIGNING_KEY_FILE must be set to seal register checkpoints (DEBUG is off)."
        )
    return key


def public_keys() -> dict[str, Ed25519PublicKey]:
    """Every published public key by id: the earlier ones of LEDGERS_PUBLIC_KEYS and the current
    signing key's (when this process holds it)."""
    keys = {}
    for text in settings.LEDGERS_PUBLIC_KEYS:
        key = Ed25519PublicKey.from_public_bytes(bytes.fromhex(text.strip()))
        keys[key_id(key)] = key
    current = _private(settings.LEDGERS_SIGNING_KEY, settings.LEDGERS_SIGNING_KEY_FILE)
    if current is not None:
        keys[key_id(current.public_key())] = current.public_key()
    return keys


def current_key_id() -> str:
    return key_id(signing_key().public_key())


def sign(data: bytes) -> tuple[str, str]:
    """(key id, hex signature) of ``data`` under the current signing key."""
    key = signing_key()
    return key_id(key.public_key()), key.sign(data).hex()


def signature_valid(key_id_: str, signature: str, data: bytes) -> bool:
    """Whether ``signature`` is a signature of ``data`` by the published key ``key_id_`` (an
    unknown key id does not verify)."""
    key = public_keys().get(key_id_)
    if key is None:
        return False
    try:
        key.verify(bytes.fromhex(signature), data)
    except (InvalidSignature, ValueError):
        return False
    return True


def new_private_pem() -> str:
    """A fresh private key, PEM (PKCS#8), for ``LEDGERS_SIGNING_KEY_FILE``."""
    return (
        Ed25519PrivateKey.generate()
        .private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
        .decode("ascii")
    )


def published_keys() -> list[dict]:
    return [
        {"key_id": kid, "algorithm": "Ed25519", "public_key": raw_public(key).hex()}
        for kid, key in sorted(public_keys().items())
    ]
