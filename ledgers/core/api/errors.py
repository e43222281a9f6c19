"""How the API answers a refusal: a rule of the texts 409 ``{"code", "article", "detail"}``; bad
input 400 with its fields (a serializer's, a Django ``ValidationError`` from a service, or a
service's ``ValueError`` about its arguments); a role 403 with its reason; a write that contradicts
a stored row (``IntegrityError``) 409 when it duplicates one, 400 otherwise. Never a 500."""

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext_lazy as _
from django.views import defaults
from rest_framework import serializers, status
from rest_framework.exceptions import ValidationError as DRFValidationError
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler
from rest_framework.views import set_rollback

from ledgers.core.errors import RuleViolation
from ledgers.signatures.passkeys import PasskeyRequired


class RuleViolationSerializer(serializers.Serializer):
    """The 409 body of a refusal by the texts (for the OpenAPI schema)."""

    code = serializers.CharField(help_text="Catalogue ID, e.g. REG-04")
    article = serializers.CharField()
    detail = serializers.CharField()


# The refusals every write may answer, for the OpenAPI schema.
REFUSED = {400: None, 403: None, 409: RuleViolationSerializer}


UNIQUE_VIOLATION = "23505"  # PostgreSQL's SQLSTATE


def _integrity(exc: IntegrityError) -> Response:
    if getattr(exc.__cause__, "sqlstate", None) == UNIQUE_VIOLATION:
        return Response({"detail": _("Cet enregistrement existe déjà.")}, status=status.HTTP_409_CONFLICT)
    return Response(
        {"detail": _("Ces données contredisent celles déjà enregistrées.")}, status=status.HTTP_400_BAD_REQUEST
    )


def exception_handler(exc, context):
    if isinstance(exc, RuleViolation):
        set_rollback()
        return Response(exc.as_dict(), status=status.HTTP_409_CONFLICT)
    if isinstance(exc, IntegrityError):
        set_rollback()
        return _integrity(exc)
    if isinstance(exc, PasskeyRequired):  # the act's request options, for the client to sign and send again
        set_rollback()
        body = {**exc.message_dict, "passkey_options": exc.options, "passkey_field": exc.field}
        return Response(body, status=status.HTTP_400_BAD_REQUEST)
    if isinstance(exc, ValidationError):  # without fields, the same body as a refused argument
        exc = DRFValidationError(exc.message_dict if hasattr(exc, "error_dict") else {"detail": " ".join(exc.messages)})
    elif isinstance(exc, ValueError):  # a service refusing its arguments: bad input, not a rule
        exc = DRFValidationError({"detail": str(exc)})
    elif isinstance(exc, PermissionDenied):
        set_rollback()
        return Response({"detail": str(exc)}, status=status.HTTP_403_FORBIDDEN)
    return drf_exception_handler(exc, context)


def server_error(request: HttpRequest) -> HttpResponse:
    """Django's 500 (the error is logged before): JSON like every other answer of the API, the
    HTML page elsewhere."""
    if request.path.startswith("/api/"):
        return JsonResponse({"detail": str(_("Erreur interne du serveur : réessayez plus tard."))}, status=500)
    return defaults.server_error(request)
