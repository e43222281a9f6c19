"""Serializers of the keys API: inputs resolve keys and places inside the caller's establishment;
every person other than the caller signs with ``<prefix>_username`` / ``_password`` / ``_otp``,
and the caller confirms with ``password`` (and ``otp_token``)."""

from django.contrib.auth import get_user_model
from rest_framework import serializers

from ledgers.core.api.actions import Signature
from ledgers.core.api.fields import DateTimeField
from ledgers.core.api.scoping import EstablishmentPK
from ledgers.core.countersign import countersignature_inputs
from ledgers.core.models import Location

from ..models import Key, KeyInventory, KeyIssue, KeySignature, SocleKeySurrender
from ..policy import LockType


class KeySerializer(serializers.ModelSerializer):
    home = serializers.CharField(source="home.code", default=None, read_only=True)
    custodian = serializers.CharField(source="custodian.username", default=None, read_only=True)

    class Meta:
        model = Key
        fields = (
            "id",
            "code",
            "lock_type",
            "opens",
            "asset_ref",
            "copies",
            "home",
            "custodian",
            "custodian_role",
            "holder_organisation",
            "status",
            "registered_at",
        )


class KeySignatureSerializer(serializers.ModelSerializer):
    user = serializers.CharField(source="user.username")

    class Meta:
        model = KeySignature
        fields = ("act", "user", "role", "signed_at", "position")


class KeyIssueSerializer(serializers.ModelSerializer):
    key = serializers.CharField(source="key.code")
    holder = serializers.CharField(source="holder.username")
    signatures = KeySignatureSerializer(many=True, read_only=True)

    class Meta:
        model = KeyIssue
        fields = (
            "id",
            "key",
            "purpose_type",
            "purpose_id",
            "purpose_label",
            "holder",
            "holder_role",
            "issued_at",
            "due_at",
            "returned_at",
            "note",
            "signatures",
        )


class KeySurrenderSerializer(serializers.ModelSerializer):
    key = serializers.CharField(source="key.code")
    received_by = serializers.CharField(source="received_by.username")

    class Meta:
        model = SocleKeySurrender
        fields = ("id", "key", "socle_ref", "lock_ref", "reason", "received_by", "surrendered_at")


class KeyExceptionSerializer(serializers.Serializer):
    issue = KeyIssueSerializer()
    code = serializers.CharField()
    reason = serializers.CharField()
    late_minutes = serializers.SerializerMethodField()

    def get_late_minutes(self, obj) -> int | None:
        return None if obj.late_by is None else int(obj.late_by.total_seconds() // 60)


class MemberField(serializers.SlugRelatedField):
    """A user of the caller's establishment, by username."""

    def __init__(self, **kwargs) -> None:
        super().__init__(slug_field="username", queryset=get_user_model().objects.all(), **kwargs)

    def get_queryset(self):
        return super().get_queryset().filter(memberships__establishment=self.context["establishment"]).distinct()

    def to_internal_value(self, data):
        if "\x00" in str(data):  # PostgreSQL cannot compare a NUL: a username never holds one
            self.fail("does_not_exist", slug_name=self.slug_field, value=data)
        return super().to_internal_value(data)


class KeyInput(serializers.Serializer):
    code = serializers.CharField(max_length=40)
    lock_type = serializers.ChoiceField(choices=LockType.choices)
    opens = serializers.CharField(max_length=200)
    asset_ref = serializers.CharField(max_length=400, required=False, default="", allow_blank=True)
    copies = serializers.IntegerField(min_value=1, default=1)
    home = EstablishmentPK(queryset=Location.objects.all(), required=False, allow_null=True, default=None)
    custodian = MemberField(required=False, allow_null=True, default=None)
    holder_organisation = serializers.CharField(max_length=200, required=False, default="", allow_blank=True)


def _with_signers(name: str, base: type, required: dict[str, bool]) -> type:
    fields = {}
    for prefix, needed in required.items():
        fields.update(countersignature_inputs(prefix, required=needed))
    return type(name, (base,), {**fields, "__module__": __name__})


class _IssueBase(Signature):
    key = EstablishmentPK(queryset=Key.objects.all())
    purpose_type = serializers.CharField(max_length=40)
    purpose_id = serializers.IntegerField(min_value=1)
    due_at = DateTimeField()
    note = serializers.CharField(max_length=300, required=False, default="", allow_blank=True)


class _ReturnBase(Signature):
    note = serializers.CharField(max_length=300, required=False, default="", allow_blank=True)


class _SurrenderBase(Signature):
    key = EstablishmentPK(queryset=Key.objects.all())
    socle_ref = serializers.CharField(max_length=60)
    lock_ref = serializers.CharField(max_length=60)
    reason = serializers.CharField(max_length=300)


KeyIssueInput = _with_signers(
    "KeyIssueInput", _IssueBase, {"holder": True, "co1": False, "co2": False, "witness": False}
)
KeyReturnInput = _with_signers("KeyReturnInput", _ReturnBase, {"holder": True, "co1": False, "co2": False})
KeySurrenderInput = _with_signers("KeySurrenderInput", _SurrenderBase, {"receiver": True})


class InventoryLineInput(serializers.Serializer):
    key = serializers.IntegerField(min_value=1)
    copies = serializers.IntegerField(min_value=0)


class InventoryInput(serializers.Serializer):
    """The copies counted of each key, blind: what should be there is not shown."""

    counted = InventoryLineInput(many=True, allow_empty=False)


class InventoryOutput(serializers.ModelSerializer):
    class Meta:
        model = KeyInventory
        fields = ("id", "counted_at", "counted_by", "counted_by_role", "lines", "differences")
