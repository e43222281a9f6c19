"""Orphan sums, restitutions, tirelires and season clearing serializers."""

from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from ledgers.core.api.fields import DateField

from ...models import Orphan


class OrphanInput(serializers.Serializer):
    category = serializers.ChoiceField(choices=Orphan.Category.choices)
    amount = serializers.DecimalField(max_digits=14, decimal_places=2, min_value=0)
    initial_stake = serializers.DecimalField(
        max_digits=14, decimal_places=2, required=False, allow_null=True, default=None
    )
    winnings = serializers.DecimalField(max_digits=14, decimal_places=2, required=False, allow_null=True, default=None)
    place = serializers.CharField()
    found_by = serializers.CharField()
    witness = serializers.CharField(required=False, allow_blank=True, default="")
    paid_into = serializers.CharField()


class RestitutionInput(serializers.Serializer):
    amount = serializers.DecimalField(max_digits=14, decimal_places=2, min_value=0)
    name = serializers.CharField()
    address = serializers.CharField()
    proof = serializers.CharField()


class OrphanOutput(serializers.ModelSerializer):
    class Meta:
        model = Orphan
        fields = (
            "id",
            "category",
            "amount",
            "initial_stake",
            "winnings",
            "place",
            "paid_into",
            "entry_seq",
            "refunded",
            "restitutions",
        )


class TirelireInput(serializers.Serializer):
    tirelire = serializers.CharField()
    amount = serializers.DecimalField(max_digits=14, decimal_places=2, min_value=0)
    witnesses = serializers.ListField(child=serializers.CharField(), allow_empty=False)


class SeasonClearInput(serializers.Serializer):
    season_start = DateField()
    account_balance = serializers.DecimalField(max_digits=14, decimal_places=2)

    def validate_season_start(self, value):
        if not 2000 <= value.year <= 9000:
            raise serializers.ValidationError(_("Saison hors limites."))
        return value
