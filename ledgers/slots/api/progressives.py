"""API of FR progressive jackpots, JPM (modèle 28 S, SCCJ transmissions, bons d'incrémentation),
TITO tickets and the état de rapprochement modèle 31. One endpoint per act; the comité member's
signature is their username and password in the request (``comite_username``, ``comite_password``)."""

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers

from ledgers.core.api import EstablishmentPK
from ledgers.core.countersign import countersignature_serializer
from ledgers.dice.api.views import ESTABLISHMENT
from ledgers.registers.api.serializers import EntrySerializer

from ..forms import MOVE_COUNTERSIGNERS, split_move_countersignatures
from ..models import (
    JpmReading,
    JpmTransmission,
    JpmWin,
    Machine,
    Progressive,
    ProgressiveReading,
    ProgressiveStop,
    Reconciliation,
    Releve,
    Ticket,
)
from ..services import jpm, progressives, unclaimed
from .accounting import AMOUNT, Visa, VisaedView
from .views import ActionView


def meter() -> serializers.IntegerField:
    return serializers.IntegerField(min_value=0, max_value=10**15 - 1)


TEXT = {"max_length": 100}


def _progressive(**filters):
    return EstablishmentPK(queryset=Progressive.objects.filter(**filters))


class SlotProgressiveInputSerializer(serializers.Serializer):
    code = serializers.CharField(max_length=30)
    name = serializers.CharField(**TEXT)
    start_amount = serializers.DecimalField(min_value=0, **AMOUNT)
    machines = EstablishmentPK(queryset=Machine.objects.all(), many=True)
    multisite = serializers.BooleanField(default=False)
    increment_percent = serializers.DecimalField(max_digits=6, decimal_places=3, min_value=0, max_value=100, default=0)
    maker = serializers.CharField(allow_blank=True, default="", **TEXT)
    machine_type = serializers.CharField(allow_blank=True, default="", **TEXT)
    game_name = serializers.CharField(allow_blank=True, default="", **TEXT)
    payment_programme = serializers.CharField(allow_blank=True, default="", **TEXT)
    members = serializers.ListField(child=serializers.CharField(max_length=200), default=list, max_length=50)


class SlotProgressiveSerializer(serializers.ModelSerializer):
    class Meta:
        model = Progressive
        fields = (
            "id",
            "code",
            "name",
            "multisite",
            "machines",
            "start_amount",
            "increment_percent",
            "maker",
            "machine_type",
            "game_name",
            "payment_programme",
            "members",
            "status",
            "created_at",
        )


class Act(ActionView):
    def inputs(self, data: dict) -> dict:
        return {**data, "actor": self.request.user}


@extend_schema(
    parameters=[ESTABLISHMENT], request=SlotProgressiveInputSerializer, responses={201: SlotProgressiveSerializer}
)
class ProgressiveCreateView(Act):
    input_serializer, output_serializer = SlotProgressiveInputSerializer, SlotProgressiveSerializer

    def perform(self, data):
        return progressives.progressive_create(establishment=self.establishment, **self.inputs(data))


class SlotProgressiveReadingInputSerializer(serializers.Serializer):
    progressive = _progressive(multisite=False)
    displayed = serializers.DecimalField(min_value=0, **AMOUNT)
    day = serializers.DateField(required=False)


class SlotProgressiveReadingSerializer(serializers.ModelSerializer):
    class Meta:
        model = ProgressiveReading
        fields = ("id", "progressive", "day", "displayed", "read_at", "recorded_by", "flags")


@extend_schema(
    parameters=[ESTABLISHMENT],
    request=SlotProgressiveReadingInputSerializer,
    responses={201: SlotProgressiveReadingSerializer},
)
class ProgressiveReadingView(Act):
    input_serializer, output_serializer = SlotProgressiveReadingInputSerializer, SlotProgressiveReadingSerializer

    def perform(self, data):
        return progressives.progressive_reading_record(**self.inputs(data))


class SlotProgressiveStopInputSerializer(serializers.Serializer):
    progressive = _progressive()
    kind = serializers.ChoiceField(choices=ProgressiveStop.Kind.choices[:2])
    stop_date = serializers.DateField()
    displayed = serializers.DecimalField(min_value=0, **AMOUNT)
    minister_notified_on = serializers.DateField()
    minister_reference = serializers.CharField(**TEXT)
    target = EstablishmentPK(queryset=Progressive.objects.all(), required=False, allow_null=True)


class SlotProgressiveStopSerializer(serializers.ModelSerializer):
    class Meta:
        model = ProgressiveStop
        fields = (
            "id",
            "progressive",
            "kind",
            "stop_date",
            "increment",
            "target",
            "minister_notified_on",
            "minister_reference",
            "orphan",
            "recovered_to",
            "recovered_on",
            "recorded_by",
            "recorded_at",
        )


@extend_schema(
    parameters=[ESTABLISHMENT],
    request=SlotProgressiveStopInputSerializer,
    responses={201: SlotProgressiveStopSerializer},
)
class ProgressiveStopView(Act):
    input_serializer, output_serializer = SlotProgressiveStopInputSerializer, SlotProgressiveStopSerializer

    def perform(self, data):
        return progressives.progressive_stop(**self.inputs(data))


