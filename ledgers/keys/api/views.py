"""Keys API: the register, the hand-overs, the exceptions, and one endpoint per write. Each write
re-authenticates the caller, authenticates the other signers, calls one service and answers 201;
rule violations answer 409 {"code", "article", "detail"} (ledgers.core.api)."""

from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import generics, serializers, status
from rest_framework.pagination import CursorPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from ledgers.core.api import RuleViolationSerializer
from ledgers.core.authz import reauthenticate
from ledgers.core.countersign import countersigner_from
from ledgers.core.models import Establishment
from ledgers.core.selectors import current_establishment

from .. import selectors, services
from ..models import KeyIssue
from . import serializers as s


class ById(CursorPagination):
    ordering = "-id"


class Scoped:
    @property
    def establishment(self) -> Establishment:
        est = current_establishment(self.request)
        if est is None:
            raise PermissionDenied("Vous n'êtes affecté à aucun établissement.")
        return est


class KeyList(Scoped, generics.ListAPIView):
    """The register of keys."""

    serializer_class = s.KeySerializer
    pagination_class = ById

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return s.Key.objects.none()
        return selectors.keys_of(self.establishment)


class IssueList(Scoped, generics.ListAPIView):
    """Every hand-over, newest first; ``?out=1``: the keys still out."""

    serializer_class = s.KeyIssueSerializer
    pagination_class = ById

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return KeyIssue.objects.none()
        found = selectors.issues_of(self.establishment).prefetch_related("signatures__user")
        return found.filter(returned_at__isnull=True) if self.request.query_params.get("out") else found


class ExceptionList(Scoped, APIView):
    """Keys past their due time (with the minutes late) or out after their purpose closed."""

    @extend_schema(responses=s.KeyExceptionSerializer(many=True))
    def get(self, request: Request) -> Response:
        return Response(s.KeyExceptionSerializer(selectors.exceptions(self.establishment), many=True).data)


class Write(Scoped, APIView):
    input_class: type[serializers.Serializer]
    output_class: type[serializers.Serializer]
    signers: tuple[str, ...] = ()
    reauth = True

    def __init_subclass__(cls, **kwargs) -> None:
        super().__init_subclass__(**kwargs)

        def post(self, request: Request, *args, **kwargs) -> Response:
            est = self.establishment
            data = cls.input_class(data=request.data, context={"establishment": est, "request": request})
            data.is_valid(raise_exception=True)
            values = dict(data.validated_data)
            if cls.reauth:
                reauthenticate(
                    request._request,
                    user=request.user,
                    password=values.pop("password"),
                    otp_token=values.pop("otp_token", ""),
                )
            signed = {p: countersigner_from(request, values, p) for p in cls.signers}
            for prefix in cls.signers:
                for suffix in ("_username", "_password", "_otp"):
                    values.pop(prefix + suffix, None)
            result = self.perform(est, values, signed, **kwargs)
            return Response(cls.output_class(result).data, status=status.HTTP_201_CREATED)

        post.__doc__ = cls.__doc__
        cls.post = extend_schema(
            request=cls.input_class,
            responses={201: cls.output_class, 400: None, 403: None, 409: RuleViolationSerializer},
        )(post)


class KeyCreate(Write):
    """Enter a key in the register (KEY-01 to KEY-04, KEY-11, KEY-13 to KEY-16)."""

    input_class, output_class, reauth = s.KeyInput, s.KeySerializer, False

    def perform(self, est, values, signed):
        return services.key_register(establishment=est, actor=self.request.user, **values)


class IssueCreate(Write):
    """Hand a key over for an open purpose; the holder, extra releasers and the witness sign."""

    input_class, output_class, signers = s.KeyIssueInput, s.KeyIssueSerializer, ("holder", "co1", "co2", "witness")

    def perform(self, est, values, signed):
        return services.key_issue(
            actor=self.request.user,
            holder=signed["holder"],
            witness=signed["witness"],
            co_releasers=[u for u in (signed["co1"], signed["co2"]) if u],
            **values,
        )


class IssueReturn(Write):
    """Take a key back from its holder (dual control as released)."""

    input_class, output_class, signers = s.KeyReturnInput, s.KeyIssueSerializer, ("holder", "co1", "co2")

    def perform(self, est, values, signed, pk):
        issue = get_object_or_404(KeyIssue, pk=pk, key__establishment=est)
        return services.key_return(
            issue=issue,
            actor=self.request.user,
            returned_by=signed["holder"],
            co_receivers=[u for u in (signed["co1"], signed["co2"]) if u],
            **values,
        )


class SurrenderCreate(Write):
    """A socle out of operation: its lock and key to the caissier principal (KEY-07)."""

    input_class, output_class, signers = s.KeySurrenderInput, s.KeySurrenderSerializer, ("receiver",)

    def perform(self, est, values, signed):
        return services.socle_key_surrender(actor=self.request.user, receiver=signed["receiver"], **values)
