"""Ticket book, card table number, ticket stamp, levy machine and machine history serializers."""

from rest_framework import serializers

from ledgers.core.api.scoping import EstablishmentPK
from ledgers.core.models import GamingTable

from ...models import CardTableNumber, LevyMachine, TicketBook, TicketStamp
from .common import INT_MAX, session_field


# Ticket books (COUNT-39 to COUNT-41).
class TicketBookInput(serializers.Serializer):
    table = EstablishmentPK(queryset=GamingTable.objects.all())
    cover_number = serializers.CharField()
    ticket_value = serializers.DecimalField(max_digits=14, decimal_places=2, min_value=0)
    first_number = serializers.IntegerField(min_value=1, max_value=INT_MAX)
    last_number = serializers.IntegerField(min_value=1, max_value=INT_MAX)


class TicketBookOutput(serializers.ModelSerializer):
    class Meta:
        model = TicketBook
        fields = (
            "id",
            "table",
            "cover_number",
            "ticket_value",
            "first_number",
            "last_number",
            "next_number",
            "finished_on",
        )


class CardTableNumberInput(serializers.Serializer):
    table = EstablishmentPK(queryset=GamingTable.objects.all())
    serial = serializers.IntegerField(min_value=1, max_value=INT_MAX)


class CardTableNumberOutput(serializers.ModelSerializer):
    class Meta:
        model = CardTableNumber
        fields = ("id", "table", "season", "serial")


class TicketStampInput(serializers.Serializer):
    book = EstablishmentPK(queryset=TicketBook.objects.all())
    blue_line = serializers.BooleanField()


class TicketStampOutput(serializers.ModelSerializer):
    class Meta:
        model = TicketStamp
        fields = ("id", "book", "kind", "first_ticket", "stamped_on", "blue_line")


class LevyMachineInput(serializers.Serializer):
    table = EstablishmentPK(queryset=GamingTable.objects.all())
    approval_reference = serializers.CharField(max_length=80, allow_blank=True)


class LevyMachineOutput(serializers.ModelSerializer):
    class Meta:
        model = LevyMachine
        fields = ("id", "table", "approval_reference", "activated_at")


class PartieSerializer(serializers.Serializer):
    time = serializers.TimeField()
    pot = serializers.DecimalField(max_digits=14, decimal_places=2, min_value=0)
    levy = serializers.DecimalField(max_digits=14, decimal_places=2, min_value=0)
    win = serializers.DecimalField(max_digits=14, decimal_places=2, min_value=0)


class MachineHistoryInput(serializers.Serializer):
    table_session = session_field()
    history_total = serializers.DecimalField(max_digits=14, decimal_places=2, min_value=0)
    printout_reference = serializers.CharField(max_length=120, allow_blank=True)
    parties = PartieSerializer(many=True, required=False, default=list)
