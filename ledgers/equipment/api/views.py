"""Equipment API: one endpoint per flow (POST, calling its service) and read endpoints.
RuleViolation answers 409 with code, article and detail (ledgers.core.api)."""

from typing import Any

from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.shortcuts import get_object_or_404
from django.utils.functional import cached_property
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import generics, serializers, status
from rest_framework.pagination import CursorPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from ledgers.core.api import RuleViolationSerializer
from ledgers.core.models import Establishment
from ledgers.core.selectors import current_establishment
from ledgers.custody import services as custody
from ledgers.custody.models import DestructionSession
from ledgers.incidents.api.serializers import IncidentRefSerializer

from .. import selectors, services
from ..domains import SHOES
from ..filtersets import ShoeFilter, ShufflerFilter, WheelFilter
from ..models import (
    ApprovedModel,
    LaunchRoster,
    LaunchTurn,
    Shoe,
    ShoeAllocation,
    Shuffler,
    ShufflerUse,
    Wheel,
    WheelCheck,
)
from . import serializers as s


class ByIdPagination(CursorPagination):
    ordering = "-id"


class EstablishmentAPIMixin:
    request: Request

    @cached_property
    def establishment(self) -> Establishment:
        est = current_establishment(self.request)
        if est is None:
            raise PermissionDenied(_("Vous n'êtes affecté à aucun établissement."))
        return est

    def get_serializer_context(self) -> dict[str, Any]:
        return {**super().get_serializer_context(), "establishment": self.establishment}


class ServiceAPIView(EstablishmentAPIMixin, generics.GenericAPIView):
    """POST: validate ``input_class``, call ``perform``, answer ``output_class`` (201)."""

    input_class: type[serializers.Serializer] = s.EmptyInput
    output_class: type[serializers.Serializer]
    model: type | None = None  # the object in the URL, when there is one
    scope = "establishment"

    def __init_subclass__(cls, **kwargs) -> None:
        super().__init_subclass__(**kwargs)

        def post(self, request: Request, *args, **kwargs) -> Response:
            return self.run(request)

        post.__doc__ = cls.__doc__
        cls.post = extend_schema(
            request=cls.input_class,
            responses={201: cls.output_class, 400: None, 403: None, 409: RuleViolationSerializer},
        )(post)

    def get_serializer_class(self):
        return self.input_class

    @cached_property
    def object(self) -> Any:
        return get_object_or_404(self.model.objects.filter(**{self.scope: self.establishment}), pk=self.kwargs["pk"])

    def perform(self, data: dict[str, Any]) -> Any:
        raise NotImplementedError

    def run(self, request: Request) -> Response:
        serializer = self.input_class(data=request.data, context=self.get_serializer_context())
        serializer.is_valid(raise_exception=True)
        with services.custody_input_errors():
            result = self.perform(serializer.validated_data)
        data = self.output_class(result, many=isinstance(result, list), context=self.get_serializer_context()).data
        return Response(data, status=status.HTTP_201_CREATED)


class ScopedListView(EstablishmentAPIMixin, generics.ListAPIView):
    pagination_class = ByIdPagination
    model: type
    scope = "establishment"

    def get_queryset(self) -> QuerySet:
        if getattr(self, "swagger_fake_view", False):  # schema generation: no request user
            return self.model.objects.none()
        return self.model.objects.filter(**{self.scope: self.establishment})


class ScopedDetailView(EstablishmentAPIMixin, generics.RetrieveAPIView):
    model: type
    scope = "establishment"

    def get_queryset(self) -> QuerySet:
        return self.model.objects.filter(**{self.scope: self.establishment})


# --- Reads ---------------------------------------------------------------------------------------


class ApprovedModelList(ScopedListView):
    model, serializer_class = ApprovedModel, s.ApprovedModelSerializer


class ShoeList(ScopedListView):
    model, serializer_class, filterset_class = Shoe, s.ShoeSerializer, ShoeFilter


class ShoeDetail(ScopedDetailView):
    model, serializer_class = Shoe, s.ShoeSerializer


class AllocationList(ScopedListView):
    model, serializer_class = ShoeAllocation, s.ShoeAllocationSerializer

    def get_queryset(self):
        return (
            super()
            .get_queryset()
            .select_related("shoe", "table_session__table", "table_session__seance", "allocated_by")
        )


