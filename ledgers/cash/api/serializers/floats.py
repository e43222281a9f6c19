"""Table float, table box and box holder serializers."""

from decimal import Decimal

from django.contrib.auth import get_user_model
from rest_framework import serializers

from ledgers.core.api.scoping import EstablishmentPK
from ledgers.core.countersign import countersignature_inputs
from ledgers.core.models import GamingTable

from ...models import BoxHolderDesignation, TableBox, TableFloat
from .common import LineSerializer, session_field


class FloatInput(serializers.Serializer):
    table_session = session_field()
    kind = serializers.ChoiceField(choices=TableFloat.Kind.choices, default=TableFloat.Kind.INITIAL)
    breakdown = LineSerializer(many=True)
    box_number = serializers.CharField(required=False, allow_blank=True, default="")
    transport_box = serializers.CharField(required=False, allow_blank=True, default="")
    counted_by = serializers.CharField(required=False, allow_blank=True, default="")
    called_aloud = serializers.BooleanField(default=False)
    carry_note = serializers.CharField(required=False, allow_blank=True, default="")
    carnet_on_table = serializers.BooleanField(default=False)
    locals().update(countersignature_inputs("receiver", required=False))


class FloatOutput(serializers.ModelSerializer):
    class Meta:
        model = TableFloat
        fields = (
            "id",
            "table_session",
            "kind",
            "amount",
            "required",
            "breakdown",
            "box_number",
            "signed_role",
            "flags",
        )


class TableBoxInput(serializers.Serializer):
    table = EstablishmentPK(queryset=GamingTable.objects.all())
    box_id = serializers.CharField(allow_blank=True)
    key_reference = serializers.CharField(allow_blank=True)
    banknotes_accepted = serializers.BooleanField(default=False)
    coffret_id = serializers.CharField(required=False, allow_blank=True, default="")
    coffret_key_reference = serializers.CharField(required=False, allow_blank=True, default="")


class TableBoxOutput(serializers.ModelSerializer):
    class Meta:
        model = TableBox
        fields = (
            "id",
            "table",
            "box_id",
            "key_reference",
            "banknotes_accepted",
            "coffret_id",
            "coffret_key_reference",
            "recorded_at",
        )


class BoxHolderInput(serializers.Serializer):
    table_session = session_field()
    employee = serializers.SlugRelatedField(slug_field="username", queryset=get_user_model().objects.all())


class BoxHolderOutput(serializers.ModelSerializer):
    class Meta:
        model = BoxHolderDesignation
        fields = ("id", "table_session", "employee", "designated_at")


class FixBankInput(serializers.Serializer):
    table = EstablishmentPK(queryset=GamingTable.objects.all())
    amount = serializers.DecimalField(max_digits=14, decimal_places=2, min_value=0)


class FixBankOutput(serializers.Serializer):
    table = serializers.CharField(help_text="Numéro de la table.")
    amount = serializers.DecimalField(max_digits=14, decimal_places=2)


class RefaitThresholdSerializer(serializers.Serializer):
    amount = serializers.DecimalField(
        max_digits=14, decimal_places=2, min_value=Decimal("0.01"), help_text="Mise minimale assurable (SET-23)."
    )
