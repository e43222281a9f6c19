"""Countersignatures at the same terminal: the other signatory (the inspecteur beside the
maintenance technician, the key holder, the police officer at a destruction) types their own
username and password, checked with ``authenticate()`` (django-axes counts the failures)."""

from django.contrib.auth import authenticate
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _


def cosigner(request: HttpRequest, username: str, password: str, *, required: bool) -> AbstractBaseUser | None:
    """The authenticated cosignatory; None when left blank and optional."""
    username = (username or "").strip()
    if not username and not required:
        return None
    django_request = getattr(request, "_request", request)  # an API request wraps the Django one
    user = authenticate(django_request, username=username, password=password or "") if username else None
    if user is None:
        raise ValidationError(_("Identifiant ou mot de passe incorrect : signature refusée."))
    return user