class ShufflerList(ScopedListView):
    model, serializer_class, filterset_class = Shuffler, s.ShufflerSerializer, ShufflerFilter


class ShufflerUseList(ScopedListView):
    model, serializer_class, scope = ShufflerUse, s.ShufflerUseSerializer, "table_session__seance__establishment"


class WheelList(ScopedListView):
    model, serializer_class, filterset_class = Wheel, s.WheelSerializer, WheelFilter


class WheelCheckList(ScopedListView):
    model, serializer_class = WheelCheck, s.WheelCheckSerializer


class RepeatedPairs(EstablishmentAPIMixin, APIView):
    """Sabot × table pairs allocated at least ``minimum`` times over the period (SHOE-05, SHOE-12)."""

    @extend_schema(
        parameters=[
            OpenApiParameter("date_from", str),
            OpenApiParameter("date_to", str),
            OpenApiParameter("minimum", int),
        ],
        responses=s.RepeatedPairSerializer(many=True),
    )
    def get(self, request: Request) -> Response:
        params = serializers.Serializer()
        params.fields.update(
            date_from=serializers.DateField(),
            date_to=serializers.DateField(),
            minimum=serializers.IntegerField(min_value=2, default=2),
        )
        params.initial_data = request.query_params
        params.is_valid(raise_exception=True)
        rows = selectors.repeated_pairs(self.establishment, **params.validated_data)
        return Response(s.RepeatedPairSerializer(rows, many=True).data)


class LaunchRosterList(ScopedListView):
    model, serializer_class = LaunchRoster, s.LaunchRosterSerializer

    def get_queryset(self):
        return super().get_queryset().prefetch_related("places__croupier")


class LaunchTurnList(ScopedListView):
    model, serializer_class = LaunchTurn, s.LaunchTurnSerializer

    def get_queryset(self):
        return super().get_queryset().select_related("launcher")


class Exceptions(EstablishmentAPIMixin, APIView):
    """What the equipment records flagged — allowed, but reported: sabot allocations (SHOE-05,
    SHOE-12, AMB-49) and launchers at roulette and boule (WHEEL-09). Newest first."""

    @extend_schema(responses=s.EquipmentFlagSerializer(many=True))
    def get(self, request: Request) -> Response:
        return Response(s.EquipmentFlagSerializer(selectors.exceptions(self.establishment), many=True).data)


# --- Flows ---------------------------------------------------------------------------------------


class ApprovedModelRegister(ServiceAPIView):
    """Record a model of sabot or shuffler with its approval (SET-33, SHUF-01, SHUF-11)."""

    input_class, output_class = s.ApprovedModelInput, s.ApprovedModelSerializer

    def perform(self, data):
        return services.approved_model_register(establishment=self.establishment, actor=self.request.user, **data)


class ShoeReceive(ServiceAPIView):
    """Take sabots into stock and into the inventory (SHOE-01, SHOE-09, SHOE-10, SHOE-11)."""

    input_class, output_class = s.ShoeReceiveInput, s.ShoeSerializer

    def perform(self, data):
        return services.shoe_receive(
            establishment=self.establishment,
            model=data["model"],
            location=data["location"],
            shoes=[(line["number"], line["maker_serial"]) for line in data["shoes"]],
            actor=self.request.user,
            delivery_note=data["delivery_note"],
        )


class ShoeUpdate(ServiceAPIView):
    """Correct a sabot's sheet; never its number (SHOE-10)."""

    input_class, output_class, model = s.ShoeUpdateInput, s.ShoeSerializer, Shoe

    def perform(self, data):
        return services.shoe_update(shoe=self.object, actor=self.request.user, **data)


class ShoeWithdraw(ServiceAPIView):
    """Declare a sabot out of use (SHOE-03)."""

    input_class, output_class, model = s.ShoeWithdrawInput, s.ShoeSerializer, Shoe

    def perform(self, data):
        return services.shoe_withdraw(shoe=self.object, actor=self.request.user, **data)


