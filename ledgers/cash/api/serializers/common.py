"""Serializer pieces the cash API's topics share: breakdown lines, the table-session field, carnet entries."""

from rest_framework import serializers

from ledgers.core.api.scoping import EstablishmentPK
from ledgers.core.models import TableSession

from ... import breakdowns

# Numbers are stored in PostgreSQL integers: a larger one is bad input (400), not a database error.
INT_MAX = 2_147_483_647


class LineSerializer(serializers.Serializer):
    value = serializers.DecimalField(max_digits=14, decimal_places=2)
    quantity = serializers.IntegerField(min_value=1, max_value=INT_MAX)
    kind = serializers.ChoiceField(choices=breakdowns.Piece.ALL, default=breakdowns.Piece.CHIP)


def session_field() -> EstablishmentPK:
    return EstablishmentPK(queryset=TableSession.objects.all(), path="seance__establishment")


class CarnetEntryOutput(serializers.Serializer):
    seq = serializers.IntegerField()
    payload = serializers.JSONField()
