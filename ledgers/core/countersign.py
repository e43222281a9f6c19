"""Signatures at this terminal.

A second person signs an act recorded by the logged-in user (the sous-directeur signing a dice
allocation, the inspecteur supervising the return of the cards or a wheel check, a police officer
attending a destruction). The form or API takes that person's username and password (and their
authenticator code when they have one); this module authenticates them and hands the user to the
service, which checks the role the texts require with ``require_role``. The logged-in user signs
a visa or a verification by typing their password again.

Going through ``authenticate`` makes failures count towards the login throttle (django-axes).
"""

from django import forms
from django.contrib.auth import authenticate
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _
from django_otp import user_has_device
from rest_framework import serializers

from ledgers.signatures.passkeys import PROBE_HEADER, Signer, add_signer

from .authz import code_checked, reauthenticate
from .forms import staff_choices

# The inputs of one countersignature, after its prefix: what the services never see.
COUNTERSIGNATURE_FIELDS = ("_username", "_password", "_otp", "_passkey")


def _http(request) -> HttpRequest:
    return getattr(request, "_request", request)  # a DRF request wraps the HttpRequest


def countersigner(
    request: HttpRequest, *, username: str, password: str, otp_token: str = "", field: str = "signer"
) -> AbstractBaseUser:
    """The user who countersigns, authenticated; a ValidationError on ``<field>_password`` (or
    ``<field>_otp``) else: nothing is signed."""
    user = authenticate(_http(request), username=username.strip(), password=password)
    if user is None:
        raise ValidationError({f"{field}_password": _("Identifiant ou mot de passe incorrect : signature refusée.")})
    if not code_checked(_http(request), user, otp_token):
        raise ValidationError({f"{field}_otp": _("Code d'authentification incorrect ou expiré : signature refusée.")})
    return user


def countersigner_from(request: HttpRequest, data: dict, prefix: str) -> AbstractBaseUser | None:
    """The countersigner named in cleaned form or serializer data, or None when none was given."""
    username = (data.get(f"{prefix}_username") or "").strip()
    if not username:
        return None
    user = countersigner(
        request,
        username=username,
        password=data.get(f"{prefix}_password") or "",
        otp_token=data.get(f"{prefix}_otp") or "",
        field=prefix,
    )
    add_signer(Signer(user, data.get(f"{prefix}_passkey"), f"{prefix}_passkey"))  # when an act is under way
    return user


def countersignature_fields(prefix: str, label, *, required: bool = True) -> dict[str, forms.Field]:
    """The form fields of one countersignature: ``<prefix>_username``, ``_password``, ``_otp``."""
    return {
        f"{prefix}_username": forms.CharField(
            label=_("%(who)s — identifiant") % {"who": label},
            max_length=150,
            required=required,
        ),
        f"{prefix}_password": forms.CharField(
            label=_("%(who)s — mot de passe") % {"who": label},
            strip=False,
            required=required,
            widget=forms.PasswordInput(attrs={"autocomplete": "off"}),
        ),
        f"{prefix}_otp": forms.CharField(
            label=_("%(who)s — code d'authentification (s'il en a un)") % {"who": label},
            max_length=16,
            required=False,
            widget=forms.TextInput(attrs={"autocomplete": "one-time-code", "inputmode": "numeric"}),
        ),
        # Their passkey's assertion over the act, filled in by the browser (static/js/passkeys.js).
        f"{prefix}_passkey": forms.CharField(required=False, widget=forms.HiddenInput),
    }


def countersignature_inputs(prefix: str, *, required: bool = True) -> dict[str, serializers.Field]:
    """The API input fields of one countersignature (same names as the form's)."""
    return {
        f"{prefix}_username": serializers.CharField(required=required, allow_blank=not required),
        f"{prefix}_password": serializers.CharField(
            required=required, allow_blank=not required, write_only=True, style={"input_type": "password"}
        ),
        f"{prefix}_otp": serializers.CharField(required=False, allow_blank=True, write_only=True),
        f"{prefix}_passkey": serializers.JSONField(
            required=False,
            default=None,
            write_only=True,
            help_text=_("Signature par clé d'accès du contresignataire, quand il en a une (passkey_options)."),
        ),
    }


def countersignature_serializer(prefix: str, *, required: bool = True) -> type[serializers.Serializer]:
    """An API input base declaring one countersignature (``countersignature_inputs``)."""
    return type(
        f"{prefix.title().replace('_', '')}Countersignature",
        (serializers.Serializer,),
        countersignature_inputs(prefix, required=required),
    )


