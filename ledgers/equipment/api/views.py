"""Equipment API: one endpoint per flow (POST, calling its service) and read endpoints.
RuleViolation answers 409 with code, article and detail."""

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import generics, serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from ledgers.core.api.actions import ServiceAction
from ledgers.core.api.fields import DateField
from ledgers.core.api.scoping import EstablishmentScoped
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


class ScopedListView(EstablishmentScoped, generics.ListAPIView):
    pass


class ScopedDetailView(EstablishmentScoped, generics.RetrieveAPIView):
    pass


# --- Reads ---------------------------------------------------------------------------------------


class ApprovedModelList(ScopedListView):
    queryset, serializer_class = ApprovedModel.objects.all(), s.ApprovedModelSerializer


class ShoeList(ScopedListView):
    queryset, serializer_class, filterset_class = Shoe.objects.all(), s.ShoeSerializer, ShoeFilter


class ShoeDetail(ScopedDetailView):
    queryset, serializer_class = Shoe.objects.all(), s.ShoeSerializer


class AllocationList(ScopedListView):
    queryset = ShoeAllocation.objects.select_related(
        "shoe", "table_session__table", "table_session__seance", "allocated_by"
    )
    serializer_class = s.ShoeAllocationSerializer


class ShufflerList(ScopedListView):
    queryset, serializer_class, filterset_class = Shuffler.objects.all(), s.ShufflerSerializer, ShufflerFilter


class ShufflerUseList(ScopedListView):
    queryset, serializer_class, scope = (
        ShufflerUse.objects.all(),
        s.ShufflerUseSerializer,
        "table_session__seance__establishment",
    )


class WheelList(ScopedListView):
    queryset, serializer_class, filterset_class = Wheel.objects.all(), s.WheelSerializer, WheelFilter


class WheelCheckList(ScopedListView):
    queryset, serializer_class = WheelCheck.objects.all(), s.WheelCheckSerializer


class RepeatedPairs(EstablishmentScoped, APIView):
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
            date_from=DateField(),
            date_to=DateField(),
            minimum=serializers.IntegerField(min_value=2, default=2),
        )
        params.initial_data = request.query_params
        params.is_valid(raise_exception=True)
        rows = selectors.repeated_pairs(self.establishment, **params.validated_data)
        return Response(s.RepeatedPairSerializer(rows, many=True).data)


class LaunchRosterList(ScopedListView):
    queryset, serializer_class = LaunchRoster.objects.prefetch_related("places__croupier"), s.LaunchRosterSerializer


class LaunchTurnList(ScopedListView):
    queryset, serializer_class = LaunchTurn.objects.select_related("launcher"), s.LaunchTurnSerializer


class Exceptions(EstablishmentScoped, APIView):
    """What the equipment records flagged — allowed, but reported: sabot allocations (SHOE-05,
    SHOE-12, AMB-49) and launchers at roulette and boule (WHEEL-09). Newest first."""

    @extend_schema(responses=s.EquipmentFlagSerializer(many=True))
    def get(self, request: Request) -> Response:
        return Response(s.EquipmentFlagSerializer(selectors.exceptions(self.establishment), many=True).data)


# --- Flows ---------------------------------------------------------------------------------------


class ApprovedModelRegister(ServiceAction):
    """Record a model of sabot or shuffler with its approval (SET-33, SHUF-01, SHUF-11)."""

    input_serializer, output_serializer = s.ApprovedModelInput, s.ApprovedModelSerializer

    def perform(self, data, **kwargs):
        return services.approved_model_register(establishment=self.establishment, actor=self.request.user, **data)


class ShoeReceive(ServiceAction):
    """Take sabots into stock and into the inventory (SHOE-01, SHOE-09, SHOE-10, SHOE-11)."""

    input_serializer, output_serializer, many = s.ShoeReceiveInput, s.ShoeSerializer, True

    def perform(self, data, **kwargs):
        return services.shoe_receive(
            establishment=self.establishment,
            model=data["model"],
            location=data["location"],
            shoes=[(line["number"], line["maker_serial"]) for line in data["shoes"]],
            actor=self.request.user,
            delivery_note=data["delivery_note"],
        )


class ShoeUpdate(ServiceAction):
    """Correct a sabot's sheet; never its number (SHOE-10)."""

    input_serializer, output_serializer, queryset = s.ShoeUpdateInput, s.ShoeSerializer, Shoe.objects.all()

    def perform(self, data, **kwargs):
        return services.shoe_update(shoe=self.get_object(), actor=self.request.user, **data)


class ShoeWithdraw(ServiceAction):
    """Declare a sabot out of use (SHOE-03)."""

    input_serializer, output_serializer, queryset = s.ShoeWithdrawInput, s.ShoeSerializer, Shoe.objects.all()

    def perform(self, data, **kwargs):
        return services.shoe_withdraw(shoe=self.get_object(), actor=self.request.user, **data)