class ShoeAllocate(ServiceAPIView):
    """Put a sabot in service at a table-partie (SHOE-02, SHOE-04 to SHOE-08, SHOE-11 to SHOE-13)."""

    input_class, output_class = s.ShoeAllocateInput, s.ShoeAllocationSerializer

    def perform(self, data):
        return services.shoe_allocate(
            session=data["table_session"], shoe=data["shoe"], actor=self.request.user, received_by=data["received_by"]
        )


class ShoeReturn(ServiceAPIView):
    """Put sabots back in a depot at the end of the partie (SHOE-02, SHOE-09)."""

    input_class, output_class = s.ShoeReturnInput, s.ShoeSerializer

    def perform(self, data):
        return services.shoe_return(
            shoes=list(data["shoes"]),
            to_location=data["to_location"],
            actor=self.request.user,
            returned_by=data["returned_by"],
        )


class DestructionPlan(ServiceAPIView):
    """Plan a destruction or neutralisation of sabots declared out of use (SHOE-03)."""

    input_class, output_class = s.ShoeDestructionPlanInput, s.ShoeDestructionSessionSerializer

    def perform(self, data):
        return custody.destruction_plan(
            domain=SHOES,
            establishment=self.establishment,
            method=data["method"],
            planned_at=data["planned_at"],
            items=list(data["shoes"]),
            actor=self.request.user,
        )


class DestructionStep(ServiceAPIView):
    model, output_class = DestructionSession, s.ShoeDestructionSessionSerializer

    @cached_property
    def object(self):
        return get_object_or_404(
            DestructionSession, establishment=self.establishment, domain=SHOES.code, pk=self.kwargs["pk"]
        )


class DestructionNotify(DestructionStep):
    """Record the prior information of the SCJ (MC, SHOE-03 as CARD-11)."""

    input_class = s.ShoeDestructionNotifyInput

    def perform(self, data):
        return custody.destruction_notify(session=self.object, actor=self.request.user, **data)


class DestructionComplete(DestructionStep):
    """Perform the destruction: OUT entries in the sabots' intake register (SHOE-03, SHOE-11)."""

    input_class = s.ShoeDestructionCompleteInput

    def perform(self, data):
        return custody.destruction_complete(
            session=self.object,
            domain=SHOES,
            actor=self.request.user,
            witness=data["witness"],
            observations=data["observations"],
        )


class ShufflerRegister(ServiceAPIView):
    """Register a shuffler or shuffler-dealer (SHUF-04)."""

    input_class, output_class = s.ShufflerRegisterInput, s.ShufflerSerializer

    def perform(self, data):
        return services.shuffler_register(establishment=self.establishment, actor=self.request.user, **data)


class ShufflerCommission(ServiceAPIView):
    """Put a shuffler into service (SHUF-01, SHUF-02, SHUF-03, SHUF-11)."""

    input_class, output_class, model = s.ShufflerCommissionInput, s.ShufflerSerializer, Shuffler

    def perform(self, data):
        return services.shuffler_commission(shuffler=self.object, actor=self.request.user, **data)


class SocleCreate(ServiceAPIView):
    """Record the socle attached to a table (SHUF-05)."""

    input_class, output_class = s.SocleInput, s.SocleSerializer

    def perform(self, data):
        return services.socle_create(table=data["table"], code=data["code"], actor=self.request.user)


class ShufflerMount(ServiceAPIView):
    """Fix a shuffler on a table's socle (SHUF-05, SHUF-08, SHUF-09)."""

    input_class, output_class, model = s.ShufflerMountInput, s.ShufflerSerializer, Shuffler

    def perform(self, data):
        return services.shuffler_mount(shuffler=self.object, socle=data["socle"], actor=self.request.user)


class ShufflerUnmount(ServiceAPIView):
    """Take a shuffler off its socle."""

    output_class, model = s.ShufflerSerializer, Shuffler

    def perform(self, data):
        return services.shuffler_unmount(shuffler=self.object, actor=self.request.user)


class ShufflerMalfunction(ServiceAPIView):
    """Report a malfunction: incident opened, shuffler out of service (INC-07)."""

    input_class, output_class, model = s.MalfunctionInput, IncidentRefSerializer, Shuffler

    def perform(self, data):
        return services.shuffler_malfunction_report(
            shuffler=self.object,
            actor=self.request.user,
            description=data["description"],
            action_taken=data["action_taken"],
            session=data["table_session"],
        )


