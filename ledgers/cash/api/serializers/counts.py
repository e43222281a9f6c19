"""Encaisse count, certification and rake query serializers."""

from rest_framework import serializers

from ledgers.core.api.actions import Signature

from ...models import TableCount
from .common import LineSerializer, session_field


class EncaisseCountInput(serializers.Serializer):
    table_session = session_field()
    breakdown = LineSerializer(many=True)
    tips = serializers.DecimalField(max_digits=14, decimal_places=2, required=False, allow_null=True, default=None)
    count_room = serializers.BooleanField(default=False)
    cctv_reference = serializers.CharField(required=False, allow_blank=True, default="")
    present = serializers.ListField(child=serializers.CharField(), default=list)
    called_aloud = serializers.BooleanField(default=False)


class EncaisseCountOutput(serializers.ModelSerializer):
    """The figures of the counts appear only once both are in: the second counter is blind."""

    class Meta:
        model = TableCount
        fields = (
            "id",
            "table_session",
            "status",
            "first_total",
            "second_total",
            "encaisse",
            "result",
            "tips",
            "certification",
            "certified_role",
            "resolution",
            "insurance_premiums",
        )

    def to_representation(self, count):
        data = super().to_representation(count)
        if count.status == TableCount.Status.AWAITING_SECOND:
            data["first_total"] = None
        return data


class CertifyInput(Signature):
    words = serializers.CharField()
    encaisse = serializers.DecimalField(max_digits=14, decimal_places=2, required=False, allow_null=True, default=None)
    resolution = serializers.CharField(required=False, allow_blank=True, default="")
    insurance_premiums = serializers.DecimalField(
        max_digits=14, decimal_places=2, min_value=0, required=False, allow_null=True, default=None
    )


class RakeQuery(serializers.Serializer):
    game = serializers.CharField()
    pot = serializers.DecimalField(max_digits=14, decimal_places=2, min_value=0)
    cave = serializers.DecimalField(max_digits=14, decimal_places=2, min_value=0)
    recorded = serializers.DecimalField(max_digits=14, decimal_places=2, required=False, allow_null=True, default=None)
