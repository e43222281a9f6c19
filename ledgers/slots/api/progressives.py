"""API of FR progressive jackpots, JPM (modèle 28 S, SCCJ transmissions, bons d'incrémentation),
TITO tickets and the état de rapprochement modèle 31. One endpoint per act; the comité member's
signature is their username and password in the request (``comite_username``, ``comite_password``)."""

from rest_framework import serializers

from ledgers.core.api.actions import ServiceAction, passkey_input
from ledgers.core.api.fields import DateField, DateTimeField
from ledgers.core.api.scoping import EstablishmentPK
from ledgers.core.countersign import countersignature_serializer
from ledgers.incidents.models import IncidentNotice
from ledgers.registers.api.serializers import EntrySerializer
from ledgers.signatures.passkeys import Signer, signing

from ..forms import MOVE_COUNTERSIGNERS, split_move_countersignatures
from ..models import (
    JpmReading,
    JpmTransmission,
    JpmWin,
    Machine,
    Progressive,
    ProgressiveReading,
    ProgressiveStop,
    ProgressiveStopNotice,
    Reconciliation,
    Releve,
    Ticket,
)
from ..services import jpm, progressives, unclaimed
from .accounting import AMOUNT, Visa, VisaedView


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
    passkey = passkey_input()  # a JPM: its keeper's, over its modèle 26's opening (SLOT-38)


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


class Act(ServiceAction):
    def inputs(self, data: dict) -> dict:
        return {**data, "actor": self.request.user}


class ProgressiveCreateView(Act):
    input_serializer, output_serializer = SlotProgressiveInputSerializer, SlotProgressiveSerializer

    def perform(self, data):
        with signing([Signer(self.request.user, self.passkey)] if data["multisite"] else []):
            return progressives.progressive_create(establishment=self.establishment, **self.inputs(data))


class SlotProgressiveReadingInputSerializer(serializers.Serializer):
    progressive = _progressive(multisite=False)
    displayed = serializers.DecimalField(min_value=0, **AMOUNT)
    day = DateField(required=False)


class SlotProgressiveReadingSerializer(serializers.ModelSerializer):
    class Meta:
        model = ProgressiveReading
        fields = ("id", "progressive", "day", "displayed", "read_at", "recorded_by", "flags")


class ProgressiveReadingView(Act):
    input_serializer, output_serializer = SlotProgressiveReadingInputSerializer, SlotProgressiveReadingSerializer

    def perform(self, data):
        return progressives.progressive_reading_record(**self.inputs(data))


class SlotStopNoticeInputSerializer(serializers.Serializer):
    """The Minister's notice is recorded at the time it is given (the request's)."""

    progressive = _progressive()
    kind = serializers.ChoiceField(choices=ProgressiveStop.Kind.choices)
    channel = serializers.ChoiceField(choices=IncidentNotice.Channel.choices)
    reference = serializers.CharField(**TEXT)


class SlotStopNoticeSerializer(serializers.ModelSerializer):
    class Meta:
        model = ProgressiveStopNotice
        fields = ("id", "progressive", "kind", "notified_at", "channel", "reference", "recorded_by")


class StopNoticeView(Act):
    input_serializer, output_serializer = SlotStopNoticeInputSerializer, SlotStopNoticeSerializer

    def perform(self, data):
        return progressives.progressive_stop_notify(**self.inputs(data))


class SlotProgressiveStopInputSerializer(serializers.Serializer):
    """The SET-42 lead is counted from the Minister's notice the system recorded."""

    progressive = _progressive()
    kind = serializers.ChoiceField(choices=ProgressiveStop.Kind.choices[:2])
    stop_date = DateField()
    displayed = serializers.DecimalField(min_value=0, **AMOUNT)
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


class ProgressiveStopView(Act):
    input_serializer, output_serializer = SlotProgressiveStopInputSerializer, SlotProgressiveStopSerializer

    def perform(self, data):
        return progressives.progressive_stop(**self.inputs(data))


