"""Serializers of the equipment API: they validate and shape; the services decide."""

from django.contrib.auth import get_user_model
from rest_framework import serializers

from ledgers.core.api.fields import DateField, DateTimeField
from ledgers.core.api.scoping import EstablishmentPK
from ledgers.core.countersign import countersignature_serializer
from ledgers.core.models import GamingTable, Location, TableSession
from ledgers.custody.models import DestructionSession
from ledgers.incidents.models import IncidentNotice
from ledgers.registers.services import display_name

from ..models import (
    ApprovedModel,
    LaunchRoster,
    LaunchTurn,
    LidLock,
    MachineType,
    Shoe,
    ShoeAllocation,
    Shuffler,
    ShufflerUse,
    Socle,
    Wheel,
    WheelCheck,
    WheelKind,
)


def _session_field(**kwargs) -> EstablishmentPK:
    return EstablishmentPK(TableSession.objects.all(), "seance__establishment", **kwargs)


# --- Output -------------------------------------------------------------------------------------


class ApprovedModelSerializer(serializers.ModelSerializer):
    class Meta:
        model = ApprovedModel
        fields = (
            "id",
            "kind",
            "manufacturer",
            "name",
            "approval_reference",
            "approval_issuer",
            "approved_on",
            "approved_until",
            "is_approved",
        )


class ShoeSerializer(serializers.ModelSerializer):
    number = serializers.CharField(source="serial")
    model = serializers.StringRelatedField()
    location = serializers.StringRelatedField()

    class Meta:
        model = Shoe
        fields = (
            "id",
            "number",
            "maker_serial",
            "model",
            "model_id",
            "status",
            "location",
            "table_session",
            "received_at",
        )


class ShoeAllocationSerializer(serializers.ModelSerializer):
    shoe = serializers.CharField(source="shoe.serial")
    table = serializers.CharField(source="table_session.table.number")
    seance = serializers.CharField(source="table_session.seance")
    allocated_by = serializers.SerializerMethodField()

    class Meta:
        model = ShoeAllocation
        fields = ("id", "shoe", "table", "seance", "table_session", "allocated_at", "allocated_by", "role", "flags")

    def get_allocated_by(self, obj) -> str:
        return display_name(obj.allocated_by)


class ShufflerSerializer(serializers.ModelSerializer):
    model = ApprovedModelSerializer()
    table = serializers.CharField(source="socle.table.number", default=None)
    socle = serializers.CharField(source="socle.code", default=None)

    class Meta:
        model = Shuffler
        fields = (
            "id",
            "number",
            "serial",
            "model",
            "machine_type",
            "embout",
            "status",
            "socle",
            "table",
            "card_access_protection",
            "malfunction_signal",
            "commissioned_at",
        )


class SocleSerializer(serializers.ModelSerializer):
    class Meta:
        model = Socle
        fields = ("id", "table", "code")


class ShufflerUseSerializer(serializers.ModelSerializer):
    class Meta:
        model = ShufflerUse
        fields = ("id", "table_session", "shuffler", "started_at", "opening", "ended_at", "closing", "end_confirmed")


class WheelSerializer(serializers.ModelSerializer):
    class Meta:
        model = Wheel
        fields = ("id", "number", "serial", "kind", "spec", "status", "table")


class WheelCheckSerializer(serializers.ModelSerializer):
    class Meta:
        model = WheelCheck
        fields = (
            "id",
            "table_session",
            "wheel",
            "checked_at",
            "points",
            "passed",
            "observations",
            "signer",
            "signer_role",
            "cosigner",
            "cosigner_role",
            "incident",
        )


class LidLockSerializer(serializers.ModelSerializer):
    class Meta:
        model = LidLock
        fields = (
            "id",
            "table_session",
            "wheel",
            "locked_at",
            "locked_by",
            "locked_by_role",
            "key_holder",
            "key_holder_role",
        )


