"""Slot API: the inventory (read), and one endpoint per flow: relève opening and closing, the bulk
meter import, counts, moves, interventions. Rule violations answer 409 {"code", "article",
"detail"} (ledgers.core.api); an import with bad rows answers 400 with every bad row."""

from django.contrib.auth import get_user_model
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.exceptions import ValidationError as DRFValidationError
from rest_framework.response import Response
from rest_framework.views import APIView

from ledgers.core.api import RuleViolationSerializer
from ledgers.core.countersign import countersigner_from
from ledgers.core.models import Membership, Room
from ledgers.dice.api.views import ESTABLISHMENT, EstablishmentViewSet, api_establishment
from ledgers.keys.api.views import Write

from .. import locks, selectors, services
from ..forms import split_move_countersignatures
from ..models import Intervention, Machine, Releve
from . import serializers as s


class MachineViewSet(EstablishmentViewSet):
    """The inventory file: machines with their meters (filter by status, place)."""

    model = Machine
    serializer_class = s.SlotMachineSerializer
    filterset_fields = ("status", "place", "sbm_number", "casino_number")

    def scoped(self):
        return selectors.machines_of(self.establishment).prefetch_related("meters")


class ActionView(APIView):
    input_serializer: type
    output_serializer: type

    def post(self, request, **kwargs):
        self.establishment = api_establishment(request)
        data = self.input_serializer(data=request.data, context={"establishment": self.establishment})
        data.is_valid(raise_exception=True)
        result = self.perform(data.validated_data, **kwargs)
        return Response(self.output(result), status=status.HTTP_201_CREATED)

    def output(self, result):
        return self.output_serializer(result).data


def _member(est, pk):
    if pk is None:
        return None
    return get_object_or_404(Membership.objects.select_related("user"), establishment=est, user_id=pk).user


@extend_schema(parameters=[ESTABLISHMENT], request=s.SlotReleveOpenSerializer, responses={201: s.SlotReleveSerializer})
class ReleveOpenView(ActionView):
    input_serializer, output_serializer = s.SlotReleveOpenSerializer, s.SlotReleveSerializer

    def perform(self, data):
        est = self.establishment
        return services.releve_open(
            establishment=est,
            room=get_object_or_404(Room, pk=data["room"], establishment=est),
            actor=self.request.user,
            during_operation=data["during_operation"],
            sworn_agent=_member(est, data.get("sworn_agent")),
            staff=data["staff"],
        )


@extend_schema(parameters=[ESTABLISHMENT], request=None, responses={201: s.SlotReleveSerializer})
class ReleveCloseView(ActionView):
    input_serializer, output_serializer = s.SlotEmptySerializer, s.SlotReleveSerializer

    def perform(self, data, pk):
        releve = get_object_or_404(Releve, pk=pk, establishment=self.establishment)
        return services.releve_close(releve=releve, actor=self.request.user)


@extend_schema(
    parameters=[ESTABLISHMENT], request=s.SlotReadingsImportSerializer, responses={201: s.SlotImportResultSerializer}
)
class ReadingsImportView(ActionView):
    """A relève's meters, a machine or a whole room, in one call: all rows or none."""

    input_serializer = s.SlotReadingsImportSerializer

    def perform(self, data, pk):
        releve = get_object_or_404(Releve, pk=pk, establishment=self.establishment)
        rows = [services.ReadingRow(line=n, **row) for n, row in enumerate(data["rows"], start=1)]
        return services.releve_readings_import(releve=releve, rows=rows, actor=self.request.user)

    def output(self, result):
        return {"count": result.readings, "lines": result.lines, "incidents": [i.pk for i in result.incidents]}


@extend_schema(parameters=[ESTABLISHMENT], request=s.SlotCountInputSerializer, responses={201: s.SlotCountSerializer})
class CountView(ActionView):
    input_serializer, output_serializer = s.SlotCountInputSerializer, s.SlotCountSerializer

    def perform(self, data, pk):
        releve = get_object_or_404(Releve, pk=pk, establishment=self.establishment)
        return services.drop_count_record(releve=releve, actor=self.request.user, **data)


@extend_schema(parameters=[ESTABLISHMENT], request=s.SlotMoveInputSerializer, responses={201: s.SlotMoveSerializer})
class MoveView(ActionView):
    input_serializer, output_serializer = s.SlotMoveInputSerializer, s.SlotMoveSerializer

    def perform(self, data, pk):
        machine = get_object_or_404(Machine, pk=pk, establishment=self.establishment)
        signers, data = split_move_countersignatures(self.request, data)
        return services.machine_move(machine=machine, actor=self.request.user, signers=signers, **data)


