"""API of the table-parties' staff (assign, relieve, release) and limits. Refusals answer 409
{code, article, detail}."""

from drf_spectacular.utils import extend_schema
from rest_framework import mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from ledgers.core.api.errors import REFUSED
from ledgers.core.api.scoping import EstablishmentScoped

from .. import services
from ..models import ClosingExtension, PartieBanker, StaffAssignment, TableLimits
from . import serializers as s


class ScopedViewSet(EstablishmentScoped, mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    scope = "table_session__seance__establishment"
    filterset_fields = ["table_session"]

    def run(self, form_class, request: Request, **kwargs) -> dict:
        form = form_class(data=request.data, context=self.get_serializer_context())
        form.is_valid(raise_exception=True)
        return {**form.validated_data, **kwargs}

    def created(self, record) -> Response:
        return Response(self.get_serializer(record).data, status=status.HTTP_201_CREATED)


class StaffViewSet(ScopedViewSet):
    """Who staffs each table-partie, with reliefs (GAME-02, 10, 13, 15, 17…)."""

    queryset = StaffAssignment.objects.all()
    serializer_class = s.StaffAssignmentSerializer

    @extend_schema(request=s.AssignSerializer, responses={201: s.StaffAssignmentSerializer, **REFUSED})
    def create(self, request: Request) -> Response:
        data = self.run(s.AssignSerializer, request)
        return self.created(services.staff_assign(session=data.pop("table_session"), actor=request.user, **data))

    @extend_schema(request=s.RelieveSerializer, responses={201: s.StaffAssignmentSerializer, **REFUSED})
    @action(detail=True, methods=["post"])
    def relieve(self, request: Request, pk: int) -> Response:
        return self.created(
            services.staff_relieve(
                assignment=self.get_object(), actor=request.user, **self.run(s.RelieveSerializer, request)
            )
        )

    @extend_schema(request=None, responses={200: s.StaffAssignmentSerializer, **REFUSED})
    @action(detail=True, methods=["post"])
    def release(self, request: Request, pk: int) -> Response:
        duty = services.staff_release(assignment=self.get_object(), actor=request.user)
        return Response(self.get_serializer(duty).data)


class LimitsViewSet(ScopedViewSet):
    """Seats and stakes of each table-partie, at opening and changed during play (GAME-18, 25, 33…)."""

    queryset = TableLimits.objects.all()
    serializer_class = s.TableLimitsSerializer

    @extend_schema(request=s.LimitsSetSerializer, responses={201: s.TableLimitsSerializer, **REFUSED})
    def create(self, request: Request) -> Response:
        data = self.run(s.LimitsSetSerializer, request)
        return self.created(services.table_limits_set(session=data.pop("table_session"), actor=request.user, **data))


class ExtensionViewSet(ScopedViewSet):
    """MC chemin de fer past the closing time: the Direction des Jeux's decisions (GAME-29)."""

    queryset = ClosingExtension.objects.all()
    serializer_class = s.ClosingExtensionSerializer

    @extend_schema(request=s.ExtensionInput, responses={201: s.ClosingExtensionSerializer, **REFUSED})
    def create(self, request: Request) -> Response:
        data = self.run(s.ExtensionInput, request)
        return self.created(
            services.closing_extension_record(session=data.pop("table_session"), actor=request.user, **data)
        )


class BankerViewSet(ScopedViewSet):
    """MC banque à tout va: the approved banker named for each table-partie (GAME-31)."""

    queryset = PartieBanker.objects.all()
    serializer_class = s.PartieBankerSerializer

    @extend_schema(request=s.BankerInput, responses={201: s.PartieBankerSerializer, **REFUSED})
    def create(self, request: Request) -> Response:
        data = self.run(s.BankerInput, request)
        return self.created(services.banker_name(session=data.pop("table_session"), actor=request.user, **data))
