from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from ledgers.core.api.actions import Signature

from ..models import Entry, Register


class RegisterSerializer(serializers.ModelSerializer):
    establishment = serializers.SlugRelatedField(slug_field="code", read_only=True)
    kind_title = serializers.SerializerMethodField()

    class Meta:
        model = Register
        fields = [
            "number",
            "establishment",
            "kind",
            "kind_title",
            "title",
            "qualifier",
            "status",
            "head_seq",
            "head_hash",
            "created_at",
        ]
        read_only_fields = fields

    def get_kind_title(self, register: Register) -> str:
        return str(register.kind_info.title)


class EntrySerializer(serializers.ModelSerializer):
    """Every hashed field of an entry, plus its hash: enough to re-verify the chain."""

    register = serializers.CharField(source="register.number", read_only=True)
    corrects = serializers.IntegerField(source="corrects.seq", read_only=True, allow_null=True, default=None)

    class Meta:
        model = Entry
        fields = [
            "register",
            "seq",
            "recorded_at",
            "actor",
            "role",
            "kind",
            "payload",
            "corrects",
            "prev_hash",
            "entry_hash",
            "written",
            "digests",
        ]
        read_only_fields = fields

    def to_representation(self, instance: Entry) -> dict:
        data = super().to_representation(instance)
        if data["written"] is None:  # an entry of format 1 is hashed without the field
            del data["written"]
        if data["digests"] is None:  # nor one before format 3 without digests
            del data["digests"]
        return data


class VisaRequestSerializer(Signature):
    up_to_seq = serializers.IntegerField(min_value=1, help_text=_("Dernière entrée couverte par le visa."))
    statement = serializers.CharField(required=False, allow_blank=True, default="")