class ShufflerReturnToService(ServiceAPIView):
    """Back in service once the malfunction incident is closed (INC-07)."""

    output_class, model = s.ShufflerSerializer, Shuffler

    def perform(self, data):
        return services.shuffler_return_to_service(shuffler=self.object, actor=self.request.user)


class ShufflerUseStart(ServiceAPIView):
    """Start a shuffler for the séance with its opening checklist (SHUF-05, SHUF-14, SHUF-15)."""

    input_class, output_class = s.ShufflerUseStartInput, s.ShufflerUseSerializer

    def perform(self, data):
        return services.shuffler_use_start(session=data.pop("table_session"), actor=self.request.user, **data)


class ShufflerUseStep(ServiceAPIView):
    model, scope, output_class = ShufflerUse, "table_session__seance__establishment", s.ShufflerUseSerializer


class ShufflerUseEnd(ShufflerUseStep):
    """End of séance at the shuffler: hood opened, empty, cards removed, disconnected (SHUF-13 to SHUF-15)."""

    input_class = s.ShufflerUseEndInput

    def perform(self, data):
        return services.shuffler_use_end(use=self.object, actor=self.request.user, **data)


class ShufflerPause(ShufflerUseStep):
    """MC: play paused, cards left in the shuffler-dealer, cover fitted (SHUF-07)."""

    def perform(self, data):
        services.shuffler_pause_record(use=self.object, actor=self.request.user)
        return self.object


class WheelRegister(ServiceAPIView):
    """Record a roulette, boule plateau or wheel with its specification."""

    input_class, output_class = s.WheelRegisterInput, s.WheelSerializer

    def perform(self, data):
        return services.wheel_register(establishment=self.establishment, actor=self.request.user, **data)


class WheelCommission(ServiceAPIView):
    """Put into service after validating the specification (WHEEL-01, 03, 04, 05, 07)."""

    output_class, model = s.WheelSerializer, Wheel

    def perform(self, data):
        return services.wheel_commission(wheel=self.object, actor=self.request.user)


class WheelInstall(ServiceAPIView):
    """Install a wheel at a table of its game."""

    input_class, output_class, model = s.WheelInstallInput, s.WheelSerializer, Wheel

    def perform(self, data):
        return services.wheel_install(wheel=self.object, table=data["table"], actor=self.request.user)


class WheelCheckRecord(ServiceAPIView):
    """The pre-séance check signed by both people the text names (WHEEL-06, WHEEL-08, INC-08)."""

    input_class, output_class = s.WheelCheckInput, s.WheelCheckSerializer

    def perform(self, data):
        return services.wheel_check_record(
            session=data["table_session"],
            actor=self.request.user,
            cosigner=data["cosigner"],
            points=data["points"],
            passed=data["passed"],
            observations=data["observations"],
        )


class LidLockRecord(ServiceAPIView):
    """End of partie: lid locked, key returned to its holder (WHEEL-02, KEY-08)."""

    input_class, output_class = s.LidLockInput, s.LidLockSerializer

    def perform(self, data):
        return services.wheel_lid_lock(
            session=data["table_session"], actor=self.request.user, key_holder=data["key_holder"] or self.request.user
        )


class LaunchRosterSet(ServiceAPIView):
    """MC roulette and boule: the ordre de roulement of a table for the séance, set by the Direction
    des Jeux (WHEEL-09)."""

    input_class, output_class = s.LaunchRosterInput, s.LaunchRosterSerializer

    def perform(self, data):
        return services.launch_roster_set(
            session=data["table_session"], croupiers=data["croupiers"], actor=self.request.user, note=data["note"]
        )


class LaunchTurnRecord(ServiceAPIView):
    """MC roulette and boule: who launches the ball from when (first launcher, reliefs), by the chef
    de table; a launcher outside the order or specialisation is recorded with its flags (WHEEL-09)."""

    input_class, output_class = s.LaunchTurnInput, s.LaunchTurnSerializer

    def perform(self, data):
        return services.launch_turn_record(
            session=data["table_session"],
            launcher=data["launcher"],
            actor=self.request.user,
            started_at=data["started_at"],
            observations=data["observations"],
        )
