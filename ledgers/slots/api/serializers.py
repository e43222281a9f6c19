"""Slot API serializers. Choice fields go out as plain strings (their codes), named Slot* so that
no schema component collides with another app's."""

from rest_framework import serializers

from ledgers.core.api import EstablishmentPK
from ledgers.core.countersign import countersignature_serializer

from ..forms import MOVE_COUNTERSIGNERS
from ..models import DropCount, Intervention, JackpotPayment, Machine, MachineMove, Meter, Releve, Socle


class SlotEmptySerializer(serializers.Serializer):
    pass


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
        fields = ("id", "number", "machine_type", "technology", "maker", "maker_serial", "sbm_number",
                  "casino_number", "maker_number", "location_number", "media", "stations", "rtp_percent",
                  "levy_percent", "rate_date", "credit_value", "hopper", "bill_box", "place", "socle", "status",
                  "meters", "drop_type")


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


class SlotReleveOpenSerializer(serializers.Serializer):
    room = serializers.IntegerField()
    during_operation = serializers.BooleanField(default=False)
    sworn_agent = serializers.IntegerField(required=False, allow_null=True)
    staff = serializers.CharField(required=False, allow_blank=True, default="")


class SlotReleveSerializer(serializers.ModelSerializer):
    status = serializers.CharField(read_only=True)
    class Meta:
        model = Releve
        fields = ("id", "room", "status", "started_at", "closed_at", "directed_by", "during_operation",
                  "sworn_agent")


class SlotCountInputSerializer(serializers.Serializer):
    machine = EstablishmentPK(queryset=Machine.objects.all())
    counted = serializers.DecimalField(max_digits=14, decimal_places=2)


class SlotCountSerializer(serializers.ModelSerializer):
    class Meta:
        model = DropCount
        fields = ("id", "releve", "machine", "counted", "expected", "variance", "variance_percent", "flagged",
                  "threshold")


class SlotMoveInputSerializer(*(countersignature_serializer(prefix, required=False) for prefix in MOVE_COUNTERSIGNERS)):
    """FR repair moves take the countersignatures of the comité member, the mechanic (or employee)
    and the SFM technician (SLOT-34)."""

    to_place = serializers.CharField()
    to_socle = EstablishmentPK(queryset=Socle.objects.all(), required=False, allow_null=True)
    reason = serializers.CharField()
    moved_at = serializers.DateTimeField(required=False)
    police_informed_at = serializers.DateTimeField(required=False, allow_null=True)
    police_reference = serializers.CharField(required=False, allow_blank=True, default="")
    observations = serializers.CharField(required=False, allow_blank=True, default="")


class SlotMoveSerializer(serializers.ModelSerializer):
    from_place = serializers.CharField(read_only=True)
    to_place = serializers.CharField(read_only=True)
    reason = serializers.CharField(read_only=True)
    class Meta:
        model = MachineMove
        fields = ("id", "machine", "moved_at", "from_place", "to_place", "to_socle", "reason", "police_informed_at",
                  "meters")


class SlotInterventionOpenSerializer(serializers.Serializer):
    machine = EstablishmentPK(queryset=Machine.objects.all())
    reason = serializers.CharField()
    stopped_at = serializers.DateTimeField(required=False)


class SlotInterventionCloseSerializer(serializers.Serializer):
    work_done = serializers.CharField()


class SlotInterventionSerializer(serializers.ModelSerializer):
    status = serializers.CharField(read_only=True)
    class Meta:
        model = Intervention
        fields = ("id", "machine", "status", "technician", "technician_role", "stopped_at", "reason", "ended_at",
                  "work_done", "transmittal")


class SlotJackpotInputSerializer(serializers.Serializer):
    machine = EstablishmentPK(queryset=Machine.objects.all())
    station = serializers.IntegerField(min_value=1, default=1)
    amount = serializers.DecimalField(max_digits=14, decimal_places=2)
    method = serializers.CharField()
    combination = serializers.CharField(required=False, allow_blank=True, default="")
    id_type = serializers.CharField(required=False, allow_blank=True, default="")
    id_number = serializers.CharField(required=False, allow_blank=True, default="")
    pre_check = serializers.CharField(required=False, allow_blank=True, default="")
    controller = serializers.IntegerField(required=False, allow_null=True, help_text="FR: the comité member's user id")


class SlotJackpotSerializer(serializers.ModelSerializer):
    method = serializers.CharField(read_only=True)
    class Meta:
        model = JackpotPayment
        fields = ("id", "machine", "station", "paid_at", "amount", "combination", "method", "paid_by",
                  "controlled_by", "bon_number", "flags")
