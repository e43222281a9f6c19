"""The establishment's rooms and gaming tables through the API (filter by room, game, number, in
service). A table is added (POST) or changed (its game, in or out of service: POST …/change/)
through its service, which the texts of the jurisdiction may refuse (409)."""

from drf_spectacular.utils import extend_schema
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from ledgers.core.games import GAME_CHOICES
from ledgers.core.models import GamingTable, Room
from ledgers.core.services import gaming_table_change, gaming_table_create

from .errors import REFUSED
from .scoping import EstablishmentPK, EstablishmentReadOnlyViewSet, EstablishmentScoped


class RoomSerializer(serializers.ModelSerializer):
    class Meta:
        model = Room
        fields = ("id", "code", "name")


class GamingTableSerializer(serializers.ModelSerializer):
    class Meta:
        model = GamingTable
        fields = ("id", "room", "number", "game", "seats", "super_prive", "active")
        read_only_fields = fields


class GamingTableInput(serializers.Serializer):
    room = EstablishmentPK(queryset=Room.objects.all())
    number = serializers.CharField(max_length=20)
    game = serializers.ChoiceField(choices=GAME_CHOICES)
    seats = serializers.IntegerField(min_value=1, max_value=99, default=7)
    super_prive = serializers.BooleanField(default=False)


class GamingTableChangeInput(serializers.Serializer):
    game = serializers.ChoiceField(choices=GAME_CHOICES, required=False, allow_null=True, default=None)
    active = serializers.BooleanField(required=False, allow_null=True, default=None, help_text="en service")


class RoomViewSet(EstablishmentReadOnlyViewSet):
    """The rooms of the establishment."""

    queryset = Room.objects.all()
    serializer_class = RoomSerializer
    filterset_fields = ("code",)


class GamingTableViewSet(
    EstablishmentScoped, mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet
):
    """The gaming tables of the establishment (filter by room, game, number, in service). POST adds
    one, in service (the directorate)."""

    queryset = GamingTable.objects.all()
    serializer_class = GamingTableSerializer
    filterset_fields = ("room", "game", "number", "active")

    @extend_schema(request=GamingTableInput, responses={201: GamingTableSerializer, **REFUSED})
    def create(self, request: Request) -> Response:
        given = GamingTableInput(data=request.data, context=self.get_serializer_context())
        given.is_valid(raise_exception=True)
        table = gaming_table_create(actor=request.user, **given.validated_data)
        return Response(GamingTableSerializer(table).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=GamingTableChangeInput, responses={200: GamingTableSerializer, **REFUSED})
    @action(detail=True, methods=["post"])
    def change(self, request: Request, pk: int) -> Response:
        """Give the table another game, or put it in or out of service (the directorate)."""
        given = GamingTableChangeInput(data=request.data)
        given.is_valid(raise_exception=True)
        table = gaming_table_change(table=self.get_object(), actor=request.user, **given.validated_data)
        return Response(GamingTableSerializer(table).data)
