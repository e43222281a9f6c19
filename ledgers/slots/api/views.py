"""Slot API: the inventory (read), and one endpoint per flow: relève opening and closing, the bulk
meter import, counts, moves, interventions. Rule violations answer 409 {"code", "article",
"detail"}; an import with bad rows answers 400 with every bad row."""

from django.contrib.auth import get_user_model
from django.http import Http404
from django.shortcuts import get_object_or_404
from rest_framework import status
from rest_framework.response import Response

from ledgers.core.api.actions import ServiceAction
from ledgers.core.api.scoping import EstablishmentList, EstablishmentReadOnlyViewSet
from ledgers.core.models import Membership, Room
from ledgers.signatures.passkeys import Signer, signing

from .. import locks, selectors, services
from ..forms import split_move_countersignatures
from ..models import Intervention, Machine, MeterReading, Releve
from . import serializers as s


class MachineViewSet(EstablishmentReadOnlyViewSet):
    """The inventory file: machines with their meters (filter by status, place)."""

    queryset = Machine.objects.all()
    serializer_class = s.SlotMachineSerializer
    filterset_fields = ("status", "place", "sbm_number", "casino_number")

    def scoped_queryset(self):
        return selectors.machines_of(self.establishment).prefetch_related("meters")


class MeterReadingViewSet(EstablishmentReadOnlyViewSet):
    """The meter readings of the establishment's machines (filter by relève, machine, source, date)."""

    queryset = MeterReading.objects.select_related("meter")
    serializer_class = s.SlotMeterReadingSerializer
    scope = "meter__machine__establishment"
    filterset_fields = {
        "releve": ["exact"],
        "meter__machine": ["exact"],
        "source": ["exact"],
        "read_at": ["gte", "lte"],
    }


def _member(est, pk):
    """The person ``pk`` if they hold a role in ``est`` (one membership or several), else 404."""
    if pk is None:
        return None
    membership = Membership.objects.select_related("user").filter(establishment=est, user_id=pk).first()
    if membership is None:
        raise Http404
    return membership.user


class ReleveOpenView(EstablishmentList, ServiceAction):
    """GET: the relèves of the establishment (filter by status, room); POST: open one."""

    input_serializer, output_serializer = s.SlotReleveOpenSerializer, s.SlotReleveSerializer
    queryset, serializer_class = Releve.objects.all(), s.SlotReleveSerializer
    filterset_fields = ("status", "room")
    countersigners = ("sworn_agent",)

    def perform(self, data):
        est = self.establishment
        return services.releve_open(
            establishment=est,
            room=get_object_or_404(Room, pk=data["room"], establishment=est),
            actor=self.request.user,
            during_operation=data["during_operation"],
            sworn_agent=self.signed["sworn_agent"],
            staff=data["staff"],
        )


class ReleveCloseView(ServiceAction):
    queryset = Releve.objects.all()
    input_serializer, output_serializer = s.SlotReleveCloseSerializer, s.SlotReleveSerializer
    countersigners = ("sworn_agent",)

    def perform(self, data, pk):
        return services.releve_close(
            releve=self.get_object(), actor=self.request.user, sworn_agent=self.signed["sworn_agent"]
        )


class ReadingsImportView(ServiceAction):
    """A relève's meters, a machine or a whole room, in one call: all rows or none."""

    queryset = Releve.objects.all()
    input_serializer, output_serializer = s.SlotReadingsImportSerializer, s.SlotImportResultSerializer

    def perform(self, data, pk):
        releve = self.get_object()
        rows = [services.ReadingRow(line=n, **row) for n, row in enumerate(data["rows"], start=1)]
        return services.releve_readings_import(releve=releve, rows=rows, actor=self.request.user)

    def output(self, result):
        return {"count": result.readings, "lines": result.lines, "incidents": [i.pk for i in result.incidents]}


class CountView(ServiceAction):
    queryset = Releve.objects.all()
    input_serializer, output_serializer = s.SlotCountInputSerializer, s.SlotCountSerializer

    def perform(self, data, pk):
        releve = self.get_object()
        return services.drop_count_record(releve=releve, actor=self.request.user, **data)


class MoveView(ServiceAction):
    queryset = Machine.objects.all()
    input_serializer, output_serializer = s.SlotMoveInputSerializer, s.SlotMoveSerializer

    def perform(self, data, pk):
        machine = self.get_object()
        signers, data = split_move_countersignatures(self.request, data)
        return services.machine_move(machine=machine, actor=self.request.user, signers=signers, **data)


