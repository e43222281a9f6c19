"""API authentication (its own module: DRF imports it while rest_framework.views is loading)."""

from datetime import datetime, timedelta

from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from rest_framework import exceptions
from rest_framework.authentication import TokenAuthentication


def token_expires_at(token) -> datetime:
    return token.created + timedelta(hours=settings.API_TOKEN_TTL_HOURS)


class ExpiringTokenAuthentication(TokenAuthentication):
    """DRF's token, refused once older than ``API_TOKEN_TTL_HOURS`` (DRF's own never expires):
    a leaked token stops working by itself; its owner asks for a new one."""

    def authenticate_credentials(self, key):
        user, token = super().authenticate_credentials(key)
        if token_expires_at(token) <= timezone.now():
            raise exceptions.AuthenticationFailed(_("Jeton expiré : demandez-en un nouveau."))
        return user, token