class ShoeAllocate(ServiceAction):
    """Put a sabot in service at a table-partie (SHOE-02, SHOE-04 to SHOE-08, SHOE-11 to SHOE-13)."""

    input_serializer, output_serializer = s.ShoeAllocateInput, s.ShoeAllocationSerializer

    def perform(self, data, **kwargs):
        return services.shoe_allocate(
            session=data["table_session"], shoe=data["shoe"], actor=self.request.user, received_by=data["received_by"]
        )


class ShoeReturn(ServiceAction):
    """Put sabots back in a depot at the end of the partie (SHOE-02, SHOE-09)."""

    input_serializer, output_serializer, many = s.ShoeReturnInput, s.ShoeSerializer, True

    def perform(self, data, **kwargs):
        return services.shoe_return(
            shoes=list(data["shoes"]),
            to_location=data["to_location"],
            actor=self.request.user,
            returned_by=data["returned_by"],
        )


class DestructionPlan(ServiceAction):
    """Plan a destruction or neutralisation of sabots declared out of use (SHOE-03)."""

    input_serializer, output_serializer = s.ShoeDestructionPlanInput, s.ShoeDestructionSessionSerializer

    def perform(self, data, **kwargs):
        return custody.destruction_plan(
            domain=SHOES,
            establishment=self.establishment,
            method=data["method"],
            planned_at=data["planned_at"],
            items=list(data["shoes"]),
            actor=self.request.user,
        )


class DestructionStep(ServiceAction):
    queryset, output_serializer = (
        DestructionSession.objects.filter(domain=SHOES.code),
        s.ShoeDestructionSessionSerializer,
    )


class DestructionNotify(DestructionStep):
    """Record the prior information of the SCJ (MC, SHOE-03 as CARD-11)."""

    input_serializer = s.ShoeDestructionNotifyInput

    def perform(self, data, **kwargs):
        return custody.destruction_notify(session=self.get_object(), actor=self.request.user, **data)


class DestructionComplete(DestructionStep):
    """Perform the destruction: OUT entries in the sabots' intake register (SHOE-03, SHOE-11)."""

    input_serializer, countersigners = s.ShoeDestructionCompleteInput, ("witness",)

    def perform(self, data, **kwargs):
        return custody.destruction_complete(
            session=self.get_object(),
            domain=SHOES,
            actor=self.request.user,
            witness=self.signed["witness"],
            observations=data["observations"],
        )


class ShufflerRegister(ServiceAction):
    """Register a shuffler or shuffler-dealer (SHUF-04)."""

    input_serializer, output_serializer = s.ShufflerRegisterInput, s.ShufflerSerializer

    def perform(self, data, **kwargs):
        return services.shuffler_register(establishment=self.establishment, actor=self.request.user, **data)


class ShufflerCommission(ServiceAction):
    """Put a shuffler into service (SHUF-01, SHUF-02, SHUF-03, SHUF-11)."""

    input_serializer, output_serializer, queryset = (
        s.ShufflerCommissionInput,
        s.ShufflerSerializer,
        Shuffler.objects.all(),
    )

    def perform(self, data, **kwargs):
        return services.shuffler_commission(shuffler=self.get_object(), actor=self.request.user, **data)


class SocleCreate(ServiceAction):
    """Record the socle attached to a table (SHUF-05)."""

    input_serializer, output_serializer = s.SocleInput, s.SocleSerializer

    def perform(self, data, **kwargs):
        return services.socle_create(table=data["table"], code=data["code"], actor=self.request.user)


class ShufflerMount(ServiceAction):
    """Fix a shuffler on a table's socle (SHUF-05, SHUF-08, SHUF-09)."""

    input_serializer, output_serializer, queryset = s.ShufflerMountInput, s.ShufflerSerializer, Shuffler.objects.all()

    def perform(self, data, **kwargs):
        return services.shuffler_mount(shuffler=self.get_object(), socle=data["socle"], actor=self.request.user)


class ShufflerUnmount(ServiceAction):
    """Take a shuffler off its socle."""

    output_serializer, queryset = s.ShufflerSerializer, Shuffler.objects.all()

    def perform(self, data, **kwargs):
        return services.shuffler_unmount(shuffler=self.get_object(), actor=self.request.user)


class ShufflerMalfunction(ServiceAction):
    """Report a malfunction: incident opened, shuffler out of service (INC-07)."""

    input_serializer, output_serializer, queryset = s.MalfunctionInput, IncidentRefSerializer, Shuffler.objects.all()

    def perform(self, data, **kwargs):
        return services.shuffler_malfunction_report(
            shuffler=self.get_object(),
            actor=self.request.user,
            description=data["description"],
            action_taken=data["action_taken"],
            session=data["table_session"],
        )


