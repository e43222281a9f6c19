"""Countersignatures at the same terminal.

A second person signs an act recorded by the logged-in user (the sous-directeur signing a dice
allocation, an inspecteur or a police officer attending a destruction, a chef de table
co-signing a check). The form or API takes that person's username and password (and their
authenticator code when they have one); this module authenticates them and hands the user to the
service, which checks the role the texts require with ``require_role``.
"""

from django import forms
from django.contrib.auth import authenticate
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _
from django_otp import match_token, user_has_device


def countersigner(request: HttpRequest, *, username: str, password: str, otp_token: str = "",
                  field: str = "signer") -> AbstractBaseUser:
    """The user who countersigns, authenticated; a ValidationError on ``<field>_password`` else.

    Goes through ``authenticate`` so that failures count towards the login throttle."""
    user = authenticate(request, username=username.strip(), password=password)
    if user is None:
        raise ValidationError({f"{field}_password": _("Identifiant ou mot de passe incorrect : signature refusée.")})
    if user_has_device(user, confirmed=True) and match_token(user, otp_token.strip()) is None:
        raise ValidationError({f"{field}_otp": _("Code d'authentification incorrect ou expiré : signature refusée.")})
    return user


def countersignature_fields(prefix: str, label, *, required: bool = True) -> dict[str, forms.Field]:
    """The form fields of one countersignature: ``<prefix>_username``, ``_password``, ``_otp``."""
    return {
        f"{prefix}_username": forms.CharField(
            label=_("%(who)s — identifiant") % {"who": label}, max_length=150, required=required,
        ),
        f"{prefix}_password": forms.CharField(
            label=_("%(who)s — mot de passe") % {"who": label}, strip=False, required=required,
            widget=forms.PasswordInput(attrs={"autocomplete": "off"}),
        ),
        f"{prefix}_otp": forms.CharField(
            label=_("%(who)s — code d'authentification (s'il en a un)") % {"who": label}, max_length=16,
            required=False, widget=forms.TextInput(attrs={"autocomplete": "one-time-code", "inputmode": "numeric"}),
        ),
    }


def countersigner_from(request: HttpRequest, data: dict, prefix: str) -> AbstractBaseUser | None:
    """The countersigner named in cleaned form or serializer data, or None when none was given."""
    username = (data.get(f"{prefix}_username") or "").strip()
    if not username:
        return None
    return countersigner(request, username=username, password=data.get(f"{prefix}_password") or "",
                         otp_token=data.get(f"{prefix}_otp") or "", field=prefix)
