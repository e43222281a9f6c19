"""Signatures by a person at someone else's terminal: a police officer witnessing a destruction,
the inspecteur supervising the return of the cards, a sous-directeur signing a dice allocation.
The form or API serializer takes that person's username and password and passes the
authenticated user to the service, which checks the person's role (``require_role``).
Going through ``authenticate`` makes failures count towards the login throttle (django-axes)."""

from django.contrib.auth import authenticate
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _


def countersigner(request: HttpRequest | None, username: str, password: str) -> AbstractBaseUser:
    """The user whose credentials were typed, or a ValidationError (nothing is signed)."""
    request = getattr(request, "_request", request)  # a DRF request wraps the HttpRequest
    user = authenticate(request, username=username.strip(), password=password)
    if user is None:
        raise ValidationError(_("Identifiant ou mot de passe du signataire incorrect : signature refusée."))
    return user