class ShoeDestructionSessionSerializer(serializers.ModelSerializer):
    class Meta:
        model = DestructionSession
        fields = ("id", "method", "planned_at", "status", "notified_at", "performed_at", "witness_role")


class RepeatedPairSerializer(serializers.Serializer):
    shoe = serializers.CharField()
    table = serializers.CharField()
    count = serializers.IntegerField()
    flagged = serializers.IntegerField()
    first = DateField()
    last = DateField()


class LaunchRosterSerializer(serializers.ModelSerializer):
    croupiers = serializers.SerializerMethodField()

    class Meta:
        model = LaunchRoster
        fields = ("id", "table_session", "set_at", "set_by", "set_by_role", "note", "croupiers")

    def get_croupiers(self, obj) -> list[dict]:
        """The croupiers in their order: position, user id and name."""
        return [
            {"position": place.position, "id": place.croupier_id, "name": display_name(place.croupier)}
            for place in obj.places.all()
        ]


class LaunchTurnSerializer(serializers.ModelSerializer):
    launcher_name = serializers.SerializerMethodField()

    class Meta:
        model = LaunchTurn
        fields = (
            "id",
            "table_session",
            "launcher",
            "launcher_name",
            "started_at",
            "roster",
            "recorded_at",
            "recorded_by",
            "recorded_by_role",
            "observations",
            "flags",
        )

    def get_launcher_name(self, obj) -> str:
        return display_name(obj.launcher)


class EquipmentFlagSerializer(serializers.Serializer):
    code = serializers.CharField()
    article = serializers.CharField()
    text = serializers.CharField()
    at = DateTimeField()
    table_session = serializers.IntegerField(source="session.pk")
    table = serializers.CharField(source="session.table.number")
    seance = serializers.CharField(source="session.seance")
    subject = serializers.CharField()


# --- Input -------------------------------------------------------------------------------------


class ApprovedModelInput(serializers.Serializer):
    kind = serializers.ChoiceField(choices=ApprovedModel.Kind.choices)
    manufacturer = serializers.CharField(max_length=200)
    name = serializers.CharField(max_length=200)
    approval_reference = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")
    approval_issuer = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")
    approved_on = DateField(required=False, allow_null=True, default=None)
    approved_until = DateField(required=False, allow_null=True, default=None)


class ShoeLine(serializers.Serializer):
    number = serializers.CharField(max_length=60, allow_blank=True)
    maker_serial = serializers.CharField(max_length=100, required=False, allow_blank=True, default="")


class ShoeReceiveInput(serializers.Serializer):
    model = EstablishmentPK(ApprovedModel.objects.all())
    location = EstablishmentPK(Location.objects.all())
    shoes = ShoeLine(many=True, allow_empty=False)
    delivery_note = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")


class ShoeUpdateInput(serializers.Serializer):
    number = serializers.CharField(max_length=60)
    model = EstablishmentPK(ApprovedModel.objects.all())
    maker_serial = serializers.CharField(max_length=100, required=False, allow_blank=True, default="")


class ShoeWithdrawInput(serializers.Serializer):
    reason = serializers.CharField(max_length=300)
    to_location = EstablishmentPK(Location.objects.all(), required=False, allow_null=True, default=None)


class ShoeAllocateInput(serializers.Serializer):
    table_session = _session_field()
    shoe = EstablishmentPK(Shoe.objects.all())
    received_by = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")


class ShoeReturnInput(serializers.Serializer):
    shoes = EstablishmentPK(Shoe.objects.all(), many=True, allow_empty=False)
    to_location = EstablishmentPK(Location.objects.all())
    returned_by = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")


class ShoeDestructionPlanInput(serializers.Serializer):
    method = serializers.ChoiceField(choices=DestructionSession.Method.choices)
    planned_at = DateTimeField()
    shoes = EstablishmentPK(Shoe.objects.all(), many=True, allow_empty=False)


