"""API of the table-parties' staff (assign, relieve, release) and limits. Refusals answer 409
{code, article, detail}."""

from drf_spectacular.utils import extend_schema
from rest_framework import mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.pagination import CursorPagination
from rest_framework.request import Request
from rest_framework.response import Response

from ledgers.core.seance_api import REFUSED, EstablishmentScoped

from .. import services
from ..models import ClosingExtension, PartieBanker, StaffAssignment, TableLimits
from . import serializers as s


class ById(CursorPagination):
    ordering = "-id"


class ScopedViewSet(EstablishmentScoped, mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    pagination_class = ById
    filterset_fields = ["table_session"]
    model: type

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return self.model.objects.none()
        return self.model.objects.filter(table_session__seance__establishment=self.establishment)

    def run(self, form_class, request: Request, **kwargs) -> dict:
        form = form_class(data=request.data, context=self.get_serializer_context())
        form.is_valid(raise_exception=True)
        return {**form.validated_data, **kwargs}


class StaffViewSet(ScopedViewSet):
    """Who staffs each table-partie, with reliefs (GAME-02, 10, 13, 15, 17…)."""

    queryset = StaffAssignment.objects.none()
    serializer_class = s.StaffAssignmentSerializer
    model = StaffAssignment

    @extend_schema(request=s.AssignSerializer, responses={201: s.StaffAssignmentSerializer, **REFUSED})
    def create(self, request: Request) -> Response:
        data = self.run(s.AssignSerializer, request)
        duty = services.staff_assign(session=data.pop("table_session"), actor=request.user, **data)
        return Response(self.get_serializer(duty).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=s.RelieveSerializer, responses={201: s.StaffAssignmentSerializer, **REFUSED})
    @action(detail=True, methods=["post"])
    def relieve(self, request: Request, pk: int) -> Response:
        duty = services.staff_relieve(
            assignment=self.get_object(), actor=request.user, **self.run(s.RelieveSerializer, request)
        )
        return Response(self.get_serializer(duty).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=None, responses={200: s.StaffAssignmentSerializer, **REFUSED})
    @action(detail=True, methods=["post"])
    def release(self, request: Request, pk: int) -> Response:
        duty = services.staff_release(assignment=self.get_object(), actor=request.user)
        return Response(self.get_serializer(duty).data)


class LimitsViewSet(ScopedViewSet):
    """Seats and stakes of each table-partie, at opening and changed during play (GAME-18, 25, 33…)."""

    queryset = TableLimits.objects.none()
    serializer_class = s.TableLimitsSerializer
    model = TableLimits

    @extend_schema(request=s.LimitsSetSerializer, responses={201: s.TableLimitsSerializer, **REFUSED})
    def create(self, request: Request) -> Response:
        data = self.run(s.LimitsSetSerializer, request)
        record = services.table_limits_set(session=data.pop("table_session"), actor=request.user, **data)
        return Response(self.get_serializer(record).data, status=status.HTTP_201_CREATED)


class ExtensionViewSet(ScopedViewSet):
    """MC chemin de fer past the closing time: the Direction des Jeux's decisions (GAME-29)."""

    queryset = ClosingExtension.objects.none()
    serializer_class = s.ClosingExtensionSerializer
    model = ClosingExtension

    @extend_schema(request=s.ExtensionInput, responses={201: s.ClosingExtensionSerializer, **REFUSED})
    def create(self, request: Request) -> Response:
        data = self.run(s.ExtensionInput, request)
        record = services.closing_extension_record(session=data.pop("table_session"), actor=request.user, **data)
        return Response(self.get_serializer(record).data, status=status.HTTP_201_CREATED)


class BankerViewSet(ScopedViewSet):
    """MC banque à tout va: the approved banker named for each table-partie (GAME-31)."""

    queryset = PartieBanker.objects.none()
    serializer_class = s.PartieBankerSerializer
    model = PartieBanker

    @extend_schema(request=s.BankerInput, responses={201: s.PartieBankerSerializer, **REFUSED})
    def create(self, request: Request) -> Response:
        data = self.run(s.BankerInput, request)
        record = services.banker_name(session=data.pop("table_session"), actor=request.user, **data)
        return Response(self.get_serializer(record).data, status=status.HTTP_201_CREATED)