class ShufflerReturnToService(ServiceAction):
    """Back in service once the malfunction incident is closed (INC-07)."""

    output_serializer, queryset = s.ShufflerSerializer, Shuffler.objects.all()

    def perform(self, data, **kwargs):
        return services.shuffler_return_to_service(shuffler=self.get_object(), actor=self.request.user)


class ShufflerUseStart(ServiceAction):
    """Start a shuffler for the séance with its opening checklist (SHUF-05, SHUF-14, SHUF-15)."""

    input_serializer, output_serializer = s.ShufflerUseStartInput, s.ShufflerUseSerializer

    def perform(self, data, **kwargs):
        return services.shuffler_use_start(session=data.pop("table_session"), actor=self.request.user, **data)


class ShufflerUseStep(ServiceAction):
    queryset, scope = ShufflerUse.objects.all(), "table_session__seance__establishment"
    output_serializer = s.ShufflerUseSerializer


class ShufflerUseEnd(ShufflerUseStep):
    """End of séance at the shuffler: hood opened, empty, cards removed, disconnected (SHUF-13 to SHUF-15)."""

    input_serializer = s.ShufflerUseEndInput

    def perform(self, data, **kwargs):
        return services.shuffler_use_end(use=self.get_object(), actor=self.request.user, **data)


class ShufflerPause(ShufflerUseStep):
    """MC: play paused, cards left in the shuffler-dealer, cover fitted (SHUF-07)."""

    def perform(self, data, **kwargs):
        use = self.get_object()
        services.shuffler_pause_record(use=use, actor=self.request.user)
        return use


class WheelRegister(ServiceAction):
    """Record a roulette, boule plateau or wheel with its specification."""

    input_serializer, output_serializer = s.WheelRegisterInput, s.WheelSerializer

    def perform(self, data, **kwargs):
        return services.wheel_register(establishment=self.establishment, actor=self.request.user, **data)


class WheelCommission(ServiceAction):
    """Put into service after validating the specification (WHEEL-01, 03, 04, 05, 07)."""

    output_serializer, queryset = s.WheelSerializer, Wheel.objects.all()

    def perform(self, data, **kwargs):
        return services.wheel_commission(wheel=self.get_object(), actor=self.request.user)


class WheelInstall(ServiceAction):
    """Install a wheel at a table of its game."""

    input_serializer, output_serializer, queryset = s.WheelInstallInput, s.WheelSerializer, Wheel.objects.all()

    def perform(self, data, **kwargs):
        return services.wheel_install(wheel=self.get_object(), table=data["table"], actor=self.request.user)


class WheelCheckRecord(ServiceAction):
    """The pre-séance check signed by both people the text names (WHEEL-06, WHEEL-08, INC-08)."""

    input_serializer, output_serializer, countersigners = s.WheelCheckInput, s.WheelCheckSerializer, ("cosigner",)

    def perform(self, data, **kwargs):
        return services.wheel_check_record(
            session=data["table_session"],
            actor=self.request.user,
            cosigner=self.signed["cosigner"],
            points=data["points"],
            passed=data["passed"],
            observations=data["observations"],
        )


class LidLockRecord(ServiceAction):
    """End of partie: lid locked, key returned to its holder (WHEEL-02, KEY-08)."""

    input_serializer, output_serializer, countersigners = s.LidLockInput, s.LidLockSerializer, ("key_holder",)

    def perform(self, data, **kwargs):
        return services.wheel_lid_lock(
            session=data["table_session"],
            actor=self.request.user,
            key_holder=self.signed["key_holder"] or self.request.user,
        )


class LaunchRosterSet(ServiceAction):
    """MC roulette and boule: the ordre de roulement of a table for the séance, set by the Direction
    des Jeux (WHEEL-09)."""

    input_serializer, output_serializer = s.LaunchRosterInput, s.LaunchRosterSerializer

    def perform(self, data, **kwargs):
        return services.launch_roster_set(
            session=data["table_session"], croupiers=data["croupiers"], actor=self.request.user, note=data["note"]
        )


class LaunchTurnRecord(ServiceAction):
    """MC roulette and boule: who launches the ball from when (first launcher, reliefs), by the chef
    de table; a launcher outside the order or specialisation is recorded with its flags (WHEEL-09)."""

    input_serializer, output_serializer = s.LaunchTurnInput, s.LaunchTurnSerializer

    def perform(self, data, **kwargs):
        return services.launch_turn_record(
            session=data["table_session"],
            launcher=data["launcher"],
            actor=self.request.user,
            started_at=data["started_at"],
            observations=data["observations"],
        )
