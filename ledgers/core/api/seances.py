"""API of the séances and their table-parties: list and open séances, prepare, open and close
table-parties, see what a séance still lacks (REG-25) and close it. Refusals answer 409
{code, article, detail}."""

from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from ledgers.core import hooks
from ledgers.core.models import GamingTable, Seance, TableSession
from ledgers.core.selectors import seances_of
from ledgers.core.services import (
    seance_close,
    seance_open,
    table_session_close,
    table_session_open,
    table_session_prepare,
)

from .errors import REFUSED
from .scoping import EstablishmentPK, EstablishmentScoped


class MissingSerializer(serializers.Serializer):
    what = serializers.CharField()
    code = serializers.CharField(help_text="Catalogue ID of the requirement, e.g. CARD-18")
    url = serializers.CharField()


class OpenConfirmSerializer(serializers.Serializer):
    confirm_missing = serializers.BooleanField(
        default=False, help_text="Open although staff, limits or cards the texts expect are missing."
    )


class TableSessionSerializer(serializers.ModelSerializer):
    table_number = serializers.CharField(source="table.number", read_only=True)
    game = serializers.CharField(source="table.game", read_only=True)

    class Meta:
        model = TableSession
        fields = [
            "id",
            "seance",
            "table",
            "table_number",
            "game",
            "status",
            "opened_at",
            "closed_at",
            "minimum_stake",
            "maximum_stake",
        ]
        read_only_fields = fields


class SeanceSerializer(serializers.ModelSerializer):
    class Meta:
        model = Seance
        fields = ["id", "date", "period", "status", "opened_at", "closed_at"]
        read_only_fields = ["id", "status", "opened_at", "closed_at"]


class SeanceDetailSerializer(SeanceSerializer):
    table_sessions = TableSessionSerializer(many=True, read_only=True)
    missing = serializers.SerializerMethodField()
    flags = serializers.SerializerMethodField()

    class Meta(SeanceSerializer.Meta):
        fields = [*SeanceSerializer.Meta.fields, "table_sessions", "missing", "flags"]

    @extend_schema_field(MissingSerializer(many=True))
    def get_missing(self, seance: Seance) -> list[dict]:
        """What the séance still lacks before it can close (REG-25); empty once closed."""
        if seance.status == Seance.Status.CLOSED:
            return []
        return [{"what": str(m.what), "code": m.code, "url": m.url} for m in hooks.seance_missing(seance)]

    @extend_schema_field(MissingSerializer(many=True))
    def get_flags(self, seance: Seance) -> list[dict]:
        """What the closing flags without refusing it (keys still out, KEY-05); empty once closed."""
        if seance.status == Seance.Status.CLOSED:
            return []
        return [{"what": str(m.what), "code": m.code, "url": m.url} for m in hooks.seance_flags(seance)]


class PrepareSerializer(serializers.Serializer):
    table = EstablishmentPK(queryset=GamingTable.objects.all())


class SeanceViewSet(
    EstablishmentScoped,
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    viewsets.GenericViewSet,
):
    """Séances of the caller's establishment. POST opens one (Direction, inspecteurs)."""

    queryset = Seance.objects.all()
    ordering = ("-date", "-opened_at")

    def scoped_queryset(self):
        return seances_of(self.establishment)

    def get_serializer_class(self):
        return SeanceDetailSerializer if self.action in ("retrieve", "close") else SeanceSerializer

    def perform_create(self, serializer) -> None:
        serializer.instance = seance_open(
            establishment=self.establishment, actor=self.request.user, **serializer.validated_data
        )

    @extend_schema(request=None, responses={200: SeanceDetailSerializer, **REFUSED})
    @action(detail=True, methods=["post"])
    def close(self, request: Request, pk: int) -> Response:
        """Close the séance: refused with REG-25 and the list of what is missing."""
        seance = seance_close(seance=self.get_object(), actor=request.user)
        return Response(SeanceDetailSerializer(seance, context=self.get_serializer_context()).data)

    @extend_schema(request=PrepareSerializer, responses={201: TableSessionSerializer, **REFUSED})
    @action(detail=True, methods=["post"])
    def tables(self, request: Request, pk: int) -> Response:
        """Prepare the table-partie of a table for this séance (idempotent)."""
        seance = self.get_object()
        form = PrepareSerializer(data=request.data, context=self.get_serializer_context())
        form.is_valid(raise_exception=True)
        session = table_session_prepare(seance=seance, table=form.validated_data["table"], actor=request.user)
        return Response(TableSessionSerializer(session).data, status=status.HTTP_201_CREATED)


class TableSessionViewSet(
    EstablishmentScoped, mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet
):
    """Table-parties of the caller's establishment; open and close them (the domains may refuse)."""

    queryset = TableSession.objects.select_related("table")
    scope = "seance__establishment"
    serializer_class = TableSessionSerializer
    filterset_fields = ["seance", "status", "table"]

    def _act(self, change) -> Response:
        return Response(TableSessionSerializer(change(session=self.get_object(), actor=self.request.user)).data)

    @extend_schema(request=OpenConfirmSerializer, responses={200: TableSessionSerializer, **REFUSED})
    @action(detail=True, methods=["post"])
    def open(self, request: Request, pk: int) -> Response:
        """Open the table; a table that would open without staff, limits or cards its texts expect
        opens only with ``confirm_missing`` (400 naming what is missing otherwise)."""
        form = OpenConfirmSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        hooks.opening_confirmation(self.get_object(), confirmed=form.validated_data["confirm_missing"])
        return self._act(table_session_open)

    @extend_schema(request=None, responses={200: TableSessionSerializer, **REFUSED})
    @action(detail=True, methods=["post"])
    def close(self, request: Request, pk: int) -> Response:
        return self._act(table_session_close)
