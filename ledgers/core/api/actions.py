"""The write endpoint of the API: one POST that validates its input, calls one service and answers
201 with what the service made. Refusals are answered by ``errors.exception_handler``."""

from collections.abc import Callable
from typing import Any

from django.utils.translation import gettext_lazy as _
from rest_framework import generics, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from ledgers.core.authz import check_typed, reauthenticate
from ledgers.core.countersign import COUNTERSIGNATURE_FIELDS, countersigner_from
from ledgers.signatures.passkeys import Signer, signing

from .scoping import EstablishmentScoped


class NoInput(serializers.Serializer):
    """An act whose URL says everything: no body."""


def passkey_input() -> serializers.JSONField:
    """The signer's passkey assertion over the act's entry, when it is signed with one."""
    return serializers.JSONField(
        required=False,
        default=None,
        write_only=True,
        help_text=_(
            "Signature par clé d'accès, quand l'acte l'exige : le PublicKeyCredential (JSON) que "
            "navigator.credentials.get() rend pour les options reçues en réponse 400 (passkey_options)."
        ),
    )


class Signature(serializers.Serializer):
    """The input of an act that is the caller's signature (a visa, a certification, a hand-over:
    REG-28): they type their password again, and their authenticator code when they have one."""

    password = serializers.CharField(
        write_only=True, style={"input_type": "password"}, help_text=_("Mot de passe du signataire (signature).")
    )
    otp_token = serializers.CharField(
        required=False,
        allow_blank=True,
        default="",
        write_only=True,
        help_text=_("Code d'authentification, si le signataire en a un."),
    )
    passkey = passkey_input()


class ServiceAction(EstablishmentScoped, generics.GenericAPIView):
    """POST: ``input_serializer`` validated (its context holds the caller's establishment), then
    ``perform(data, **url kwargs)`` calls one service, then 201 with ``output_serializer`` of its
    result (a list of them when ``many``).

    - an input that is a ``Signature``: the caller's ``password`` (and ``otp_token``) checked again,
      then dropped from ``data``.
    - ``countersigners``: the prefixes of the people who countersign (``<prefix>_username``,
      ``_password``, ``_otp``): authenticated, their fields dropped from ``data``, the users in
      ``self.signed[prefix]`` (None when not given).
    - ``queryset`` (and ``scope``): the objects the URL's ``pk`` may name, ``self.get_object()``
      within the caller's establishment (404 otherwise).
    """

    input_serializer: type[serializers.Serializer] = NoInput
    output_serializer: type[serializers.Serializer]
    many = False
    answer = status.HTTP_201_CREATED  # 202 for an act that starts a job the caller polls
    countersigners: tuple[str, ...] = ()
    signed_by = None  # the caller, once a ``Signature`` input re-authenticated them
    passkey = None  # the caller's passkey assertion over the act, when a ``Signature`` input holds one

    def perform(self, data: dict[str, Any], **kwargs) -> Any:
        raise NotImplementedError

    def get_serializer_class(self) -> type[serializers.Serializer]:
        """The input for a POST (what OPTIONS describes: DRF's metadata asks for the view's
        serializer as for a POST), the listed objects' where the view also lists them."""
        if self.serializer_class is None or self.request.method == "POST":
            return self.input_serializer
        return self.serializer_class

    def post(self, request: Request, *args, **kwargs) -> Response:
        given = self.input_serializer(data=request.data, context=self.get_serializer_context())
        given.is_valid(raise_exception=True)
        data = dict(given.validated_data)
        self.passkey = data.pop("passkey", None)
        check_typed(data)
        if issubclass(self.input_serializer, Signature):
            reauthenticate(
                request._request,
                user=request.user,
                password=data.pop("password", ""),
                otp_token=data.pop("otp_token", ""),
            )
            self.signed_by = request.user
        # The act's first entry carries its signers' passkey assertions: the caller's when they
        # re-authenticated, each countersigner's as they are authenticated (``countersigner_from``).
        with signing([Signer(request.user, self.passkey)] if self.signed_by else []):
            self.signed = {prefix: countersigner_from(request, data, prefix) for prefix in self.countersigners}
            for prefix in self.countersigners:
                for suffix in COUNTERSIGNATURE_FIELDS:
                    data.pop(prefix + suffix, None)
            return Response(self.output(self.perform(data, **kwargs)), status=self.answer)

    def output(self, result: Any) -> Any:
        return self.output_serializer(result, many=self.many, context=self.get_serializer_context()).data


def service_action(
    name: str,
    input_serializer: type[serializers.Serializer],
    output_serializer: type[serializers.Serializer],
    call: Callable[..., Any],
    *,
    many: bool = False,
) -> type[ServiceAction]:
    """A ``ServiceAction`` whose ``perform`` is ``call(request, establishment, data, **url kwargs)``."""

    def perform(self, data: dict[str, Any], **kwargs) -> Any:
        return call(self.request, self.establishment, data, **kwargs)

    attributes = {
        "input_serializer": input_serializer,
        "output_serializer": output_serializer,
        "many": many,
        "perform": perform,
        "__doc__": call.__doc__,
        "__module__": call.__module__,
    }
    return type(name, (ServiceAction,), attributes)