class SlotRecoverInputSerializer(serializers.Serializer):
    stop = EstablishmentPK(queryset=ProgressiveStop.objects.all(), path="progressive__establishment")
    target = _progressive()


@extend_schema(
    parameters=[ESTABLISHMENT], request=SlotRecoverInputSerializer, responses={201: SlotProgressiveStopSerializer}
)
class RecoverView(Act):
    input_serializer, output_serializer = SlotRecoverInputSerializer, SlotProgressiveStopSerializer

    def perform(self, data):
        return progressives.progressive_increment_recover(**self.inputs(data))


class SlotJpmReadingInputSerializer(serializers.Serializer):
    jackpot = _progressive(multisite=True)
    displayed = serializers.DecimalField(min_value=0, **AMOUNT)
    meters = serializers.DictField(child=meter(), help_text="{casino number: electronic 'entrées' meter}")
    day = serializers.DateField(required=False)


class SlotJpmReadingSerializer(serializers.ModelSerializer):
    class Meta:
        model = JpmReading
        fields = ("id", "jackpot", "day", "displayed", "meters", "read_at", "recorded_by")


@extend_schema(
    parameters=[ESTABLISHMENT], request=SlotJpmReadingInputSerializer, responses={201: SlotJpmReadingSerializer}
)
class JpmReadingView(Act):
    input_serializer, output_serializer = SlotJpmReadingInputSerializer, SlotJpmReadingSerializer

    def perform(self, data):
        return jpm.jpm_reading_record(**self.inputs(data))


class SlotJpmConnectInputSerializer(serializers.Serializer):
    jackpot = _progressive(multisite=True)
    machine = EstablishmentPK(queryset=Machine.objects.all())


@extend_schema(
    parameters=[ESTABLISHMENT], request=SlotJpmConnectInputSerializer, responses={201: SlotProgressiveSerializer}
)
class JpmConnectView(Act):
    input_serializer, output_serializer = SlotJpmConnectInputSerializer, SlotProgressiveSerializer

    def perform(self, data):
        return jpm.jpm_connect(**self.inputs(data))


class SlotJpmTechnicalInputSerializer(
    *(countersignature_serializer(prefix, required=False) for prefix in MOVE_COUNTERSIGNERS)
):
    """A line of the JPM's modèle 26; repairs and SFM interventions take the countersignatures of
    the comité member, the mechanic (or employee) and the SFM technician (SLOT-38, SLOT-34)."""

    jackpot = _progressive(multisite=True)
    nature = serializers.ChoiceField(choices=progressives.TechnicalNature.choices)
    description = serializers.CharField(max_length=2000)
    occurred_at = serializers.DateTimeField(required=False)


@extend_schema(parameters=[ESTABLISHMENT], request=SlotJpmTechnicalInputSerializer, responses={201: EntrySerializer})
class JpmTechnicalView(ActionView):
    input_serializer, output_serializer = SlotJpmTechnicalInputSerializer, EntrySerializer

    def perform(self, data):
        signers, data = split_move_countersignatures(self.request, data)
        return jpm.jpm_technical_record(actor=self.request.user, signers=signers, **data)


class SlotJpmMetersSerializer(serializers.Serializer):
    electronic = meter()
    electromechanical = meter()


class SlotJpmWinInputSerializer(Visa):
    jackpot = _progressive(multisite=True)
    amount = serializers.DecimalField(**AMOUNT)
    meters = serializers.DictField(child=SlotJpmMetersSerializer())
    winning_machine = EstablishmentPK(queryset=Machine.objects.all(), required=False, allow_null=True)
    winning_casino = serializers.CharField(max_length=200, allow_blank=True, default="")
    combination = serializers.CharField(max_length=200, allow_blank=True, default="")


class SlotJpmWinSerializer(serializers.ModelSerializer):
    bons = serializers.SerializerMethodField()

    class Meta:
        model = JpmWin
        fields = (
            "id",
            "jackpot",
            "won_at",
            "amount",
            "winning_machine",
            "winning_casino",
            "meters",
            "payment",
            "cashier",
            "comite",
            "bons",
        )

    def get_bons(self, win) -> list[dict]:
        return [
            {
                "bon_number": b.bon_number,
                "machine": b.machine_id,
                "share": str(b.share),
                "start_amount": None if b.start_amount is None else str(b.start_amount),
            }
            for b in win.bons.all()
        ]


@extend_schema(parameters=[ESTABLISHMENT], request=SlotJpmWinInputSerializer, responses={201: SlotJpmWinSerializer})
class JpmWinView(VisaedView):
    input_serializer, output_serializer = SlotJpmWinInputSerializer, SlotJpmWinSerializer

    def perform(self, data):
        return jpm.jpm_win_record(**self.visa(data))


class SlotJpmInputSerializer(serializers.Serializer):
    jackpot = _progressive(multisite=True)


