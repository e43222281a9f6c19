"""Slot API: the inventory (read), and one endpoint per flow: relève opening and closing, the bulk
meter import, counts, moves, interventions. Rule violations answer 409 {"code", "article",
"detail"} (ledgers.core.api); an import with bad rows answers 400 with every bad row."""

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import APIView

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
        return services.releve_open(establishment=est, room=get_object_or_404(Room, pk=data["room"], establishment=est),
                                    actor=self.request.user, during_operation=data["during_operation"],
                                    sworn_agent=_member(est, data.get("sworn_agent")), staff=data["staff"])


@extend_schema(parameters=[ESTABLISHMENT], request=None, responses={201: s.SlotReleveSerializer})
class ReleveCloseView(ActionView):
    input_serializer, output_serializer = s.SlotEmptySerializer, s.SlotReleveSerializer

    def perform(self, data, pk):
        releve = get_object_or_404(Releve, pk=pk, establishment=self.establishment)
        return services.releve_close(releve=releve, actor=self.request.user)


@extend_schema(parameters=[ESTABLISHMENT], request=s.SlotReadingsImportSerializer,
               responses={201: s.SlotImportResultSerializer})
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


@extend_schema(parameters=[ESTABLISHMENT], request=s.SlotInterventionOpenSerializer,
               responses={201: s.SlotInterventionSerializer})
class InterventionOpenView(ActionView):
    input_serializer, output_serializer = s.SlotInterventionOpenSerializer, s.SlotInterventionSerializer

    def perform(self, data):
        return services.intervention_open(actor=self.request.user, **data)


@extend_schema(parameters=[ESTABLISHMENT], request=s.SlotInterventionCloseSerializer,
               responses={201: s.SlotInterventionSerializer})
class InterventionCloseView(ActionView):
    input_serializer, output_serializer = s.SlotInterventionCloseSerializer, s.SlotInterventionSerializer

    def perform(self, data, pk):
        intervention = get_object_or_404(Intervention, pk=pk, machine__establishment=self.establishment)
        return services.intervention_close(intervention=intervention, actor=self.request.user, **data)


@extend_schema(parameters=[ESTABLISHMENT], request=s.SlotJackpotInputSerializer,
               responses={201: s.SlotJackpotSerializer})
class JackpotView(ActionView):
    input_serializer, output_serializer = s.SlotJackpotInputSerializer, s.SlotJackpotSerializer

    def perform(self, data):
        controller = _member(self.establishment, data.pop("controller", None))
        return services.jackpot_pay(actor=self.request.user, controller=controller, **data)


class SocleWithdrawView(Write):
    """A socle out of operation: its lock and key to the caissier principal, who signs (KEY-07)."""

    input_class, output_class, signers = s.SlotSocleWithdrawInputSerializer, s.SlotSocleSerializer, ("receiver",)

    def perform(self, est, values, signed):
        return locks.socle_withdraw_handing_over(actor=self.request.user, receiver=signed["receiver"], **values)
