"""A software authenticator (EC P-256, ES256) that answers WebAuthn options as a browser and a
security key would: attestation "none" on creation, an assertion over the challenge on request."""

import base64
import hashlib
import json
import os

import cbor2
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec


def b64u(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


class SoftAuthenticator:
    def __init__(self, *, origin: str = "http://localhost:8000", rp_id: str = "localhost"):
        self.origin, self.rp_id = origin, rp_id
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.credential_id = os.urandom(16)
        self.counter = 0

    @property
    def id(self) -> str:
        return b64u(self.credential_id)

    def _cose(self) -> bytes:
        numbers = self.key.public_key().public_numbers()
        return cbor2.dumps({1: 2, 3: -7, -1: 1, -2: numbers.x.to_bytes(32, "big"), -3: numbers.y.to_bytes(32, "big")})

    def _client(self, kind: str, challenge: str) -> bytes:
        return json.dumps({"type": kind, "challenge": challenge, "origin": self.origin}).encode()

    def create(self, options: dict) -> dict:
        client = self._client("webauthn.create", options["challenge"])
        auth = (
            hashlib.sha256(self.rp_id.encode()).digest()
            + bytes([0x45])  # user present, user verified, attested credential data
            + self.counter.to_bytes(4, "big")
            + bytes(16)
            + len(self.credential_id).to_bytes(2, "big")
            + self.credential_id
            + self._cose()
        )
        attestation = cbor2.dumps({"fmt": "none", "attStmt": {}, "authData": auth})
        return {
            "id": self.id,
            "rawId": self.id,
            "type": "public-key",
            "response": {"clientDataJSON": b64u(client), "attestationObject": b64u(attestation)},
            "clientExtensionResults": {},
        }

    def get(self, options: dict) -> dict:
        self.counter += 1
        client = self._client("webauthn.get", options["challenge"])
        auth = hashlib.sha256(self.rp_id.encode()).digest() + bytes([0x05]) + self.counter.to_bytes(4, "big")
        signature = self.key.sign(auth + hashlib.sha256(client).digest(), ec.ECDSA(hashes.SHA256()))
        return {
            "id": self.id,
            "rawId": self.id,
            "type": "public-key",
            "response": {
                "authenticatorData": b64u(auth),
                "clientDataJSON": b64u(client),
                "signature": b64u(signature),
            },
            "clientExtensionResults": {},
        }
