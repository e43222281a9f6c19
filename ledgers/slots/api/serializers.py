"""Slot API serializers. Choice fields go out as plain strings (their codes), named Slot* so that
no schema component collides with another app's."""

from decimal import Decimal

from rest_framework import serializers

from ledgers.core.api.actions import Signature, passkey_input
from ledgers.core.api.fields import DateField, DateTimeField
from ledgers.core.api.scoping import EstablishmentPK
from ledgers.core.countersign import countersignature_serializer
from ledgers.core.models import Room
from ledgers.incidents.models import IncidentNotice
from ledgers.keys.models import Key

from .. import models as m
from ..forms import MOVE_COUNTERSIGNERS
from ..models import (
    DropCount,
    Intervention,
    JackpotPayment,
    Machine,
    MachineMove,
    MachineMoveNotice,
    Meter,
    MeterReading,
    Releve,
    Socle,
)
from ..rules import VARIANCE_PRESETS, required_meters
from ..services import MachineInput, MeterSpec


class SlotMeterSerializer(serializers.ModelSerializer):
    code = serializers.CharField(read_only=True)
    nature = serializers.CharField(read_only=True)

    class Meta:
        model = Meter
        fields = ("id", "station", "code", "nature", "label", "digits", "key", "active")


class SlotMachineSerializer(serializers.ModelSerializer):
    meters = SlotMeterSerializer(many=True, read_only=True)
    socle = serializers.CharField(source="socle.number", default=None, read_only=True)
    technology = serializers.CharField(read_only=True)
    place = serializers.CharField(read_only=True)
    status = serializers.CharField(read_only=True)

    class Meta:
        model = Machine
        fields = (
            "id",
            "number",
            "machine_type",
            "technology",
            "maker",
            "maker_serial",
            "sbm_number",
            "casino_number",
            "maker_number",
            "location_number",
            "media",
            "stations",
            "rtp_percent",
            "levy_percent",
            "rate_date",
            "credit_value",
            "hopper",
            "bill_box",
            "place",
            "socle",
            "status",
            "meters",
            "drop_type",
        )


class SlotReadingRowSerializer(serializers.Serializer):
    machine = serializers.CharField(help_text="SBM number (MC) or casino number (FR)")
    station = serializers.IntegerField(min_value=1)
    meter = serializers.CharField(help_text="code[:em][:label], e.g. in, in:em, other:games")
    value = serializers.IntegerField(min_value=0)


class SlotReadingsImportSerializer(serializers.Serializer):
    rows = SlotReadingRowSerializer(many=True, allow_empty=False)


class SlotImportResultSerializer(serializers.Serializer):
    count = serializers.IntegerField(help_text="readings written")
    lines = serializers.IntegerField(help_text="register lines: one per machine and station")
    incidents = serializers.ListField(child=serializers.IntegerField(), help_text="INC-12 incidents opened")


class SlotMeterReadingSerializer(serializers.ModelSerializer):
    machine = serializers.IntegerField(source="meter.machine_id", read_only=True)
    station = serializers.IntegerField(source="meter.station", read_only=True)
    code = serializers.CharField(source="meter.code", read_only=True)
    nature = serializers.CharField(source="meter.nature", read_only=True)

    class Meta:
        model = MeterReading
        fields = (
            "id",
            "machine",
            "station",
            "code",
            "nature",
            "source",
            "read_at",
            "value",
            "delta",
            "rollover",
            "releve",
            "incident",
        )


class SlotReleveOpenSerializer(countersignature_serializer("sworn_agent", required=False)):
    """The sworn agent who secures a relève run while the room operates signs with his own
    credentials (SLOT-23)."""

    room = serializers.IntegerField()
    during_operation = serializers.BooleanField(default=False)
    staff = serializers.CharField(required=False, allow_blank=True, default="")


class SlotReleveCloseSerializer(countersignature_serializer("sworn_agent", required=False)):
    """The sworn agent who secured a relève run while the room operates, if he did not sign at its
    opening (SLOT-23)."""


class SlotReleveSerializer(serializers.ModelSerializer):
    status = serializers.CharField(read_only=True)

    class Meta:
        model = Releve
        fields = ("id", "room", "status", "started_at", "closed_at", "directed_by", "during_operation", "sworn_agent")


class SlotCountInputSerializer(serializers.Serializer):
    machine = EstablishmentPK(queryset=Machine.objects.all())
    counted = serializers.DecimalField(max_digits=14, decimal_places=2)


