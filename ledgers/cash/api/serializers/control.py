"""Registre de contrôle day serializers: closing and visas."""

from rest_framework import serializers

from ledgers.core.api.actions import Signature
from ledgers.core.api.fields import DateField

from ...models import ControlDay


class ControlCloseInput(serializers.Serializer):
    date = DateField()


class VisaInput(Signature):
    statement = serializers.CharField(required=False, allow_blank=True, default="")


class ControlDayOutput(serializers.ModelSerializer):
    class Meta:
        model = ControlDay
        fields = (
            "id",
            "date",
            "status",
            "contrepartie_total",
            "cercle_total",
            "total",
            "total_words",
            "season_total",
            "visas",
        )