@extend_schema(parameters=[ESTABLISHMENT], request=SlotJpmInputSerializer, responses={201: SlotProgressiveSerializer})
class JpmRestartView(Act):
    input_serializer, output_serializer = SlotJpmInputSerializer, SlotProgressiveSerializer

    def perform(self, data):
        return jpm.jpm_restart(**self.inputs(data))


class SlotTransmissionInputSerializer(serializers.Serializer):
    jackpot = _progressive(multisite=True)
    reason = serializers.ChoiceField(choices=JpmTransmission.Reason.choices)
    period_start = serializers.DateField()
    period_end = serializers.DateField()
    recipient = serializers.CharField(max_length=200)


class SlotTransmissionSerializer(serializers.ModelSerializer):
    class Meta:
        model = JpmTransmission
        fields = (
            "id",
            "jackpot",
            "reason",
            "period_start",
            "period_end",
            "displayed",
            "csv",
            "digest",
            "recipient",
            "sent_at",
            "sender",
        )


@extend_schema(
    parameters=[ESTABLISHMENT], request=SlotTransmissionInputSerializer, responses={201: SlotTransmissionSerializer}
)
class TransmissionView(Act):
    input_serializer, output_serializer = SlotTransmissionInputSerializer, SlotTransmissionSerializer

    def perform(self, data):
        return jpm.jpm_transmission_record(**self.inputs(data))


class SlotWithdrawInputSerializer(Visa):
    jackpot = _progressive(multisite=True)
    leave_date = serializers.DateField()
    minister_notified_on = serializers.DateField()
    minister_reference = serializers.CharField(**TEXT)
    meters = serializers.DictField(child=meter())


@extend_schema(
    parameters=[ESTABLISHMENT], request=SlotWithdrawInputSerializer, responses={201: SlotProgressiveStopSerializer}
)
class WithdrawView(VisaedView):
    input_serializer, output_serializer = SlotWithdrawInputSerializer, SlotProgressiveStopSerializer

    def perform(self, data):
        return jpm.jpm_withdraw(**self.visa(data))


class SlotTicketRowSerializer(serializers.Serializer):
    number = serializers.CharField(max_length=40)
    issued_at = serializers.DateTimeField()
    amount = serializers.DecimalField(min_value=0, **AMOUNT)
    machine = serializers.CharField(max_length=30, allow_blank=True, default="")


class SlotTicketsImportSerializer(serializers.Serializer):
    rows = serializers.ListField(child=SlotTicketRowSerializer(), min_length=1, max_length=5000)


class SlotTicketSerializer(serializers.ModelSerializer):
    class Meta:
        model = Ticket
        fields = ("id", "number", "issued_at", "amount", "machine", "status", "redeemed_at", "orphan")


class SlotTicketsSerializer(serializers.Serializer):
    tickets = SlotTicketSerializer(many=True)


@extend_schema(parameters=[ESTABLISHMENT], request=SlotTicketsImportSerializer, responses={201: SlotTicketsSerializer})
class TicketsImportView(Act):
    input_serializer, output_serializer = SlotTicketsImportSerializer, SlotTicketsSerializer

    def perform(self, data):
        rows = [unclaimed.TicketRow(**row) for row in data["rows"]]
        return {
            "tickets": unclaimed.tickets_import(establishment=self.establishment, rows=rows, actor=self.request.user)
        }


class SlotTicketRedeemInputSerializer(serializers.Serializer):
    number = serializers.CharField(max_length=40)


@extend_schema(
    parameters=[ESTABLISHMENT], request=SlotTicketRedeemInputSerializer, responses={201: SlotTicketSerializer}
)
class TicketRedeemView(Act):
    input_serializer, output_serializer = SlotTicketRedeemInputSerializer, SlotTicketSerializer

    def perform(self, data):
        return unclaimed.ticket_redeem(establishment=self.establishment, **self.inputs(data))


@extend_schema(parameters=[ESTABLISHMENT], request=Visa, responses={201: SlotTicketsSerializer})
class TicketsExpireView(VisaedView):
    input_serializer, output_serializer = Visa, SlotTicketsSerializer

    def perform(self, data):
        return {"tickets": unclaimed.tickets_expire(establishment=self.establishment, **self.visa(data))}


class SlotReconciliationSerializer(serializers.ModelSerializer):
    lines = serializers.SerializerMethodField()

    class Meta:
        model = Reconciliation
        fields = ("id", "releve", "drawn_up_at", "cashier", "comite", "lines")

    def get_lines(self, reconciliation) -> list[dict]:
        return [
            {
                "machine": line.machine_id,
                "meter_units": line.meter_units,
                "meter_amount": str(line.meter_amount),
                "payments": str(line.payments),
                "difference": str(line.difference),
                "flagged": line.flagged,
                "orphan": line.orphan_id,
            }
            for line in reconciliation.lines.all()
        ]


@extend_schema(parameters=[ESTABLISHMENT], request=Visa, responses={201: SlotReconciliationSerializer})
class ReconciliationView(VisaedView):
    input_serializer, output_serializer = Visa, SlotReconciliationSerializer

    def perform(self, data, pk):
        releve = get_object_or_404(Releve, pk=pk, establishment=self.establishment)
        return unclaimed.reconciliation_draw_up(releve=releve, **self.visa(data))