@extend_schema(
    parameters=[ESTABLISHMENT], request=s.SlotInterventionOpenSerializer, responses={201: s.SlotInterventionSerializer}
)
class InterventionOpenView(ActionView):
    input_serializer, output_serializer = s.SlotInterventionOpenSerializer, s.SlotInterventionSerializer

    def perform(self, data):
        return services.intervention_open(actor=self.request.user, **data)


@extend_schema(
    parameters=[ESTABLISHMENT], request=s.SlotInterventionCloseSerializer, responses={201: s.SlotInterventionSerializer}
)
class InterventionCloseView(ActionView):
    input_serializer, output_serializer = s.SlotInterventionCloseSerializer, s.SlotInterventionSerializer

    def perform(self, data, pk):
        intervention = get_object_or_404(Intervention, pk=pk, machine__establishment=self.establishment)
        return services.intervention_close(intervention=intervention, actor=self.request.user, **data)


@extend_schema(
    parameters=[ESTABLISHMENT], request=s.SlotJackpotInputSerializer, responses={201: s.SlotJackpotSerializer}
)
class JackpotView(ActionView):
    input_serializer, output_serializer = s.SlotJackpotInputSerializer, s.SlotJackpotSerializer

    def perform(self, data):
        # FR SLOT-35: the comité member controlling the payment signs with his password.
        controller = countersigner_from(self.request, data, "controller")
        payment = {k: v for k, v in data.items() if not k.startswith("controller_")}
        return services.jackpot_pay(actor=self.request.user, controller=controller, **payment)


class SocleWithdrawView(Write):
    """A socle out of operation: its lock and key to the caissier principal, who signs (KEY-07)."""

    input_class, output_class, signers = s.SlotSocleWithdrawInputSerializer, s.SlotSocleSerializer, ("receiver",)

    def perform(self, est, values, signed):
        return locks.socle_withdraw_handing_over(actor=self.request.user, receiver=signed["receiver"], **values)


# --- the flows that had only a page ------------------------------------------------------------


class ServiceView(ActionView):
    """An ``ActionView`` whose service may find the input bad (``ValueError``): 400, not 500."""

    def perform(self, data, **kwargs):
        try:
            return self.call(data, **kwargs)
        except ValueError as exc:
            raise DRFValidationError({"detail": str(exc)}) from exc


def _described(input_serializer, output_serializer):
    """Declare the view's input and output, and its OpenAPI schema (refusals: 409)."""

    def decorate(view):
        view.input_serializer, view.output_serializer = input_serializer, output_serializer
        return extend_schema(
            parameters=[ESTABLISHMENT],
            request=input_serializer,
            responses={201: output_serializer, 400: None, 403: None, 409: RuleViolationSerializer},
        )(view)

    return decorate


@_described(s.SlotSocleInputSerializer, s.SlotSocleSerializer)
class SocleCreateView(ServiceView):
    """A socle numbered once and for all (SLOT-03)."""

    def call(self, data):
        return services.socle_create(establishment=self.establishment, actor=self.request.user, **data)


@_described(s.SlotMachineInputSerializer, s.SlotMachineSerializer)
class MachineRegisterView(ServiceView):
    """Enter a machine in the inventory file, in the store (SLOT-01, 02, 04, 07, 52)."""

    def post(self, request, **kwargs):
        self.establishment = api_establishment(request)
        data = self.input_serializer(data=request.data, context={"establishment": self.establishment})
        data.is_valid(raise_exception=True)
        machine = services.machine_register(
            establishment=self.establishment,
            data=data.machine_input(),
            actor=request.user,
            photo=data.validated_data["photo"],
        )
        return Response(self.output(machine), status=status.HTTP_201_CREATED)


@_described(s.SlotSheetInputSerializer, s.SlotSheetSerializer)
class SheetView(ServiceView):
    """A new version of the machine's technical sheet, its rate the machine's (SLOT-04, SLOT-07)."""

    def call(self, data, pk):
        machine = get_object_or_404(Machine, pk=pk, establishment=self.establishment)
        return services.technical_sheet_record(machine=machine, actor=self.request.user, **data)


@_described(s.SlotRamClearInputSerializer, s.SlotRamClearSerializer)
class RamClearView(ServiceView):
    """A RAM clear with every meter before and after (SLOT-16; FR: KEY-15)."""

    def call(self, data, pk):
        machine = get_object_or_404(Machine, pk=pk, establishment=self.establishment)
        return services.ram_clear_record(machine=machine, actor=self.request.user, **data)


@_described(s.SlotBoxInputSerializer, s.SlotBoxSerializer)
class BoxView(ServiceView):
    """A box taken out and replaced, during an open relève only (SLOT-24)."""

    def call(self, data, pk):
        releve = get_object_or_404(Releve, pk=pk, establishment=self.establishment)
        return services.box_exchange(releve=releve, actor=self.request.user, **data)


