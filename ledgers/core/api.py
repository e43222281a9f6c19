"""API plumbing shared by every app: rule violations answer 409 with code, article and detail."""

from django.core.exceptions import PermissionDenied, ValidationError
from rest_framework import serializers, status
from rest_framework.exceptions import ValidationError as DRFValidationError
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from .errors import RuleViolation


class EstablishmentPK(serializers.PrimaryKeyRelatedField):
    """A primary key among the objects of ``queryset`` that belong to the caller's establishment
    (``context["establishment"]``); ``path`` leads from the object to its establishment."""

    def __init__(self, queryset, path: str = "establishment", **kwargs) -> None:
        self.path = path
        super().__init__(queryset=queryset, **kwargs)

    def get_queryset(self):
        return super().get_queryset().filter(**{self.path: self.context["establishment"]})


class RuleViolationSerializer(serializers.Serializer):
    """The 409 body of a refusal by the texts (for the OpenAPI schema)."""

    code = serializers.CharField(help_text="Catalogue ID, e.g. REG-04")
    article = serializers.CharField()
    detail = serializers.CharField()


def exception_handler(exc, context):
    if isinstance(exc, RuleViolation):
        return Response(exc.as_dict(), status=status.HTTP_409_CONFLICT)
    if isinstance(exc, ValidationError):
        exc = DRFValidationError(exc.message_dict if hasattr(exc, "error_dict") else exc.messages)
    if isinstance(exc, PermissionDenied):
        return Response({"detail": str(exc)}, status=status.HTTP_403_FORBIDDEN)
    return drf_exception_handler(exc, context)
