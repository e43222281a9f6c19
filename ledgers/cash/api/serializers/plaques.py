"""Chip series and census serializers (modèle 16)."""

from rest_framework import serializers

from ledgers.core.api.fields import DateField
from ledgers.core.api.scoping import EstablishmentPK

from ...models import ChipCensus, ChipSeries
from .common import INT_MAX


# Modèle 16 (COUNT-58).
class SeriesPieceSerializer(serializers.Serializer):
    value = serializers.DecimalField(max_digits=14, decimal_places=2, min_value=0)
    quantity = serializers.IntegerField(min_value=1, max_value=INT_MAX)


class ChipSeriesInput(serializers.Serializer):
    kind = serializers.ChoiceField(choices=ChipSeries.Kind.choices)
    description = serializers.CharField(max_length=200)
    manufacturer = serializers.CharField(max_length=150)
    series_count = serializers.IntegerField(min_value=1, max_value=INT_MAX)
    reserve_series = serializers.IntegerField(min_value=0, max_value=INT_MAX)
    pieces = SeriesPieceSerializer(many=True, required=False, default=list)
    cards_per_series = serializers.IntegerField(min_value=0, max_value=INT_MAX, default=0)


class ChipSeriesOutput(serializers.ModelSerializer):
    class Meta:
        model = ChipSeries
        fields = (
            "id",
            "kind",
            "description",
            "manufacturer",
            "series_count",
            "pieces",
            "cards_per_series",
            "reserve_series",
            "in_service_series",
        )


class ChipAllocateInput(serializers.Serializer):
    in_service_series = serializers.IntegerField(min_value=0, max_value=INT_MAX)


class CensusLineSerializer(serializers.Serializer):
    series = EstablishmentPK(queryset=ChipSeries.objects.all())
    value = serializers.DecimalField(max_digits=14, decimal_places=2, min_value=0, default=0)
    quantity = serializers.IntegerField(min_value=0, max_value=INT_MAX)


class ChipCensusInput(serializers.Serializer):
    census_date = DateField()
    counted = CensusLineSerializer(many=True, allow_empty=False)
    counted_by = serializers.CharField(max_length=300)
    account_balance = serializers.DecimalField(max_digits=14, decimal_places=2)


class ChipCensusOutput(serializers.ModelSerializer):
    class Meta:
        model = ChipCensus
        fields = (
            "id",
            "season",
            "period",
            "census_date",
            "lines",
            "counted_total",
            "taken_in_charge",
            "player_held",
            "account_balance",
            "counted_by",
            "flags",
        )
