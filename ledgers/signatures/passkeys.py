"""Passkeys (WebAuthn) that sign acts.

A signature act (a visa, a cote et paraphe…) is signed by the signer's passkey over the act's own
digest: SHA-256 of the canonical JSON (keys sorted, separators ``,`` and ``:``, UTF-8) of
``{"register": number, "kind": entry kind, "payload": the entry's payload without "passkey"}``.
That digest is the WebAuthn challenge, so the assertion binds that act and no other; the
assertion (credential id, authenticator data, client data, signature) goes into the entry's hashed
payload under ``passkey``, and anyone holding the credential's public key (a line of the register
of authorisations) verifies it offline (docs/ledger-format.md, "Passkeys").
"""

import base64
import dataclasses
import hashlib
import json
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from .models import Passkey

# A page's form sent with this header is tried, never kept: the answer is the act's WebAuthn
# request options, which the browser signs before sending the form for good.
PROBE_HEADER = "X-Passkey-Probe"
ASSERTION_KEYS = ("credential_id", "authenticator_data", "client_data_json", "signature")


def b64u(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def unb64u(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def canonical(document: Any) -> bytes:
    return json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def act_digest(*, register: str, kind: str, payload: dict[str, Any]) -> bytes:
    """The digest an act's passkey signs: its register, its entry kind and its payload (the
    assertion itself left out)."""
    body = {k: v for k, v in payload.items() if k not in ("passkey", "passkeys")}
    return hashlib.sha256(canonical({"register": register, "kind": kind, "payload": body})).digest()


def author_signs(kind: str, payload: Any) -> bool:
    """Whether an entry is its author's own signature, signed with their passkey (under
    ``passkey``) whenever they held an active one when it was recorded: a visa, an opening act
    (the cote et paraphe), a printed volume's paraphe (the line naming its pages' digests)."""
    return kind in ("visa", "opening") or (isinstance(payload, dict) and "page_digests" in payload)


def rp_id() -> str:
    return getattr(settings, "WEBAUTHN_RP_ID", "localhost")


def origin_allowed(origin: str, rp: str) -> bool:
    """An origin the browser may sign from for ``rp``: that domain or a subdomain, over https
    (http for the machine itself)."""
    parts = urlsplit(origin)
    host = parts.hostname or ""
    local = host in ("localhost", "127.0.0.1")
    return (parts.scheme == "https" or (parts.scheme == "http" and local)) and (host == rp or host.endswith("." + rp))


class PasskeyRequired(ValidationError):
    """The act waits for the signer's passkey: ``options`` are the WebAuthn request options (the
    act's digest as challenge) the browser or an API client signs."""

    def __init__(self, options: dict[str, Any], *, field: str = "passkey", who: str = ""):
        message = (
            _("%(who)s : signez cet acte avec votre clé d'accès.") % {"who": who}
            if who
            else _("Signez cet acte avec votre clé d'accès.")
        )
        super().__init__({field: message})
        self.options, self.field = options, field


def active_passkeys(user: AbstractBaseUser):
    return Passkey.objects.filter(user=user, revoked_at=None)


def assertion_from_credential(credential: dict[str, Any] | str) -> dict[str, str]:
    """The four parts kept in the entry, from the browser's PublicKeyCredential (as JSON), or a
    ValidationError on ``passkey``."""
    try:
        data = json.loads(credential) if isinstance(credential, str) else credential
        response = data["response"]
        assertion = {
            "credential_id": data["id"],
            "authenticator_data": response["authenticatorData"],
            "client_data_json": response["clientDataJSON"],
            "signature": response["signature"],
        }
        for value in assertion.values():
            unb64u(value)
            if not isinstance(value, str):
                raise TypeError
    except (ValueError, KeyError, TypeError) as exc:
        raise ValidationError({"passkey": _("Signature par clé d'accès illisible.")}) from exc
    return assertion


def check_assertion(
    assertion: dict[str, str], *, public_key: str, algorithm: int, rp: str, challenge: bytes
) -> str | None:
    """Why ``assertion`` is not a signature of ``challenge`` by the key ``public_key``
    (SubjectPublicKeyInfo, base64url) for the domain ``rp``; None when it is. The steps an
    auditor follows offline (docs/ledger-format.md)."""
    try:
        client_bytes = unb64u(assertion["client_data_json"])
        auth_data = unb64u(assertion["authenticator_data"])
        signature = unb64u(assertion["signature"])
        client = json.loads(client_bytes)
    except (ValueError, KeyError, TypeError):
        return "the passkey assertion is unreadable"
    if client.get("type") != "webauthn.get":
        return "the client data is not that of a WebAuthn assertion"
    if client.get("challenge") != b64u(challenge):
        return "the passkey signed another act (its challenge is not this entry's digest)"
    if not origin_allowed(client.get("origin", ""), rp):
        return f"the passkey signed on another site ({client.get('origin')!r})"
    if len(auth_data) < 37 or auth_data[:32] != hashlib.sha256(rp.encode()).digest():
        return "the authenticator data is not for this domain"
    if not auth_data[32] & 0x01:
        return "the authenticator saw no user presence"
    # Here only: every process that loads the apps (a ledger command's start) loads this module.
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec, padding, rsa
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    key = serialization.load_der_public_key(unb64u(public_key))
    signed = auth_data + hashlib.sha256(client_bytes).digest()
    try:
        if isinstance(key, ec.EllipticCurvePublicKey):
            key.verify(signature, signed, ec.ECDSA(hashes.SHA256()))
        elif isinstance(key, rsa.RSAPublicKey):
            key.verify(signature, signed, padding.PKCS1v15(), hashes.SHA256())
        elif isinstance(key, Ed25519PublicKey):
            key.verify(signature, signed)
        else:
            return f"unsupported key algorithm {algorithm}"
    except InvalidSignature:
        return "the passkey's signature does not verify with the credential's public key"
    return None


def _credentials(passkey: Any) -> list[Any]:
    """The credentials given for an act: one, or a list of them (one per entry of the act the
    signer signs: a witness's countersignature of a destruction and their visa of it)."""
    if passkey and isinstance(passkey, str):
        try:
            passkey = json.loads(passkey)
        except ValueError as exc:
            raise ValidationError({"passkey": _("Signature par clé d'accès illisible.")}) from exc
    if not passkey:
        return []
    return passkey if isinstance(passkey, list) else [passkey]


def _challenge_of(assertion: dict[str, str]) -> str:
    try:
        return str(json.loads(unb64u(assertion["client_data_json"])).get("challenge", ""))
    except (ValueError, AttributeError):
        return ""


def _signature(
    user: AbstractBaseUser, passkey: Any, challenge: bytes, field: str, used: list[dict[str, str]]
) -> dict[str, str] | None:
    """The assertion among those given (``passkey``) that is ``user``'s signature of ``challenge``,
    taken from those the act has not ``used`` yet; None when none is left for it (the act asks for
    one more), a ValidationError on ``field`` when the one left signs something else or is not a
    passkey of ``user``'s."""
    wanted = b64u(challenge)
    for assertion in used:  # the same entry built again (a retried append)
        if _challenge_of(assertion) == wanted:
            return assertion
    left = [a for a in (assertion_from_credential(c) for c in _credentials(passkey)) if a not in used]
    if not left:
        return None
    assertion = next((a for a in left if _challenge_of(a) == wanted), left[0])
    credential = active_passkeys(user).filter(credential_id=assertion["credential_id"]).first()
    if credential is None:
        raise ValidationError({field: _("Cette clé d'accès n'est pas l'une des vôtres : signature refusée.")})
    reason = check_assertion(
        assertion,
        public_key=credential.public_key,
        algorithm=credential.algorithm,
        rp=credential.rp_id,
        challenge=challenge,
    )
    if reason is not None:
        raise ValidationError(
            {field: _("La clé d'accès n'a pas signé cet acte : signature refusée (%(reason)s).") % {"reason": reason}}
        )
    used.append(assertion)
    return assertion


@dataclasses.dataclass
class Signer:
    """A person who signs the act being done at this terminal (its author re-authenticated, or a
    countersigner), their passkey assertion if given, and the input it came in."""

    user: AbstractBaseUser
    passkey: Any = None
    field: str = "passkey"
    done: bool = False
    signed: dict[str, Any] = dataclasses.field(default_factory=dict)
    used: list[dict[str, str]] = dataclasses.field(default_factory=list)  # its assertions already taken

    def asked(self, challenge: bytes) -> "PasskeyRequired":
        """The request for this signer's passkey over ``challenge``, naming them when they are not
        the act's author."""
        from .ceremonies import assertion_options  # the ceremonies module imports this one

        who = "" if self.field == "passkey" else self.user.get_full_name() or self.user.get_username()
        return PasskeyRequired(assertion_options(self.user, challenge), field=self.field, who=who)


_signers: ContextVar[list[Signer] | None] = ContextVar("act_signers", default=None)


@contextmanager
def signing(signers: Iterable[Signer]) -> Iterator[None]:
    """Within the block, the first register entry the act appends carries the passkey assertions
    of those of ``signers`` who hold a passkey (``sign_entry``)."""
    token = _signers.set([s for s in signers if s.user is not None])
    try:
        yield
    finally:
        _signers.reset(token)


def add_signer(signer: Signer) -> None:
    """One more signer of the act under way (a countersigner authenticated while it is done)."""
    signers = _signers.get()
    if signers is not None and signer.user is not None and all(s.user.pk != signer.user.pk for s in signers):
        signers.append(signer)


def _signer(user: AbstractBaseUser) -> Signer | None:
    """``user`` as a signer of the act under way, if they are one."""
    return next((s for s in _signers.get() or () if s.user.pk == user.pk), None)


def sign_entry(*, register: str, kind: str, payload: dict[str, Any]) -> dict[str, Any]:
    """``payload`` with, under ``passkeys`` (login → assertion), the assertion over the entry's
    digest of each signer of the act (``signing``) who holds a passkey: the first entry the act
    appends is the one they sign. PasskeyRequired names the first who has not signed yet."""
    signers = [s for s in (_signers.get() or ()) if not s.done]
    if not signers:
        return payload
    challenge = act_digest(register=register, kind=kind, payload=payload)
    for signer in signers:
        if signer.signed and signer.signed["challenge"] != challenge:
            signer.done = True  # signed an earlier entry of the act
    assertions: dict[str, Any] = {}
    for signer in (s for s in signers if not s.done):
        if not signer.signed and not active_passkeys(signer.user).exists():
            signer.done = True
            continue
        assertion = _signature(signer.user, signer.passkey, challenge, signer.field, signer.used)
        if assertion is None:
            raise signer.asked(challenge)
        signer.signed = {"challenge": challenge}
        assertions[signer.user.get_username()] = assertion
    return {**payload, "passkeys": assertions} if assertions else payload


def signed_payload(
    *, actor: AbstractBaseUser, register: str, kind: str, payload: dict[str, Any], passkey: Any, required: bool = False
) -> dict[str, Any]:
    """``payload`` with the signer's passkey assertion over the act's digest under ``passkey``,
    when the signer has a passkey or ``required``: the one given, or, within an act at this
    terminal (``signing``), the one its signer gave for this entry (an act may write several
    entries in their name, each signed). PasskeyRequired (the request options) when there is
    none, a ValidationError when the one given does not sign this act with a passkey of theirs."""
    held = active_passkeys(actor).exists()
    if not held and not required:
        return payload
    if not held:
        raise ValidationError(
            {"passkey": _("Cet acte se signe avec une clé d'accès : enregistrez-en une depuis votre profil.")}
        )
    challenge = act_digest(register=register, kind=kind, payload=payload)
    signer = _signer(actor) or Signer(actor, passkey)
    signer.done = True  # this entry carries its own signature: the act's first entry need not
    assertion = _signature(actor, passkey or signer.passkey, challenge, signer.field, signer.used)
    if assertion is None:
        raise signer.asked(challenge)
    return {**payload, "passkey": assertion}