class ShoeDestructionNotifyInput(serializers.Serializer):
    """The notice is recorded at the time it is given (the request's)."""

    channel = serializers.ChoiceField(choices=IncidentNotice.Channel.choices)
    reference = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")


class ShoeDestructionCompleteInput(countersignature_serializer("witness", required=False)):
    observations = serializers.CharField(required=False, allow_blank=True, default="")


class ShufflerRegisterInput(serializers.Serializer):
    number = serializers.CharField(max_length=40)
    serial = serializers.CharField(max_length=100)
    model = EstablishmentPK(ApprovedModel.objects.all())
    machine_type = serializers.ChoiceField(choices=MachineType.choices)
    embout = serializers.BooleanField(required=False, default=False)


class ShufflerCommissionInput(serializers.Serializer):
    card_access_protection = serializers.BooleanField()
    malfunction_signal = serializers.BooleanField()
    observations = serializers.CharField(required=False, allow_blank=True, default="")


class SocleInput(serializers.Serializer):
    table = EstablishmentPK(GamingTable.objects.all())
    code = serializers.CharField(max_length=30)


class ShufflerMountInput(serializers.Serializer):
    socle = EstablishmentPK(Socle.objects.all(), "table__establishment")


class MalfunctionInput(serializers.Serializer):
    description = serializers.CharField()
    action_taken = serializers.CharField(required=False, allow_blank=True, default="")
    table_session = _session_field(required=False, allow_null=True, default=None)


class ShufflerUseStartInput(serializers.Serializer):
    table_session = _session_field()
    shuffler = EstablishmentPK(Shuffler.objects.all())
    embout = serializers.BooleanField(required=False, default=False)
    display = serializers.CharField(max_length=60, required=False, allow_blank=True, default="")
    decks_counted = serializers.IntegerField(required=False, allow_null=True, default=None, min_value=0)
    observations = serializers.CharField(required=False, allow_blank=True, default="")


class ShufflerUseEndInput(serializers.Serializer):
    hood_opened = serializers.BooleanField()
    empty = serializers.BooleanField()
    cards_removed = serializers.BooleanField(required=False, default=False)
    disconnected = serializers.BooleanField(required=False, default=False)
    observations = serializers.CharField(required=False, allow_blank=True, default="")


class WheelRegisterInput(serializers.Serializer):
    number = serializers.CharField(max_length=40)
    serial = serializers.CharField(max_length=100, required=False, allow_blank=True, default="")
    kind = serializers.ChoiceField(choices=WheelKind.choices)
    spec = serializers.DictField()


class WheelInstallInput(serializers.Serializer):
    table = EstablishmentPK(GamingTable.objects.all())


class WheelCheckInput(countersignature_serializer("cosigner", required=True)):
    table_session = _session_field()
    points = serializers.ListField(child=serializers.CharField(), allow_empty=False)
    passed = serializers.BooleanField()
    observations = serializers.CharField(required=False, allow_blank=True, default="")


class LidLockInput(countersignature_serializer("key_holder", required=False)):
    table_session = _session_field()


class StaffPK(serializers.PrimaryKeyRelatedField):
    """A user who holds a role in the request's establishment (the services check which one)."""

    def __init__(self, **kwargs) -> None:
        super().__init__(queryset=get_user_model().objects.all(), **kwargs)

    def get_queryset(self):
        return self.queryset.filter(memberships__establishment=self.context["establishment"]).distinct()


class LaunchRosterInput(serializers.Serializer):
    table_session = _session_field()
    croupiers = StaffPK(many=True, allow_empty=False, help_text="The croupiers' ids, in the order of the rotation")
    note = serializers.CharField(required=False, allow_blank=True, default="")


class LaunchTurnInput(serializers.Serializer):
    table_session = _session_field()
    launcher = StaffPK()
    started_at = DateTimeField(required=False, allow_null=True, default=None)
    observations = serializers.CharField(max_length=300, required=False, allow_blank=True, default="")