class MoveNoticeView(ServiceAction):
    queryset = Machine.objects.all()
    input_serializer, output_serializer = s.SlotMoveNoticeInputSerializer, s.SlotMoveNoticeSerializer

    def perform(self, data, pk):
        return services.machine_move_notify(machine=self.get_object(), actor=self.request.user, **data)


class InterventionOpenView(EstablishmentList, ServiceAction):
    """GET: the intervention sheets of the establishment (filter by status, machine); POST: open one."""

    input_serializer, output_serializer = s.SlotInterventionOpenSerializer, s.SlotInterventionSerializer
    queryset, scope = Intervention.objects.all(), "machine__establishment"
    serializer_class = s.SlotInterventionSerializer
    filterset_fields = ("status", "machine")

    def perform(self, data):
        return services.intervention_open(actor=self.request.user, **data)


class InterventionCloseView(ServiceAction):
    queryset, scope = Intervention.objects.all(), "machine__establishment"
    input_serializer, output_serializer = s.SlotInterventionCloseSerializer, s.SlotInterventionSerializer

    def perform(self, data, pk):
        intervention = self.get_object()
        return services.intervention_close(intervention=intervention, actor=self.request.user, **data)


class JackpotView(ServiceAction):
    input_serializer, output_serializer = s.SlotJackpotInputSerializer, s.SlotJackpotSerializer
    # FR SLOT-35: the comité member controlling the payment signs with his password.
    countersigners = ("controller",)

    def perform(self, data):
        return services.jackpot_pay(actor=self.request.user, controller=self.signed["controller"], **data)


class SocleWithdrawView(ServiceAction):
    """A socle out of operation: its lock and key to the caissier principal, who signs (KEY-07)."""

    input_serializer, output_serializer = s.SlotSocleWithdrawInputSerializer, s.SlotSocleSerializer
    countersigners = ("receiver",)

    def perform(self, data):
        return locks.socle_withdraw_handing_over(actor=self.request.user, receiver=self.signed["receiver"], **data)


# --- the flows that had only a page ------------------------------------------------------------


class SocleCreateView(ServiceAction):
    """A socle numbered once and for all (SLOT-03)."""

    input_serializer, output_serializer = s.SlotSocleInputSerializer, s.SlotSocleSerializer

    def perform(self, data):
        return services.socle_create(establishment=self.establishment, actor=self.request.user, **data)


class MachineRegisterView(ServiceAction):
    """Enter a machine in the inventory file, in the store (SLOT-01, 02, 04, 07, 52)."""

    input_serializer, output_serializer = s.SlotMachineInputSerializer, s.SlotMachineSerializer

    def post(self, request, *args, **kwargs):
        data = self.input_serializer(data=request.data, context=self.get_serializer_context())
        data.is_valid(raise_exception=True)
        # FR: the fiche modèle 34 opened with the machine is the registrant's signature (SLOT-52).
        signers = (
            [Signer(request.user, data.validated_data["passkey"])] if self.establishment.jurisdiction == "FR" else []
        )
        with signing(signers):
            machine = services.machine_register(
                establishment=self.establishment,
                data=data.machine_input(),
                actor=request.user,
                photo=data.validated_data["photo"],
            )
        return Response(self.output(machine), status=status.HTTP_201_CREATED)


class SheetView(ServiceAction):
    """A new version of the machine's technical sheet, its rate the machine's (SLOT-04, SLOT-07)."""

    input_serializer, output_serializer = s.SlotSheetInputSerializer, s.SlotSheetSerializer

    queryset = Machine.objects.all()

    def perform(self, data, pk):
        machine = self.get_object()
        return services.technical_sheet_record(machine=machine, actor=self.request.user, **data)


class RamClearView(ServiceAction):
    """A RAM clear with every meter before and after (SLOT-16; FR: KEY-15)."""

    input_serializer, output_serializer = s.SlotRamClearInputSerializer, s.SlotRamClearSerializer

    queryset = Machine.objects.all()

    def perform(self, data, pk):
        machine = self.get_object()
        return services.ram_clear_record(machine=machine, actor=self.request.user, **data)


class BoxView(ServiceAction):
    """A box taken out and replaced, during an open relève only (SLOT-24)."""

    input_serializer, output_serializer = s.SlotBoxInputSerializer, s.SlotBoxSerializer

    queryset = Releve.objects.all()

    def perform(self, data, pk):
        releve = self.get_object()
        return services.box_exchange(releve=releve, actor=self.request.user, **data)


class TransmittalView(ServiceAction):
    """MC: the superviseur's envelope of the day's intervention sheets to the Direction (SLOT-15)."""

    input_serializer, output_serializer = s.SlotTransmittalInputSerializer, s.SlotTransmittalSerializer
    countersigners = ("received_by",)

    def perform(self, data):
        return services.transmittal_hand_over(
            establishment=self.establishment,
            actor=self.request.user,
            date=data["date"],
            received_by=self.signed["received_by"],
        )


