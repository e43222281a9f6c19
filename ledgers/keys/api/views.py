"""Keys API: the register, the hand-overs, the exceptions, and one endpoint per write. Each write
re-authenticates the caller, authenticates the other signers, calls one service and answers 201;
rule violations answer 409 {"code", "article", "detail"}."""

from drf_spectacular.utils import extend_schema
from rest_framework import generics
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from ledgers.core.api.actions import ServiceAction
from ledgers.core.api.scoping import EstablishmentScoped

from .. import selectors, services
from ..models import Key, KeyIssue
from . import serializers as s


class KeyList(EstablishmentScoped, generics.ListAPIView):
    """The register of keys."""

    queryset = Key.objects.all()
    serializer_class = s.KeySerializer

    def scoped_queryset(self):
        return selectors.keys_of(self.establishment)


class IssueList(EstablishmentScoped, generics.ListAPIView):
    """Every hand-over, newest first; ``?out=1``: the keys still out."""

    queryset = KeyIssue.objects.all()
    serializer_class = s.KeyIssueSerializer

    def scoped_queryset(self):
        found = selectors.issues_of(self.establishment).prefetch_related("signatures__user")
        return found.filter(returned_at__isnull=True) if self.request.query_params.get("out") else found


class ExceptionList(EstablishmentScoped, APIView):
    """Keys past their due time (with the minutes late) or out after their purpose closed."""

    @extend_schema(responses=s.KeyExceptionSerializer(many=True))
    def get(self, request: Request) -> Response:
        return Response(s.KeyExceptionSerializer(selectors.exceptions(self.establishment), many=True).data)


class KeyCreate(ServiceAction):
    """Enter a key in the register (KEY-01 to KEY-04, KEY-11, KEY-13 to KEY-16)."""

    input_serializer, output_serializer = s.KeyInput, s.KeySerializer

    def perform(self, data):
        return services.key_register(establishment=self.establishment, actor=self.request.user, **data)


class IssueCreate(ServiceAction):
    """Hand a key over for an open purpose; the holder, extra releasers and the witness sign."""

    input_serializer, output_serializer, countersigners = (
        s.KeyIssueInput,
        s.KeyIssueSerializer,
        ("holder", "co1", "co2", "witness"),
    )

    def perform(self, data):
        return services.key_issue(
            actor=self.request.user,
            holder=self.signed["holder"],
            witness=self.signed["witness"],
            co_releasers=[u for u in (self.signed["co1"], self.signed["co2"]) if u],
            **data,
        )


class IssueReturn(ServiceAction):
    """Take a key back from its holder (dual control as released)."""

    input_serializer, output_serializer, countersigners = (
        s.KeyReturnInput,
        s.KeyIssueSerializer,
        ("holder", "co1", "co2"),
    )
    queryset, scope = KeyIssue.objects.all(), "key__establishment"

    def perform(self, data, pk):
        return services.key_return(
            issue=self.get_object(),
            actor=self.request.user,
            returned_by=self.signed["holder"],
            co_receivers=[u for u in (self.signed["co1"], self.signed["co2"]) if u],
            **data,
        )


class SurrenderCreate(ServiceAction):
    """A socle out of operation: its lock and key to the caissier principal (KEY-07)."""

    input_serializer, output_serializer, countersigners = s.KeySurrenderInput, s.KeySurrenderSerializer, ("receiver",)

    def perform(self, data):
        return services.socle_key_surrender(actor=self.request.user, receiver=self.signed["receiver"], **data)


class InventoryCreate(ServiceAction):
    """A blind inventory of the keys: the copies counted in each key's home (the differences are
    listed on the sanity report)."""

    input_serializer, output_serializer = s.InventoryInput, s.InventoryOutput

    def perform(self, data):
        counted = {line["key"]: line["copies"] for line in data["counted"]}
        return services.key_inventory_record(establishment=self.establishment, actor=self.request.user, counted=counted)
