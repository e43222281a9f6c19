"""Levy sheet serializers."""

from rest_framework import serializers

from .common import INT_MAX


class LevyMonthInput(serializers.Serializer):
    year = serializers.IntegerField(min_value=2000, max_value=INT_MAX)
    month = serializers.IntegerField(min_value=1, max_value=12)
    slot_total = serializers.DecimalField(
        max_digits=14, decimal_places=2, required=False, allow_null=True, default=None
    )


class LevySheetOutput(serializers.Serializer):
    sheet = serializers.IntegerField(max_value=INT_MAX)