class DisputeView(ServiceAction):
    """A contested payment, decided by the superviseur after hearing a mechanic (SLOT-18, INC-04)."""

    input_serializer, output_serializer = s.SlotDisputeInputSerializer, s.SlotDisputeSerializer

    def perform(self, data):
        mechanic = _member(self.establishment, data.pop("mechanic"))
        return services.dispute_decide(actor=self.request.user, mechanic=mechanic, **data)


class TopUpView(ServiceAction):
    """A payment top-up in the cahier des compléments (SLOT-20)."""

    input_serializer, output_serializer = s.SlotTopUpInputSerializer, s.SlotTopUpSerializer

    def perform(self, data):
        return services.top_up_pay(actor=self.request.user, **data)


class OrphanView(ServiceAction):
    """An orphan found, never paid to a member of staff (SLOT-19, INC-05)."""

    input_serializer, output_serializer = s.SlotOrphanInputSerializer, s.SlotOrphanSerializer

    def perform(self, data):
        payee = data.pop("payee")
        if payee is not None:
            payee = get_object_or_404(get_user_model(), pk=payee)
        return services.orphan_record(establishment=self.establishment, actor=self.request.user, payee=payee, **data)


class EventsImportView(ServiceAction):
    """The monitoring system's door, bill-box, socle and reset events, matched against the
    interventions, relèves, RAM clears and key hand-overs; the unexplained ones flagged (SLOT-14,
    SLOT-24, SLOT-53, INC-12). All rows or none; an event already imported is skipped."""

    input_serializer, output_serializer, many = s.SlotEventsImportSerializer, s.SlotEventSerializer, True

    def perform(self, data):
        rows = [services.EventRow(row["machine"], row["event"], row["at"], n) for n, row in enumerate(data["rows"], 1)]
        return services.monitoring_events_import(establishment=self.establishment, rows=rows, actor=self.request.user)


class VarianceThresholdView(ServiceAction):
    """The reconciliation threshold the establishment chooses: a preset or its own figures (SLOT-11)."""

    input_serializer, output_serializer = s.SlotVarianceThresholdInputSerializer, s.SlotVarianceThresholdSerializer

    def perform(self, data):
        return services.variance_threshold_choose(establishment=self.establishment, actor=self.request.user, **data)


class JackpotThresholdView(ServiceAction):
    """MC: the identity threshold fixed by the Direction from its effective date (SLOT-16)."""

    input_serializer, output_serializer = s.SlotJackpotThresholdInputSerializer, s.SlotJackpotThresholdSerializer

    def perform(self, data):
        return services.jackpot_threshold_set(establishment=self.establishment, actor=self.request.user, **data)


class HopperLidView(ServiceAction):
    """MC: the fixed lid of the machine's hopper confirmed, before it goes in service (SLOT-09)."""

    output_serializer = s.SlotHopperLidSerializer

    queryset = Machine.objects.all()

    def perform(self, data, pk):
        machine = self.get_object()
        return services.hopper_lid_confirm(machine=machine, actor=self.request.user)


class SfmVisitView(ServiceAction):
    """FR: the SFM's revision visit with the limits checked, in modèle 26 and each fiche 34 (SLOT-54)."""

    input_serializer, output_serializer = s.SlotSfmVisitInputSerializer, s.SlotSfmVisitSerializer

    def perform(self, data):
        limits = {number: {k: str(v) for k, v in seen.items()} for number, seen in data.pop("limits").items()}
        return services.sfm_visit_record(
            establishment=self.establishment, actor=self.request.user, limits=limits, **data
        )


class FilesCopyView(ServiceAction):
    """MC: a copy of the slot files handed to the Secrétariat Général (SLOT-08)."""

    input_serializer, output_serializer = s.SlotFilesCopyInputSerializer, s.SlotFilesCopySerializer
    countersigners = ("received_by",)

    def perform(self, data):
        return services.files_copy_deliver(
            establishment=self.establishment, actor=self.request.user, received_by=self.signed["received_by"]
        )


class ApprovalView(ServiceAction):
    """A ministerial approval of slot staff (FR SLOT-50) or of an SFM technician (SLOT-53)."""

    input_serializer, output_serializer = s.SlotApprovalInputSerializer, s.SlotApprovalSerializer

    def perform(self, data):
        user = _member(self.establishment, data.pop("user"))
        return services.staff_approval_record(
            establishment=self.establishment, actor=self.request.user, user=user, **data
        )