class SlotCountSerializer(serializers.ModelSerializer):
    class Meta:
        model = DropCount
        fields = (
            "id",
            "releve",
            "machine",
            "counted",
            "expected",
            "variance",
            "variance_percent",
            "flagged",
            "threshold",
        )


class SlotMoveInputSerializer(*(countersignature_serializer(prefix, required=False) for prefix in MOVE_COUNTERSIGNERS)):
    """FR repair moves take the countersignatures of the comité member, the mechanic (or employee)
    and the SFM technician (SLOT-34)."""

    to_place = serializers.CharField()
    to_socle = EstablishmentPK(queryset=Socle.objects.all(), required=False, allow_null=True)
    reason = serializers.CharField()
    moved_at = DateTimeField(required=False)
    observations = serializers.CharField(required=False, allow_blank=True, default="")
    replaced_by = EstablishmentPK(
        queryset=Machine.objects.all(),
        required=False,
        allow_null=True,
        help_text="the reserve machine put on the socle of the machine taken off the floor",
    )


class SlotMoveNoticeInputSerializer(serializers.Serializer):
    """The police notice is recorded at the time it is given (the request's), for the machine's next move."""

    service = serializers.CharField(max_length=100)
    channel = serializers.ChoiceField(choices=IncidentNotice.Channel.choices)
    reference = serializers.CharField(max_length=100)


class SlotMoveNoticeSerializer(serializers.ModelSerializer):
    class Meta:
        model = MachineMoveNotice
        fields = ("id", "machine", "notified_at", "service", "channel", "reference", "recorded_by")


class SlotMoveSerializer(serializers.ModelSerializer):
    from_place = serializers.CharField(read_only=True)
    to_place = serializers.CharField(read_only=True)
    reason = serializers.CharField(read_only=True)

    class Meta:
        model = MachineMove
        fields = (
            "id",
            "machine",
            "moved_at",
            "from_place",
            "to_place",
            "to_socle",
            "reason",
            "police_notice",
            "police_informed_at",
            "meters",
        )


class SlotInterventionOpenSerializer(serializers.Serializer):
    machine = EstablishmentPK(queryset=Machine.objects.all())
    reason = serializers.CharField()
    stopped_at = DateTimeField(required=False)


class SlotInterventionCloseSerializer(serializers.Serializer):
    work_done = serializers.CharField()


class SlotInterventionSerializer(serializers.ModelSerializer):
    status = serializers.CharField(read_only=True)

    class Meta:
        model = Intervention
        fields = (
            "id",
            "machine",
            "status",
            "technician",
            "technician_role",
            "stopped_at",
            "reason",
            "ended_at",
            "work_done",
            "transmittal",
        )


class SlotJackpotInputSerializer(countersignature_serializer("controller", required=False)):
    """FR: ``controller_username`` / ``_password`` (/ ``_otp``): the comité member who controls the
    payment signs it (SLOT-35)."""

    machine = EstablishmentPK(queryset=Machine.objects.all())
    station = serializers.IntegerField(min_value=1, default=1)
    amount = serializers.DecimalField(max_digits=14, decimal_places=2)
    method = serializers.CharField()
    combination = serializers.CharField(required=False, allow_blank=True, default="")
    id_type = serializers.CharField(required=False, allow_blank=True, default="")
    id_number = serializers.CharField(required=False, allow_blank=True, default="")
    pre_check = serializers.CharField(required=False, allow_blank=True, default="")


class SlotJackpotSerializer(serializers.ModelSerializer):
    method = serializers.CharField(read_only=True)

    class Meta:
        model = JackpotPayment
        fields = (
            "id",
            "machine",
            "station",
            "paid_at",
            "amount",
            "combination",
            "method",
            "paid_by",
            "controlled_by",
            "bon_number",
            "flags",
        )


class SlotSocleSerializer(serializers.ModelSerializer):
    class Meta:
        model = Socle
        fields = ("id", "number", "room", "position", "active", "created_at")


class SlotSocleWithdrawInputSerializer(Signature, countersignature_serializer("receiver", required=False)):
    """The caller re-authenticates (``password``); the caissier principal receiving the lock and key
    signs with ``receiver_username`` / ``receiver_password`` (KEY-07)."""

    socle = EstablishmentPK(queryset=Socle.objects.all())
    reason = serializers.CharField(max_length=300)
    lock_ref = serializers.CharField(max_length=60, required=False, default="", allow_blank=True)
    key = EstablishmentPK(queryset=Key.objects.all(), required=False, allow_null=True, default=None)


