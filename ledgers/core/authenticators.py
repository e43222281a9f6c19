"""A person's authenticators: a TOTP device (an authenticator application) and passkeys. Each is
enrolled by its owner from their profile and revoked by them or, when lost, by the directorate;
each enrolment and revocation is a line of the register of authorisations (hooks.STAFF_ACT),
without any secret: a passkey's line names its credential id and public key, which is what an
auditor verifies the signatures it made with (docs/ledger-format.md, "Passkeys").

The establishment may require a second factor of the roles that sign (setting SET-SIGNATURE): a
code or a passkey, or a passkey. Left unset, a deployment with DEBUG off
(LEDGERS_SIGNING_SECOND_FACTOR) requires a code or a passkey of the signing roles."""

import datetime
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django_otp import user_has_device
from django_otp.plugins.otp_totp.models import TOTPDevice

from ledgers.signatures.models import Passkey
from ledgers.signatures.passkeys import active_passkeys

from . import hooks
from .authz import locked_out, roles_of, secret_refused
from .models import Establishment
from .roles import DIRECTORATE, REGULATOR_ROLES, Role
from .services import person_name, setup_role

SETTING = "SET-SIGNATURE"
NONE, CODE, PASSKEY = "aucun", "code", "cle"
FACTORS = (
    (NONE, _("aucun")),
    (CODE, _("code d'authentification ou clé d'accès")),
    (PASSKEY, _("clé d'accès")),
)
# The roles whose acts are signatures: visas, cotes et paraphes, countersignatures, the comité's
# and the police's signatures, the witnesses of destructions.
SIGNING_ROLES = tuple(dict.fromkeys((*DIRECTORATE, Role.INSPECTEUR, Role.CHEF_PARTIE, *sorted(REGULATOR_ROLES))))


def second_factor(establishment: Establishment, role: str) -> str:
    """What a signature in ``role`` asks beyond the password here (NONE, CODE or PASSKEY)."""
    chosen = (establishment.setting(SETTING) or {}).get(str(role))
    if chosen:
        return chosen
    return CODE if role in SIGNING_ROLES and settings.LEDGERS_SIGNING_SECOND_FACTOR else NONE


def passkey_required(establishment: Establishment, role: str, actor: AbstractBaseUser | None = None) -> bool:
    """Whether a signature in ``role`` must carry a passkey; a signer who must show a second
    factor and has none enrolled is refused here (ValidationError)."""
    factor = second_factor(establishment, role)
    if (
        factor == CODE
        and actor is not None
        and not user_has_device(actor, confirmed=True)
        and not active_passkeys(actor).exists()
    ):
        raise ValidationError(
            {
                "otp_token": _(
                    "Cette signature exige un second facteur : enrôlez un authentificateur ou une clé d'accès "
                    "depuis votre profil."
                )
            }
        )
    return factor == PASSKEY


def _person(user: AbstractBaseUser) -> str:
    return person_name(user)


def _by(actor: AbstractBaseUser, owner: AbstractBaseUser, establishment: Establishment) -> tuple:
    """Who writes the line of an act on ``owner``'s authenticator, and in which role: the system
    for the owner's own act (their enrolment, checked by the server: the register of
    authorisations takes no one else's hand), else a member of the directorate (``setup_role``)."""
    if owner.pk == actor.pk:
        return None, ""
    if not roles_of(owner, establishment) and not owner.is_superuser:
        raise PermissionDenied(_("Cette personne n'a pas de rôle dans l'établissement."))
    return actor, setup_role(actor, establishment)


# TOTP ---------------------------------------------------------------------------------------------


@transaction.atomic
def totp_enrol_start(*, user: AbstractBaseUser) -> TOTPDevice:
    """A new authenticator of ``user``, unconfirmed (it checks no signature until a code it shows
    is typed back); a previous unconfirmed one is dropped."""
    TOTPDevice.objects.filter(user=user, confirmed=False).delete()
    return TOTPDevice.objects.create(user=user, name=str(_("Application d'authentification")), confirmed=False)


@transaction.atomic
def totp_confirm(*, device: TOTPDevice, token: str, establishment: Establishment) -> TOTPDevice:
    """The owner types a code the new authenticator shows: from then on it is asked at each
    signature; a line of the register of authorisations says so."""
    device = TOTPDevice.objects.select_for_update().get(pk=device.pk)
    if device.confirmed:
        raise ValidationError({"token": _("Cet authentificateur est déjà confirmé.")})
    if not device.verify_token(token.strip()):
        raise ValidationError({"token": _("Code incorrect ou expiré : l'authentificateur n'est pas enrôlé.")})
    device.confirmed = True
    device.save(update_fields=["confirmed"])
    user = device.user
    hooks.record(
        hooks.STAFF_ACT,
        establishment=establishment,
        actor=None,
        role="",
        subject=_("Enrôlement d'un authentificateur"),
        text=lambda: str(
            _("%(person)s a enrôlé un authentificateur (code à usage unique, TOTP) n° %(device)s.")
            % {"person": _person(user), "device": device.pk}
        ),
        person=user.get_username(),
        device=device.pk,
    )
    return device


@transaction.atomic
def totp_revoke(*, device: TOTPDevice, actor: AbstractBaseUser, establishment: Establishment) -> None:
    """A lost or replaced authenticator withdrawn, by its owner or the directorate, with its line."""
    owner = device.user
    writer, role = _by(actor, owner, establishment)
    confirmed, number = device.confirmed, device.pk
    device.delete()
    if not confirmed:
        return
    hooks.record(
        hooks.STAFF_ACT,
        establishment=establishment,
        actor=writer,
        role=role,
        subject=_("Retrait d'un authentificateur"),
        text=lambda: str(
            _("Authentificateur n° %(device)s de %(person)s retiré par %(actor)s.")
            % {"device": number, "person": _person(owner), "actor": _person(actor)}
        ),
        person=owner.get_username(),
        device=number,
    )