class SlotRecoverInputSerializer(serializers.Serializer):
    stop = EstablishmentPK(queryset=ProgressiveStop.objects.all(), path="progressive__establishment")
    target = _progressive()


class RecoverView(Act):
    input_serializer, output_serializer = SlotRecoverInputSerializer, SlotProgressiveStopSerializer

    def perform(self, data):
        return progressives.progressive_increment_recover(**self.inputs(data))


class SlotJpmReadingInputSerializer(serializers.Serializer):
    jackpot = _progressive(multisite=True)
    displayed = serializers.DecimalField(min_value=0, **AMOUNT)
    meters = serializers.DictField(child=meter(), help_text="{casino number: electronic 'entrées' meter}")
    day = DateField(required=False)


class SlotJpmReadingSerializer(serializers.ModelSerializer):
    class Meta:
        model = JpmReading
        fields = ("id", "jackpot", "day", "displayed", "meters", "read_at", "recorded_by")


class JpmReadingView(Act):
    input_serializer, output_serializer = SlotJpmReadingInputSerializer, SlotJpmReadingSerializer

    def perform(self, data):
        return jpm.jpm_reading_record(**self.inputs(data))


class SlotJpmConnectInputSerializer(serializers.Serializer):
    jackpot = _progressive(multisite=True)
    machine = EstablishmentPK(queryset=Machine.objects.all())


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
    occurred_at = DateTimeField(required=False)


class JpmTechnicalView(ServiceAction):
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


class JpmWinView(VisaedView):
    input_serializer, output_serializer = SlotJpmWinInputSerializer, SlotJpmWinSerializer

    def perform(self, data):
        return jpm.jpm_win_record(**self.visa(data))


class SlotJpmInputSerializer(serializers.Serializer):
    jackpot = _progressive(multisite=True)


class JpmRestartView(Act):
    input_serializer, output_serializer = SlotJpmInputSerializer, SlotProgressiveSerializer

    def perform(self, data):
        return jpm.jpm_restart(**self.inputs(data))


class SlotTransmissionInputSerializer(serializers.Serializer):
    jackpot = _progressive(multisite=True)
    reason = serializers.ChoiceField(choices=JpmTransmission.Reason.choices)
    period_start = DateField()
    period_end = DateField()
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


class TransmissionView(Act):
    input_serializer, output_serializer = SlotTransmissionInputSerializer, SlotTransmissionSerializer

    def perform(self, data):
        return jpm.jpm_transmission_record(**self.inputs(data))


class SlotWithdrawInputSerializer(Visa):
    jackpot = _progressive(multisite=True)
    leave_date = DateField()
    meters = serializers.DictField(child=meter())


class WithdrawView(VisaedView):
    input_serializer, output_serializer = SlotWithdrawInputSerializer, SlotProgressiveStopSerializer

    def perform(self, data):
        return jpm.jpm_withdraw(**self.visa(data))


class SlotTicketRowSerializer(serializers.Serializer):
    number = serializers.CharField(max_length=40)
    issued_at = DateTimeField()
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


class TicketsImportView(Act):
    input_serializer, output_serializer = SlotTicketsImportSerializer, SlotTicketsSerializer

    def perform(self, data):
        rows = [unclaimed.TicketRow(**row) for row in data["rows"]]
        return {
            "tickets": unclaimed.tickets_import(establishment=self.establishment, rows=rows, actor=self.request.user)
        }


class SlotTicketRedeemInputSerializer(serializers.Serializer):
    number = serializers.CharField(max_length=40)


class TicketRedeemView(Act):
    input_serializer, output_serializer = SlotTicketRedeemInputSerializer, SlotTicketSerializer

    def perform(self, data):
        return unclaimed.ticket_redeem(establishment=self.establishment, **self.inputs(data))


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


class ReconciliationView(VisaedView):
    queryset = Releve.objects.all()
    input_serializer, output_serializer = Visa, SlotReconciliationSerializer

    def perform(self, data, pk):
        releve = self.get_object()
        return unclaimed.reconciliation_draw_up(releve=releve, **self.visa(data))
