"""Changeur float serializers."""

from django.contrib.auth import get_user_model
from rest_framework import serializers

from ledgers.core.api.scoping import EstablishmentPK
from ledgers.core.models import GamingTable

from ...models import ChangeurFloat, ChangeurFloatFix
from .common import LineSerializer, session_field


class ChangeurFloatFixInput(serializers.Serializer):
    table = EstablishmentPK(queryset=GamingTable.objects.all())
    amount = serializers.DecimalField(max_digits=14, decimal_places=2, min_value=0)


class ChangeurFloatFixOutput(serializers.ModelSerializer):
    class Meta:
        model = ChangeurFloatFix
        fields = ("id", "table", "amount", "fixed_at")


class ChangeurFloatInput(serializers.Serializer):
    table_session = session_field()
    changeur = serializers.SlugRelatedField(slug_field="username", queryset=get_user_model().objects.all())
    breakdown = LineSerializer(many=True)


class ChangeurFloatOutput(serializers.ModelSerializer):
    class Meta:
        model = ChangeurFloat
        fields = ("id", "table_session", "changeur", "amount", "breakdown", "recorded_at")