# --- the flows that had only a page: socles, inventory, RAM clear, boxes, the daily envelope,
# payment disputes, top-ups and orphans. Every integer and text is bounded.

USER_ID = {"min_value": 1, "max_value": 2**31 - 1}


class SlotSocleInputSerializer(serializers.Serializer):
    room = EstablishmentPK(queryset=Room.objects.all())
    number = serializers.CharField(max_length=20)
    position = serializers.CharField(max_length=100, required=False, allow_blank=True, default="")


class SlotOtherMeterSerializer(serializers.Serializer):
    code = serializers.CharField(max_length=40)
    digits = serializers.IntegerField(min_value=1, max_value=15)
    nature = serializers.ChoiceField(choices=Meter.Nature.choices, default=Meter.Nature.ELECTRONIC)
    label = serializers.CharField(max_length=100, required=False, allow_blank=True, default="")


class SlotMachineInputSerializer(serializers.Serializer):
    """The inventory file's entry (SLOT-01, 02, 04, 52); the meters the texts require for the media
    are declared with ``digits``, plus ``other_meters``. Monaco: the photo (multipart) is required."""

    machine_type = serializers.CharField(max_length=100)
    technology = serializers.ChoiceField(choices=Machine.Technology.choices)
    maker = serializers.CharField(max_length=100)
    maker_serial = serializers.CharField(max_length=60)
    sbm_number = serializers.CharField(max_length=30, required=False, allow_blank=True, default="")
    casino_number = serializers.CharField(max_length=30, required=False, allow_blank=True, default="")
    maker_number = serializers.CharField(max_length=60, required=False, allow_blank=True, default="")
    location_number = serializers.CharField(max_length=30, required=False, allow_blank=True, default="")
    media = serializers.ListField(child=serializers.ChoiceField(choices=m.Medium.choices), max_length=len(m.Medium))
    stations = serializers.IntegerField(min_value=1, max_value=99)
    rtp_percent = serializers.DecimalField(
        max_digits=5, decimal_places=2, required=False, allow_null=True, default=None
    )
    levy_percent = serializers.DecimalField(
        max_digits=5, decimal_places=2, required=False, allow_null=True, default=None
    )
    rate_date = DateField()
    credit_value = serializers.DecimalField(
        max_digits=10, decimal_places=2, min_value=Decimal("0.01"), default=Decimal("0.01")
    )
    hopper = serializers.BooleanField(default=False)
    bill_box = serializers.CharField(max_length=30, required=False, allow_blank=True, default="")
    approved_system = serializers.CharField(max_length=100, required=False, allow_blank=True, default="")
    insertion_limit = serializers.DecimalField(
        max_digits=14, decimal_places=2, required=False, allow_null=True, default=None
    )
    payment_limit = serializers.DecimalField(
        max_digits=14, decimal_places=2, required=False, allow_null=True, default=None
    )
    characteristics = serializers.CharField(max_length=2000)
    digits = serializers.IntegerField(min_value=1, max_value=15, default=8)
    other_meters = SlotOtherMeterSerializer(many=True, required=False, default=list, max_length=50)
    photo = serializers.ImageField(required=False, allow_null=True, default=None)
    passkey = passkey_input()  # FR: the registrant's, over the fiche modèle 34's opening (SLOT-52)

    def machine_input(self) -> MachineInput:
        data = dict(self.validated_data)
        digits, others = data.pop("digits"), data.pop("other_meters")
        data.pop("photo")
        data.pop("passkey")
        specs = [
            MeterSpec(code, digits, nature)
            for code, nature in required_meters(
                self.context["establishment"].jurisdiction, data["media"], hopper=data["hopper"]
            )
        ]
        specs += [MeterSpec(m["code"], m["digits"], m["nature"], m["label"]) for m in others]
        return MachineInput(meters=specs, **data)


class SlotSheetInputSerializer(serializers.Serializer):
    characteristics = serializers.CharField(max_length=2000)
    rtp_percent = serializers.DecimalField(
        max_digits=5, decimal_places=2, required=False, allow_null=True, default=None
    )
    levy_percent = serializers.DecimalField(
        max_digits=5, decimal_places=2, required=False, allow_null=True, default=None
    )


