"""The OpenAPI description of the shared views: every scoped endpoint takes ``?establishment=``, every
``ServiceAction`` documents its input, its answer (201, or 202 for a job) and its refusals."""

from drf_spectacular import openapi
from drf_spectacular.plumbing import get_lib_doc_excludes

from .actions import NoInput, ServiceAction
from .errors import REFUSED
from .scoping import ESTABLISHMENT, EstablishmentReadOnlyViewSet, EstablishmentScoped


def lib_doc_excludes() -> list[type]:
    """An operation is described by its own view's docstring, never by these shared classes'."""
    return [*get_lib_doc_excludes(), ServiceAction, EstablishmentReadOnlyViewSet, EstablishmentScoped]


class AutoSchema(openapi.AutoSchema):
    def get_override_parameters(self):
        parameters = super().get_override_parameters()
        return [*parameters, ESTABLISHMENT] if isinstance(self.view, EstablishmentScoped) else parameters

    def _is_action(self) -> bool:
        return isinstance(self.view, ServiceAction) and self.method == "POST"

    def get_filter_backends(self):
        return [] if self._is_action() else super().get_filter_backends()

    def _get_paginator(self):  # a POST's list of made objects is not a page
        return None if self._is_action() else super()._get_paginator()

    def get_request_serializer(self):
        if self._is_action():
            return None if self.view.input_serializer is NoInput else self.view.input_serializer
        return super().get_request_serializer()

    def get_response_serializers(self):
        if self._is_action():
            output = self.view.output_serializer
            return {self.view.answer: output(many=True) if self.view.many else output, **REFUSED}
        return super().get_response_serializers()
