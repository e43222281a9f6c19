"""Slip book, slip and SFE advance serializers."""

from rest_framework import serializers

from ledgers.core.api.scoping import EstablishmentPK
from ledgers.core.countersign import countersignature_inputs
from ledgers.core.models import Location, LocationKind

from ...models import SfeAdvance, Slip, SlipBook
from .common import INT_MAX, LineSerializer, session_field


class SlipBookInput(serializers.Serializer):
    kind = serializers.ChoiceField(choices=SlipBook.Kind.choices)
    number = serializers.CharField()
    first_number = serializers.IntegerField(min_value=1, max_value=INT_MAX)
    last_number = serializers.IntegerField(min_value=1, max_value=INT_MAX)


class SlipBookOutput(serializers.ModelSerializer):
    class Meta:
        model = SlipBook
        fields = ("id", "kind", "number", "first_number", "last_number")


class SlipInput(serializers.Serializer):
    book = EstablishmentPK(queryset=SlipBook.objects.all())
    number = serializers.IntegerField(min_value=1, max_value=INT_MAX)
    table_session = session_field()
    requested = LineSerializer(many=True)
    handed = LineSerializer(many=True)
    runner = serializers.CharField(required=False, allow_blank=True, default="")
    currency = serializers.CharField(max_length=3, required=False, default="EUR")
    locals().update(countersignature_inputs("supervisor", required=False))


class SlipOutput(serializers.ModelSerializer):
    book = serializers.CharField(source="book.number")

    class Meta:
        model = Slip
        fields = (
            "id",
            "book",
            "number",
            "status",
            "table_session",
            "total",
            "requested",
            "handed",
            "supervisor_role",
            "served_at",
            "void_reason",
            "voided_by",
        )


class DeskCode(serializers.SlugRelatedField):
    """A desk of the caller's establishment by its code: codes are unique per establishment only."""

    def get_queryset(self):
        return super().get_queryset().filter(establishment=self.context["establishment"])


class ServeInput(serializers.Serializer):
    desk = DeskCode(slug_field="code", queryset=Location.objects.all())


class VoidInput(serializers.Serializer):
    book = EstablishmentPK(queryset=SlipBook.objects.all())
    number = serializers.IntegerField(min_value=1, max_value=INT_MAX)
    reason = serializers.CharField()
    locals().update(countersignature_inputs("cosigner", required=False))


class SfeAdvanceInput(serializers.Serializer):
    table_session = session_field()
    customer = serializers.CharField(max_length=200)
    amount = serializers.DecimalField(max_digits=14, decimal_places=2, min_value=0)
    authorisation = serializers.CharField(max_length=80, allow_blank=True)


class SfeAdvanceOutput(serializers.ModelSerializer):
    class Meta:
        model = SfeAdvance
        fields = ("id", "table_session", "customer", "amount", "authorisation", "advanced_at")


class CentraliseInput(serializers.Serializer):
    desk = EstablishmentPK(queryset=Location.objects.filter(kind=LocationKind.CAISSE_CENTRALE))


class CentraliseOutput(serializers.Serializer):
    centralised = serializers.IntegerField(help_text="Bons centralisés.")
