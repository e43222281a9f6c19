"""Baccara à deux tableaux serializers: banks and banker segments."""

from rest_framework import serializers

from ledgers.core.api.scoping import EstablishmentPK
from ledgers.core.models import GamingTable

from ...models import BaccaraBank, BankerSegment
from .common import LineSerializer, session_field


# Baccara à deux tableaux (COUNT-54).
class BaccaraBankInput(serializers.Serializer):
    table = EstablishmentPK(queryset=GamingTable.objects.all())
    kind = serializers.CharField(max_length=10)


class BaccaraBankOutput(serializers.ModelSerializer):
    class Meta:
        model = BaccaraBank
        fields = ("id", "table", "kind")


class BankerSegmentInput(serializers.Serializer):
    table_session = session_field()
    banker = serializers.CharField(max_length=150, allow_blank=True)
    bank = LineSerializer(many=True)


class BankerSegmentOutput(serializers.ModelSerializer):
    class Meta:
        model = BankerSegment
        fields = ("id", "table_session", "banker", "bank", "bank_amount", "started_at")