class SlotSheetSerializer(serializers.ModelSerializer):
    class Meta:
        model = m.TechnicalSheet
        fields = ("id", "machine", "version", "characteristics", "rtp_percent", "levy_percent", "recorded_at")


class SlotRamClearInputSerializer(serializers.Serializer):
    """``before`` and ``after``: every active meter, keyed "station:code" as the machine lists them."""

    reset_key = serializers.CharField(max_length=60)
    reason = serializers.CharField(max_length=1000)
    before = serializers.DictField(child=serializers.IntegerField(min_value=0, max_value=10**15))
    after = serializers.DictField(child=serializers.IntegerField(min_value=0, max_value=10**15))


class SlotRamClearSerializer(serializers.ModelSerializer):
    class Meta:
        model = m.RamClear
        fields = (
            "id",
            "machine",
            "performed_at",
            "performed_by",
            "reset_key",
            "reason",
            "meters_before",
            "meters_after",
        )


class SlotBoxInputSerializer(serializers.Serializer):
    machine = EstablishmentPK(queryset=Machine.objects.all())
    box = serializers.ChoiceField(choices=m.BoxExchange.Box.choices)
    removed = serializers.CharField(max_length=30)
    replaced_by = serializers.CharField(max_length=30)


class SlotBoxSerializer(serializers.ModelSerializer):
    box = serializers.CharField(read_only=True)

    class Meta:
        model = m.BoxExchange
        fields = ("id", "releve", "machine", "box", "removed", "replaced_by", "exchanged_at")


class SlotTransmittalInputSerializer(countersignature_serializer("received_by")):
    """The Direction de l'exploitation member who receives the envelope signs (SLOT-15)."""

    date = DateField()


class SlotTransmittalSerializer(serializers.ModelSerializer):
    class Meta:
        model = m.DailyTransmittal
        fields = ("id", "date", "handed_by", "handed_at", "received_by")


class SlotDisputeInputSerializer(serializers.Serializer):
    machine = EstablishmentPK(queryset=Machine.objects.all())
    claim = serializers.CharField(max_length=1000)
    mechanic = serializers.IntegerField(help_text="the mechanic heard: user id", **USER_ID)
    mechanic_statement = serializers.CharField(max_length=1000)
    decision = serializers.CharField(max_length=1000)
    amount_paid = serializers.DecimalField(
        max_digits=14, decimal_places=2, min_value=Decimal("0"), default=Decimal("0")
    )


class SlotDisputeSerializer(serializers.ModelSerializer):
    class Meta:
        model = m.PaymentDispute
        fields = (
            "id",
            "machine",
            "claim",
            "mechanic",
            "mechanic_statement",
            "decision",
            "amount_paid",
            "decided_by",
            "decided_at",
        )


class SlotTopUpInputSerializer(serializers.Serializer):
    machine = EstablishmentPK(queryset=Machine.objects.all())
    combination = serializers.CharField(max_length=200)
    amount_due = serializers.DecimalField(max_digits=14, decimal_places=2)
    paid_by_machine = serializers.DecimalField(max_digits=14, decimal_places=2)
    difference = serializers.DecimalField(max_digits=14, decimal_places=2)
    customer = serializers.CharField(max_length=200)
    mechanic_opinion = serializers.CharField(max_length=1000)


class SlotTopUpSerializer(serializers.ModelSerializer):
    class Meta:
        model = m.TopUp
        fields = (
            "id",
            "machine",
            "paid_at",
            "combination",
            "amount_due",
            "paid_by_machine",
            "difference",
            "customer",
            "mechanic_opinion",
            "paid_by",
        )


class SlotOrphanInputSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=m.Orphan.Kind.choices)
    machine = EstablishmentPK(queryset=Machine.objects.all(), required=False, allow_null=True, default=None)
    place = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")
    amount = serializers.DecimalField(max_digits=14, decimal_places=2)
    disposal = serializers.CharField(max_length=1000)
    taken_by = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")
    payee = serializers.IntegerField(
        required=False,
        allow_null=True,
        default=None,
        help_text="the user id of the person it is remitted to: never a member of staff (SLOT-19)",
    )


class SlotOrphanSerializer(serializers.ModelSerializer):
    kind = serializers.CharField(read_only=True)

    class Meta:
        model = m.Orphan
        fields = (
            "id",
            "kind",
            "machine",
            "place",
            "amount",
            "found_at",
            "found_by",
            "disposal",
            "taken_by",
            "excluded_at",
        )