def signed_data(form: forms.Form) -> dict:
    """A form's cleaned data for its service: each countersigner (``CountersignMixin``) as a user,
    their typed credentials left out."""
    prefixes = getattr(form, "countersignatures", ())
    typed = {prefix + suffix for prefix in prefixes for suffix in COUNTERSIGNATURE_FIELDS}
    return {k: v for k, v in form.cleaned_data.items() if k not in typed}


class CountersignMixin(forms.Form):
    """A form with countersignatures: ``add_countersignature`` adds one person's fields, and the
    cleaned data holds that person (authenticated) under the prefix, or None when left blank.
    Needs ``self.request``."""

    def add_countersignature(self, prefix: str, label, *, required: bool = True, roles=()) -> None:
        """``roles``: the signer is picked among the establishment's staff holding them (a
        searchable list of names instead of a typed login); the service still checks the role."""
        fields = countersignature_fields(prefix, label, required=required)
        if roles:
            fields[f"{prefix}_username"] = forms.ChoiceField(
                label=label,
                required=required,
                choices=staff_choices(self.establishment, roles),
                widget=forms.Select(attrs={"data-searchable": ""}),
            )
        self.fields.update(fields)
        self.countersignatures = [*getattr(self, "countersignatures", ()), prefix]

    def clean(self):
        cleaned = super().clean()
        probing = bool(self.request.headers.get(PROBE_HEADER))
        for prefix in getattr(self, "countersignatures", ()):
            passkey = cleaned.pop(f"{prefix}_passkey", "")
            try:
                cleaned[prefix] = (
                    _named(cleaned.get(f"{prefix}_username"))
                    if probing
                    else countersigner_from(self.request, cleaned, prefix)
                )
            except ValidationError as exc:
                cleaned[prefix] = None
                self.add_error(None, exc)
            if cleaned[prefix] is not None:
                self.signers = [*getattr(self, "signers", ()), Signer(cleaned[prefix], passkey, f"{prefix}_passkey")]
        return cleaned


def _named(username: str | None) -> AbstractBaseUser | None:
    """The account a login names, unauthenticated: only for a tried act, which keeps nothing."""
    from django.contrib.auth import get_user_model

    return get_user_model().objects.filter(username=(username or "").strip()).first() if username else None


class AuthorPasskeyMixin(forms.Form):
    """An act that cotes et paraphe a register volume in its author's name as it is done (a
    machine's fiche, a JPM's modèle 26): that opening entry is their signature, taken with their
    passkey when they hold one (``register_open``), so the browser is asked for it
    (static/js/passkeys.js) and the author is the act's signer (``signers``). ``author_signs``:
    whether the act, as filled in, opens such a volume. Needs ``self.request``."""

    # The author's passkey assertion over the opening entry, filled in by the browser.
    passkey = forms.CharField(required=False, widget=forms.HiddenInput)

    def author_signs(self, cleaned: dict) -> bool:
        return True

    def clean(self):
        cleaned = super().clean()
        passkey = cleaned.pop("passkey", "") or None
        if self.author_signs(cleaned):
            self.signers = [*getattr(self, "signers", ()), Signer(self.request.user, passkey)]
        return cleaned


class ReauthMixin(forms.Form):
    """A signature by the logged-in user (a visa, a verification): their password again, their
    authenticator code when they have one, and their passkey when they have one (``signers``: the
    act's signers, whose passkeys sign its entry). Needs ``self.request`` before ``__init__`` returns."""

    password = forms.CharField(
        label=_("Votre mot de passe (signature)"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )
    otp_token = forms.CharField(
        label=_("Code d'authentification (application)"),
        required=False,
        max_length=16,
        widget=forms.TextInput(attrs={"autocomplete": "one-time-code", "inputmode": "numeric"}),
    )

    # The signer's passkey assertion over the act, filled in by the browser (static/js/passkeys.js).
    passkey = forms.CharField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if not user_has_device(self.request.user, confirmed=True):
            del self.fields["otp_token"]

    def clean(self):
        cleaned = super().clean()
        self.passkey_given = cleaned.pop("passkey", "") or None
        self.signers = [*getattr(self, "signers", ()), Signer(self.request.user, self.passkey_given, "passkey")]
        if self.request.headers.get(PROBE_HEADER):  # a tried act keeps nothing: the password is asked when it is done
            return cleaned
        if "password" in cleaned:
            reauthenticate(
                self.request,
                user=self.request.user,
                password=cleaned["password"],
                otp_token=cleaned.get("otp_token", ""),
            )
        return cleaned
