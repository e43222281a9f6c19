"""Cagnotte computation, count, play line and table cagnotte serializers."""

from rest_framework import serializers

from ledgers.core.api.scoping import EstablishmentPK
from ledgers.core.models import GamingTable

from ...models import CagnotteCount, TableCagnotte, TicketBook
from .common import INT_MAX, LineSerializer, session_field


class DetachedSerializer(serializers.Serializer):
    book = EstablishmentPK(queryset=TicketBook.objects.all())
    last_number = serializers.IntegerField(min_value=0, max_value=INT_MAX)


class CagnotteComputeInput(serializers.Serializer):
    table_session = session_field()
    detached = DetachedSerializer(many=True)


class CagnotteCountInput(serializers.Serializer):
    table_session = session_field()
    breakdown = LineSerializer(many=True)
    words = serializers.CharField(required=False, allow_blank=True, default="")
    balancing_ticket = serializers.IntegerField(required=False, allow_null=True, default=None, max_value=INT_MAX)


class CagnotteOutput(serializers.ModelSerializer):
    class Meta:
        model = CagnotteCount
        fields = (
            "id",
            "table_session",
            "status",
            "tickets",
            "computed",
            "counted",
            "surplus",
            "shortfall",
            "balancing_ticket",
            "retained",
            "certification",
        )


class PlayLineInput(serializers.Serializer):
    table_session = session_field()
    line = serializers.ChoiceField(choices=["interruption", "resumption", "new_book"])
    book = EstablishmentPK(queryset=TicketBook.objects.all(), required=False, allow_null=True, default=None)


class TableCagnotteInput(serializers.Serializer):
    table = EstablishmentPK(queryset=GamingTable.objects.all())
    number = serializers.CharField(max_length=40, allow_blank=True)


class TableCagnotteOutput(serializers.ModelSerializer):
    class Meta:
        model = TableCagnotte
        fields = ("id", "table", "number", "recorded_at")