class SlotEventRowSerializer(serializers.Serializer):
    machine = serializers.CharField(max_length=40, help_text="the machine's number (SBM number MC, casino number FR)")
    event = serializers.ChoiceField(choices=m.MonitoringEvent.Kind.choices)
    at = DateTimeField()


class SlotEventsImportSerializer(serializers.Serializer):
    rows = SlotEventRowSerializer(many=True, allow_empty=False)


class SlotEventSerializer(serializers.ModelSerializer):
    machine = serializers.CharField(source="machine.number", read_only=True)
    kind = serializers.CharField(read_only=True)
    key = serializers.CharField(source="key_issue.key.code", default=None, read_only=True)
    key_holder = serializers.IntegerField(source="key_issue.holder_id", default=None, read_only=True)

    class Meta:
        model = m.MonitoringEvent
        fields = (
            "id",
            "machine",
            "kind",
            "occurred_at",
            "intervention",
            "releve",
            "ram_clear",
            "key_issue",
            "key",
            "key_holder",
            "flag",
        )


class SlotVarianceThresholdInputSerializer(serializers.Serializer):
    preset = serializers.ChoiceField(
        choices=list(VARIANCE_PRESETS),
        required=False,
        allow_blank=True,
        default="",
        help_text="a preset; empty for the establishment's own amount and/or percent",
    )
    amount = serializers.DecimalField(max_digits=12, decimal_places=2, required=False, allow_null=True, default=None)
    percent = serializers.DecimalField(max_digits=5, decimal_places=2, required=False, allow_null=True, default=None)


class SlotVarianceThresholdSerializer(serializers.Serializer):
    amount = serializers.DecimalField(max_digits=12, decimal_places=2, allow_null=True)
    percent = serializers.DecimalField(max_digits=5, decimal_places=2, allow_null=True)


class SlotJackpotThresholdInputSerializer(serializers.Serializer):
    amount = serializers.DecimalField(max_digits=12, decimal_places=2)
    effective_from = DateTimeField()


class SlotJackpotThresholdSerializer(serializers.ModelSerializer):
    class Meta:
        model = m.JackpotThreshold
        fields = ("id", "amount", "effective_from", "set_by")


class SlotHopperLidSerializer(serializers.ModelSerializer):
    class Meta:
        model = Machine
        fields = ("id", "hopper", "hopper_lid_confirmed_by", "hopper_lid_confirmed_at")


class SlotLimitsSerializer(serializers.Serializer):
    insertion_limit = serializers.DecimalField(max_digits=14, decimal_places=2)
    payment_limit = serializers.DecimalField(max_digits=14, decimal_places=2)


class SlotSfmVisitInputSerializer(serializers.Serializer):
    machines = EstablishmentPK(queryset=Machine.objects.all(), many=True, allow_empty=False)
    remarks = serializers.CharField(max_length=4000)
    limits = serializers.DictField(
        child=SlotLimitsSerializer(),
        required=False,
        default=dict,
        help_text="per machine number: the insertion and payment limits checked",
    )
    visited_at = DateTimeField(required=False)


class SlotSfmVisitSerializer(serializers.ModelSerializer):
    class Meta:
        model = m.SfmVisit
        fields = ("id", "visited_at", "technician", "approval", "machines", "limits", "remarks")


class SlotFilesCopyInputSerializer(countersignature_serializer("received_by")):
    """The Secrétariat Général member who receives the copy signs (SLOT-08)."""


class SlotFilesCopySerializer(serializers.ModelSerializer):
    class Meta:
        model = m.FileCopy
        fields = ("id", "delivered_at", "covers_seq", "covers_hash", "delivered_by", "received_by")


class SlotApprovalInputSerializer(serializers.Serializer):
    user = serializers.IntegerField(help_text="the approved person's user id", **USER_ID)
    kind = serializers.ChoiceField(choices=m.StaffApproval.Kind.choices)
    reference = serializers.CharField(max_length=100)
    issuer = serializers.CharField(max_length=200)
    valid_from = DateField()
    valid_until = DateField(required=False, allow_null=True, default=None)


class SlotApprovalSerializer(serializers.ModelSerializer):
    kind = serializers.CharField(read_only=True)

    class Meta:
        model = m.StaffApproval
        fields = ("id", "user", "kind", "reference", "issuer", "valid_from", "valid_until")
