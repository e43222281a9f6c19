from django.contrib.auth import get_user_model
from rest_framework import serializers

from ledgers.authority.models import ApprovedBanker
from ledgers.core.api.fields import DateTimeField
from ledgers.core.api.scoping import EstablishmentPK
from ledgers.core.models import TableSession

from ..models import ClosingExtension, PartieBanker, StaffAssignment, TableLimits
from ..rules import Position


class StaffPK(EstablishmentPK):
    """A user of the caller's establishment."""

    def __init__(self, **kwargs) -> None:
        super().__init__(queryset=get_user_model().objects.all(), path="memberships__establishment", **kwargs)

    def get_queryset(self):
        return super().get_queryset().distinct()


def session_field():
    return EstablishmentPK(queryset=TableSession.objects.all(), path="seance__establishment")


class StaffAssignmentSerializer(serializers.ModelSerializer):
    person_name = serializers.CharField(source="person.get_full_name", read_only=True)

    class Meta:
        model = StaffAssignment
        fields = [
            "id",
            "table_session",
            "position",
            "person",
            "person_name",
            "started_at",
            "ended_at",
            "relief_of",
            "at_break",
            "flags",
        ]
        read_only_fields = fields


class AssignSerializer(serializers.Serializer):
    table_session = session_field()
    position = serializers.ChoiceField(choices=Position.choices)
    person = StaffPK()


class RelieveSerializer(serializers.Serializer):
    person = StaffPK()
    at_break = serializers.BooleanField(default=True, help_text="At the end of a deck / between two hands")


class TableLimitsSerializer(serializers.ModelSerializer):
    class Meta:
        model = TableLimits
        fields = [
            "id",
            "table_session",
            "seats",
            "players",
            "minimum_stake",
            "maximum_stake",
            "bet_maximums",
            "pay_table",
            "agreement_reference",
            "display_updated",
            "during_play",
            "set_at",
            "set_by",
        ]
        read_only_fields = fields


class LimitsSetSerializer(serializers.Serializer):
    table_session = session_field()
    seats = serializers.IntegerField(min_value=1, max_value=99, required=False)
    players = serializers.IntegerField(
        min_value=0,
        max_value=99,
        required=False,
        allow_null=True,
        help_text="Seated players at opening (MC chemin de fer: at least 4, GAME-26)",
    )
    minimum_stake = serializers.DecimalField(max_digits=12, decimal_places=2, min_value=0)
    maximum_stake = serializers.DecimalField(
        max_digits=12, decimal_places=2, min_value=0, required=False, allow_null=True
    )
    bet_maximums = serializers.DictField(
        child=serializers.DecimalField(max_digits=12, decimal_places=2, min_value=0),
        required=False,
        help_text='Per kind of bet, e.g. {"numbers": 400}',
    )
    agreement_reference = serializers.CharField(required=False, allow_blank=True, max_length=200)
    pay_table = serializers.ChoiceField(
        choices=["A", "B"], required=False, allow_blank=True, help_text="Lucky ladies pay table (FR blackjack, GAME-08)"
    )
    display_updated = serializers.BooleanField(required=False, default=False)


class ClosingExtensionSerializer(serializers.ModelSerializer):
    class Meta:
        model = ClosingExtension
        fields = ["id", "table_session", "new_end", "reason", "decided_by", "decided_at"]
        read_only_fields = fields


class ExtensionInput(serializers.Serializer):
    table_session = session_field()
    new_end = DateTimeField()
    reason = serializers.CharField(max_length=300)


class PartieBankerSerializer(serializers.ModelSerializer):
    banker_name = serializers.CharField(source="banker.full_name", read_only=True)

    class Meta:
        model = PartieBanker
        fields = ["id", "table_session", "banker", "banker_name", "named_by", "named_at"]
        read_only_fields = fields


class BankerInput(serializers.Serializer):
    table_session = session_field()
    banker = EstablishmentPK(queryset=ApprovedBanker.objects.all(), path="establishment")
