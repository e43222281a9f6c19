"""The set-up through the API: the establishment created by an administrator with its first
director; its rooms, places and gaming tables (filter by room, game, number, in service). A room,
a place or a table is added (POST) through its service, a table changed (its game, in or out of
service: POST …/change/); the texts of the jurisdiction may refuse (409). A spreadsheet of any
declared kind (``core.imports``) is checked (``dry_run``, the default) or imported: every row's
problem is answered, and nothing is written unless every row is accepted."""

from typing import Any

from django.core.exceptions import ValidationError
from django.http import Http404
from drf_spectacular.utils import extend_schema
from rest_framework import generics, mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import ValidationError as DRFValidationError
from rest_framework.parsers import MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response

from ledgers.core.authz import check_typed
from ledgers.core.games import GAME_CHOICES
from ledgers.core.imports import IMPORTS, import_rows, read_rows
from ledgers.core.jurisdictions import Jurisdiction
from ledgers.core.models import Establishment, GamingTable, Location, LocationKind, Room
from ledgers.core.services import (
    establishment_set_up,
    gaming_table_change,
    gaming_table_create,
    location_create,
    room_create,
)

from .actions import ServiceAction
from .errors import REFUSED
from .scoping import EstablishmentPK, EstablishmentScoped


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


class RoomInput(serializers.Serializer):
    code = serializers.SlugField(max_length=20)
    name = serializers.CharField(max_length=200)


class LocationSerializer(serializers.ModelSerializer):
    class Meta:
        model = Location
        fields = ("id", "code", "name", "kind", "room", "active")
        read_only_fields = fields


class LocationInput(serializers.Serializer):
    code = serializers.SlugField(max_length=30)
    name = serializers.CharField(max_length=200)
    kind = serializers.ChoiceField(choices=LocationKind.choices)
    room = EstablishmentPK(queryset=Room.objects.all(), required=False, allow_null=True, default=None)


def _created(serializer_class, input_class, request, view, service, **extra) -> Response:
    given = input_class(data=request.data, context=view.get_serializer_context())
    given.is_valid(raise_exception=True)
    check_typed(given.validated_data)
    made = service(establishment=view.establishment, actor=request.user, **given.validated_data, **extra)
    return Response(serializer_class(made).data, status=status.HTTP_201_CREATED)


class RoomViewSet(EstablishmentScoped, mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """The rooms of the establishment. POST adds one (the directorate), written in the register of
    authorisations."""

    queryset = Room.objects.all()
    serializer_class = RoomSerializer
    filterset_fields = ("code",)

    @extend_schema(request=RoomInput, responses={201: RoomSerializer, **REFUSED})
    def create(self, request: Request) -> Response:
        return _created(RoomSerializer, RoomInput, request, self, room_create)


class LocationViewSet(EstablishmentScoped, mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """The places of the establishment: depots, cabinets, cash desks, stores (filter by kind, room,
    in service). POST adds one (the directorate), written in the register of authorisations."""

    queryset = Location.objects.all()
    serializer_class = LocationSerializer
    filterset_fields = ("code", "kind", "room", "active")

    @extend_schema(request=LocationInput, responses={201: LocationSerializer, **REFUSED})
    def create(self, request: Request) -> Response:
        return _created(LocationSerializer, LocationInput, request, self, location_create)


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


class EstablishmentSerializer(serializers.ModelSerializer):
    class Meta:
        model = Establishment
        fields = ("id", "code", "name", "jurisdiction", "timezone", "address", "options")
        read_only_fields = fields


class EstablishmentInput(serializers.Serializer):
    code = serializers.SlugField(max_length=20)
    name = serializers.CharField(max_length=200)
    jurisdiction = serializers.ChoiceField(choices=Jurisdiction.choices)
    timezone_name = serializers.CharField(max_length=64, required=False, default="")
    address = serializers.CharField(required=False, allow_blank=True, default="")
    options = serializers.DictField(required=False, default=dict, help_text="Réglages de départ : {code: valeur}.")
    director = serializers.CharField(max_length=150, help_text="Identifiant de connexion du premier directeur.")


class EstablishmentCreate(generics.GenericAPIView):
    """An administrator creates an establishment with its jurisdiction and first settings, and names
    its first director (FR directeur responsable, MC directeur des jeux): both written in the
    register of authorisations."""

    serializer_class = EstablishmentInput
    queryset = Establishment.objects.none()

    @extend_schema(request=EstablishmentInput, responses={201: EstablishmentSerializer, **REFUSED})
    def post(self, request: Request) -> Response:
        given = EstablishmentInput(data=request.data)
        given.is_valid(raise_exception=True)
        data = dict(given.validated_data)
        check_typed(data)
        made = establishment_set_up(actor=request.user, **data)
        return Response(EstablishmentSerializer(made).data, status=status.HTTP_201_CREATED)


class ImportInput(serializers.Serializer):
    file = serializers.FileField(help_text="CSV (séparateur ; ou ,) ou XLSX, en-têtes en ligne 1.")
    dry_run = serializers.BooleanField(default=True, help_text="true : vérifier seulement, rien n'est écrit.")


class ProblemSerializer(serializers.Serializer):
    row = serializers.IntegerField(help_text="Ligne du fichier (les en-têtes sont la ligne 1).")
    column = serializers.CharField()
    message = serializers.CharField()
    code = serializers.CharField(help_text="Catalogue ID when a rule of the texts refuses the row.")


class ImportOutcomeSerializer(serializers.Serializer):
    kind = serializers.CharField(source="spec.code")
    rows = serializers.IntegerField()
    written = serializers.BooleanField()
    made = serializers.ListField(child=serializers.CharField())
    problems = ProblemSerializer(many=True)


class ImportView(ServiceAction):
    """A spreadsheet of one declared kind (salles, emplacements, tables, cles, socles, machines…),
    each row through the service of its page, in one transaction: with ``dry_run`` (the default)
    every row is checked and nothing is written (200, each refused row's problems); without it the
    rows are written only if every one is accepted (201), else nothing is (400 with the problems)."""

    input_serializer = ImportInput
    output_serializer = ImportOutcomeSerializer
    parser_classes = (MultiPartParser,)

    def perform(self, data: dict[str, Any], **kwargs) -> Any:
        try:
            spec = IMPORTS.get(kwargs["code"])
        except KeyError as exc:
            raise Http404 from exc
        upload = data["file"]
        try:
            rows = read_rows(name=upload.name, data=upload.read(), spec=spec)
        except ValidationError as exc:
            raise DRFValidationError({"file": exc.messages}) from exc
        outcome = import_rows(
            spec=spec, establishment=self.establishment, actor=self.request.user, rows=rows, commit=not data["dry_run"]
        )
        if outcome.written:
            self.answer = status.HTTP_201_CREATED
        else:  # checked only, or refused: nothing written
            self.answer = status.HTTP_200_OK if data["dry_run"] else status.HTTP_400_BAD_REQUEST
        return outcome