# Passkeys -----------------------------------------------------------------------------------------


@transaction.atomic
def passkey_register(
    *, user: AbstractBaseUser, establishment: Establishment, name: str, credential: dict[str, Any]
) -> Passkey:
    """A passkey of ``user`` (``credential``: what ``ceremonies.registration_verify`` read from the
    authenticator), with the line naming its credential id and public key."""
    name = name.strip() or str(_("Clé d'accès"))
    if Passkey.objects.filter(credential_id=credential["credential_id"]).exists():
        raise ValidationError({"credential": _("Cette clé d'accès est déjà enregistrée.")})
    passkey = Passkey.objects.create(user=user, name=name[:100], **credential)
    hooks.record(
        hooks.STAFF_ACT,
        establishment=establishment,
        actor=None,
        role="",
        subject=_("Enregistrement d'une clé d'accès"),
        text=lambda: str(
            _(
                "%(person)s a enregistré la clé d'accès « %(name)s » (identifiant %(id)s) : ses signatures "
                "se vérifient avec la clé publique de cette ligne."
            )
            % {"person": _person(user), "name": passkey.name, "id": passkey.credential_id}
        ),
        person=user.get_username(),
        credential_id=passkey.credential_id,
        public_key=passkey.public_key,
        algorithm=passkey.algorithm,
        rp_id=passkey.rp_id,
    )
    return passkey


@transaction.atomic
def passkey_revoke(*, passkey: Passkey, actor: AbstractBaseUser, establishment: Establishment) -> Passkey:
    """A passkey withdrawn by its owner or the directorate: it signs no more acts; those it signed
    stay verifiable with the key its registration line names."""
    passkey = Passkey.objects.select_for_update().get(pk=passkey.pk)
    owner = passkey.user
    writer, role = _by(actor, owner, establishment)
    if passkey.revoked_at is not None:
        raise ValidationError({"passkey": _("Cette clé d'accès est déjà révoquée.")})
    passkey.revoked_at = timezone.now()
    passkey.save(update_fields=["revoked_at"])
    hooks.record(
        hooks.STAFF_ACT,
        establishment=establishment,
        actor=writer,
        role=role,
        subject=_("Révocation d'une clé d'accès"),
        text=lambda: str(
            _("Clé d'accès « %(name)s » de %(person)s (identifiant %(id)s) révoquée par %(actor)s.")
            % {"name": passkey.name, "person": _person(owner), "id": passkey.credential_id, "actor": _person(actor)}
        ),
        person=owner.get_username(),
        credential_id=passkey.credential_id,
        revoked_at=passkey.revoked_at.astimezone(datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
    )
    return passkey


# What the pages and the API share ----------------------------------------------------------------


def totp_qr_svg(device: TOTPDevice) -> str:
    """The new authenticator's key as a QR code, drawn here (inline SVG): no outside service."""
    import segno

    return segno.make(device.config_url, error="m").svg_inline(scale=4, dark="#000", light="#fff")


def totp_confirm_throttled(request, *, device: TOTPDevice, token: str, establishment: Establishment) -> TOTPDevice:
    """``totp_confirm`` under the login throttle: a wrong code counts as a failed sign-in of the
    device's owner (django-axes), and a locked-out owner is refused before the code is read."""
    username = device.user.get_username()
    if locked_out(request, username):
        raise PermissionDenied(_("Trop d'essais infructueux : réessayez plus tard."))
    try:
        return totp_confirm(device=device, token=token, establishment=establishment)
    except ValidationError:
        secret_refused(request, username)
        raise


PASSKEY_STATE_SALT = "ledgers.passkey-registration"


def passkey_registration_begin(user: AbstractBaseUser) -> dict[str, Any]:
    """The creation options of a new passkey, and ``state``: their challenge signed for this user
    (valid ten minutes), which the registration sends back."""
    from django.core import signing

    from ledgers.signatures.ceremonies import registration_options
    from ledgers.signatures.passkeys import b64u

    options, challenge = registration_options(user)
    state = signing.dumps({"user": user.pk, "challenge": b64u(challenge)}, salt=PASSKEY_STATE_SALT)
    return {"options": options, "state": state}


def passkey_registration_finish(
    *, user: AbstractBaseUser, establishment: Establishment, name: str, credential: Any, state: str
) -> Passkey:
    from django.core import signing

    from ledgers.signatures.ceremonies import registration_verify
    from ledgers.signatures.passkeys import unb64u

    try:
        held = signing.loads(state, salt=PASSKEY_STATE_SALT, max_age=600)
    except signing.BadSignature as exc:
        raise ValidationError({"state": _("Demande d'enregistrement expirée ou altérée : recommencez.")}) from exc
    if held.get("user") != user.pk:
        raise ValidationError({"state": _("Demande d'enregistrement d'une autre personne.")})
    verified = registration_verify(credential=credential, challenge=unb64u(held["challenge"]))
    return passkey_register(user=user, establishment=establishment, name=name, credential=verified)


def people_here(establishment: Establishment):
    """The accounts holding a role in ``establishment``: whose authenticators its directorate sees."""
    from django.contrib.auth import get_user_model

    return get_user_model().objects.filter(memberships__establishment=establishment).distinct()