@_described(s.SlotTransmittalInputSerializer, s.SlotTransmittalSerializer)
class TransmittalView(ServiceView):
    """MC: the superviseur's envelope of the day's intervention sheets to the Direction (SLOT-15)."""

    def call(self, data):
        return services.transmittal_hand_over(
            establishment=self.establishment,
            actor=self.request.user,
            date=data["date"],
            received_by=_member(self.establishment, data["received_by"]),
        )


@_described(s.SlotDisputeInputSerializer, s.SlotDisputeSerializer)
class DisputeView(ServiceView):
    """A contested payment, decided by the superviseur after hearing a mechanic (SLOT-18, INC-04)."""

    def call(self, data):
        mechanic = _member(self.establishment, data.pop("mechanic"))
        return services.dispute_decide(actor=self.request.user, mechanic=mechanic, **data)


@_described(s.SlotTopUpInputSerializer, s.SlotTopUpSerializer)
class TopUpView(ServiceView):
    """A payment top-up in the cahier des compléments (SLOT-20)."""

    def call(self, data):
        return services.top_up_pay(actor=self.request.user, **data)


@_described(s.SlotOrphanInputSerializer, s.SlotOrphanSerializer)
class OrphanView(ServiceView):
    """An orphan found, never paid to a member of staff (SLOT-19, INC-05)."""

    def call(self, data):
        payee = data.pop("payee")
        if payee is not None:
            payee = get_object_or_404(get_user_model(), pk=payee)
        return services.orphan_record(establishment=self.establishment, actor=self.request.user, payee=payee, **data)


@_described(s.SlotEventsImportSerializer, s.SlotEventSerializer(many=True))
class EventsImportView(ServiceView):
    """The monitoring system's door, bill-box, socle and reset events, matched against the
    interventions, relèves, RAM clears and key hand-overs; the unexplained ones flagged (SLOT-14,
    SLOT-24, SLOT-53, INC-12). All rows or none; an event already imported is skipped."""

    def call(self, data):
        rows = [services.EventRow(row["machine"], row["event"], row["at"], n) for n, row in enumerate(data["rows"], 1)]
        return services.monitoring_events_import(establishment=self.establishment, rows=rows, actor=self.request.user)

    def output(self, result):
        return s.SlotEventSerializer(result, many=True).data


@_described(s.SlotVarianceThresholdInputSerializer, s.SlotVarianceThresholdSerializer)
class VarianceThresholdView(ServiceView):
    """The reconciliation threshold the establishment chooses: a preset or its own figures (SLOT-11)."""

    def call(self, data):
        return services.variance_threshold_choose(establishment=self.establishment, actor=self.request.user, **data)


@_described(s.SlotJackpotThresholdInputSerializer, s.SlotJackpotThresholdSerializer)
class JackpotThresholdView(ServiceView):
    """MC: the identity threshold fixed by the Direction from its effective date (SLOT-16)."""

    def call(self, data):
        return services.jackpot_threshold_set(establishment=self.establishment, actor=self.request.user, **data)


@_described(s.SlotEmptySerializer, s.SlotHopperLidSerializer)
class HopperLidView(ServiceView):
    """MC: the fixed lid of the machine's hopper confirmed, before it goes in service (SLOT-09)."""

    def call(self, data, pk):
        machine = get_object_or_404(Machine, pk=pk, establishment=self.establishment)
        return services.hopper_lid_confirm(machine=machine, actor=self.request.user)


@_described(s.SlotSfmVisitInputSerializer, s.SlotSfmVisitSerializer)
class SfmVisitView(ServiceView):
    """FR: the SFM's revision visit with the limits checked, in modèle 26 and each fiche 34 (SLOT-54)."""

    def call(self, data):
        limits = {number: {k: str(v) for k, v in seen.items()} for number, seen in data.pop("limits").items()}
        return services.sfm_visit_record(
            establishment=self.establishment, actor=self.request.user, limits=limits, **data
        )


@_described(s.SlotFilesCopyInputSerializer, s.SlotFilesCopySerializer)
class FilesCopyView(ServiceView):
    """MC: a copy of the slot files handed to the Secrétariat Général (SLOT-08)."""

    def call(self, data):
        return services.files_copy_deliver(
            establishment=self.establishment,
            actor=self.request.user,
            received_by=_member(self.establishment, data["received_by"]),
        )


@_described(s.SlotApprovalInputSerializer, s.SlotApprovalSerializer)
class ApprovalView(ServiceView):
    """A ministerial approval of slot staff (FR SLOT-50) or of an SFM technician (SLOT-53)."""

    def call(self, data):
        user = _member(self.establishment, data.pop("user"))
        return services.staff_approval_record(
            establishment=self.establishment, actor=self.request.user, user=user, **data
        )
