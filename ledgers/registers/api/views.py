from django.http import Http404
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from ledgers.core.api.errors import RuleViolationSerializer
from ledgers.core.authz import reauthenticate

from .. import selectors, services
from ..models import Entry
from ..signing import published_keys
from ..treeheads import consistency_proof, entry_proof
from .serializers import EntrySerializer, RegisterSerializer, VisaRequestSerializer


class RegisterViewSet(viewsets.ReadOnlyModelViewSet):
    """Registers of the user's establishments."""

    serializer_class = RegisterSerializer
    ordering = "number"
    lookup_field = "number"
    filterset_fields = ["kind", "status"]

    def get_queryset(self):
        return selectors.registers_visible_to(self.request.user).select_related("establishment")

    @extend_schema(
        request=VisaRequestSerializer,
        responses={
            201: EntrySerializer,
            400: OpenApiResponse(description="Entrée invalide ou réauthentification échouée."),
            403: OpenApiResponse(description="Rôle sans droit de visa pour ce registre."),
            409: RuleViolationSerializer,
        },
    )
    @action(detail=True, methods=["post"], serializer_class=VisaRequestSerializer)
    def visas(self, request, number=None):
        """Sign a visa covering the entries up to ``up_to_seq``; the signer re-authenticates."""
        register = self.get_object()
        data = self.get_serializer(data=request.data)
        data.is_valid(raise_exception=True)
        reauthenticate(
            request._request,
            user=request.user,
            password=data.validated_data["password"],
            otp_token=data.validated_data["otp_token"],
        )
        entry = services.visa_sign(
            register=register,
            actor=request.user,
            up_to_seq=data.validated_data["up_to_seq"],
            statement=data.validated_data["statement"],
            passkey=data.validated_data.get("passkey"),
        )
        return Response(EntrySerializer(entry).data, status=status.HTTP_201_CREATED)


class EntryViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Entries of one register, in seq order (cursor pagination: stable under appends)."""

    serializer_class = EntrySerializer
    ordering = "seq"
    lookup_field = "seq"
    lookup_value_regex = r"\d+"
    filterset_fields = ["kind"]

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):  # schema generation: no register in the URL
            return Entry.objects.none()
        register = selectors.register_for(self.request.user, self.kwargs["register_number"])
        return Entry.objects.filter(register=register).select_related("register", "corrects")


class PublicKeysView(APIView):
    """The public keys that check checkpoint and tree head signatures, by key id (earlier keys
    included): public by nature, served to anyone."""

    permission_classes = [AllowAny]
    authentication_classes = []

    @extend_schema(responses={200: OpenApiResponse(description="{keys: [{key_id, algorithm, public_key}]}")})
    def get(self, request):
        return Response({"keys": published_keys()})


def _head_number(request, name: str) -> int | None:
    value = request.query_params.get(name, "")
    if value and not value.isdigit():
        raise Http404
    return int(value) if value else None


class EntryProofView(APIView):
    """Proof of one entry against a signed tree head, ``?tree_head=N`` or the newest: O(log n)
    hashes (docs/ledger-format.md §12)."""

    @extend_schema(
        parameters=[OpenApiParameter("tree_head", int, description="N° de la tête d'arbre (par défaut la dernière).")],
        responses={200: OpenApiResponse(description="La preuve (JSON)."), 404: None},
    )
    def get(self, request, register_number: str, seq: int):
        register = selectors.register_for(request.user, register_number)
        proof = entry_proof(register, seq, _head_number(request, "tree_head"))
        if proof is None:
            raise Http404
        return Response(proof)


class ConsistencyProofView(APIView):
    """Proof that a register's tree in tree head ``?second=N`` (default the newest) extends its
    tree in tree head ``?first=M`` (docs/ledger-format.md §12)."""

    @extend_schema(
        parameters=[
            OpenApiParameter("first", int, required=True, description="N° de la première tête d'arbre."),
            OpenApiParameter("second", int, description="N° de la seconde (par défaut la dernière)."),
        ],
        responses={200: OpenApiResponse(description="La preuve (JSON)."), 404: None},
    )
    def get(self, request, register_number: str):
        register = selectors.register_for(request.user, register_number)
        first = _head_number(request, "first")
        proof = first and consistency_proof(register, first, _head_number(request, "second"))
        if not proof:
            raise Http404
        return Response(proof)
