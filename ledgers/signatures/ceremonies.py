"""The WebAuthn ceremonies: the options a browser signs with (creating a passkey, or asserting one
over an act's digest) and the attestation of a new passkey. With the webauthn library, which the
signing and the offline verification of assertions (``passkeys``) do not need: commands that read
the registers start without it."""

import json
from typing import Any

from cryptography.hazmat.primitives import serialization
from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _
from webauthn import (
    generate_authentication_options,
    generate_registration_options,
    options_to_json,
    verify_registration_response,
)
from webauthn.helpers import decode_credential_public_key, decoded_public_key_to_cryptography
from webauthn.helpers.exceptions import InvalidRegistrationResponse
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from .passkeys import active_passkeys, b64u, origin_allowed, rp_id, unb64u


def registration_options(user: AbstractBaseUser) -> tuple[dict[str, Any], bytes]:
    """The creation options of a new passkey of ``user`` and their challenge (kept by the caller)."""
    options = generate_registration_options(
        rp_id=rp_id(),
        rp_name=str(getattr(settings, "WEBAUTHN_RP_NAME", "Registres")),
        user_name=user.get_username(),
        user_id=str(user.pk).encode(),
        user_display_name=user.get_full_name() or user.get_username(),
        authenticator_selection=AuthenticatorSelectionCriteria(
            resident_key=ResidentKeyRequirement.PREFERRED, user_verification=UserVerificationRequirement.PREFERRED
        ),
        exclude_credentials=[PublicKeyCredentialDescriptor(id=unb64u(p.credential_id)) for p in active_passkeys(user)],
    )
    return json.loads(options_to_json(options)), options.challenge


def registration_verify(*, credential: dict[str, Any] | str, challenge: bytes) -> dict[str, Any]:
    """The new credential's id and public key (COSE and SubjectPublicKeyInfo), once its
    attestation answers ``challenge``; a ValidationError on ``credential`` else."""
    try:
        verified = verify_registration_response(
            credential=credential,
            expected_challenge=challenge,
            expected_rp_id=rp_id(),
            expected_origin=_origin_of(credential),
        )
    except (InvalidRegistrationResponse, ValueError, KeyError, TypeError) as exc:
        raise ValidationError({"credential": _("Clé d'accès non reconnue : %(reason)s") % {"reason": exc}}) from exc
    cose = verified.credential_public_key
    key = decoded_public_key_to_cryptography(decode_credential_public_key(cose))
    spki = key.public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)
    return {
        "credential_id": b64u(verified.credential_id),
        "public_key_cose": b64u(cose),
        "public_key": b64u(spki),
        "algorithm": int(_cose_alg(cose)),
        "rp_id": rp_id(),
    }


def _cose_alg(cose: bytes) -> int:
    return decode_credential_public_key(cose).alg


def _origin_of(credential: dict[str, Any] | str) -> str:
    """The origin the client data names, if the browser may sign from it for this domain."""
    data = json.loads(credential) if isinstance(credential, str) else credential
    client = json.loads(unb64u(data["response"]["clientDataJSON"]))
    origin = client.get("origin", "")
    if not origin_allowed(origin, rp_id()):
        raise ValueError(f"origin {origin!r}")
    return origin


def assertion_options(user: AbstractBaseUser, challenge: bytes) -> dict[str, Any]:
    options = generate_authentication_options(
        rp_id=rp_id(),
        challenge=challenge,
        allow_credentials=[PublicKeyCredentialDescriptor(id=unb64u(p.credential_id)) for p in active_passkeys(user)],
        user_verification=UserVerificationRequirement.PREFERRED,
    )
    return json.loads(options_to_json(options))
