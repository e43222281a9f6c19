"""Slot count sessions API (SLOT-46): open, one line per machine, close. FR lines carry the comité
member's visa as their username and password (``comite_username``, ``comite_password``)."""

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers

from ledgers.core.api import EstablishmentPK
from ledgers.core.authz import reauthenticate
from ledgers.core.countersign import countersignature_serializer, countersigner_from
from ledgers.core.models import Seance
from ledgers.dice.api.views import ESTABLISHMENT

from ..models import Machine, Releve, SlotCount, SlotCountLine
from ..services import counts
from .views import ActionView

AMOUNT = {"max_digits": 14, "decimal_places": 2, "min_value": 0}


class SlotCountOpenSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=SlotCount.Kind.choices)
    seance = EstablishmentPK(queryset=Seance.objects.all(), required=False, allow_null=True)
    denomination = serializers.DecimalField(
        max_digits=10, decimal_places=2, min_value=0, required=False, allow_null=True
    )
    releve = EstablishmentPK(queryset=Releve.objects.all(), required=False, allow_null=True)


class SlotCountSessionSerializer(serializers.ModelSerializer):
    class Meta:
        model = SlotCount
        fields = (
            "id",
            "kind",
            "status",
            "day",
            "seance",
            "denomination",
            "releve",
            "floats",
            "opened_at",
            "opened_by",
            "closed_at",
            "closed_by",
        )


class SlotCountLineInputSerializer(countersignature_serializer("comite", required=False)):
    # FR: the line is the machine's modèle 29 entry, signed by its writer (REG-28).
    password = serializers.CharField(
        required=False, allow_blank=True, write_only=True, help_text=_("Mot de passe du signataire (signature).")
    )
    otp_token = serializers.CharField(
        required=False,
        allow_blank=True,
        default="",
        write_only=True,
        help_text=_("Code d'authentification, si le signataire en a un."),
    )
    machine = EstablishmentPK(queryset=Machine.objects.all())
    coins = serializers.DecimalField(default=0, **AMOUNT)
    bills = serializers.DecimalField(default=0, **AMOUNT)
    tickets = serializers.DecimalField(default=0, **AMOUNT)
    units_in = serializers.IntegerField(min_value=0, max_value=10**15, required=False, allow_null=True)
    units_out = serializers.IntegerField(min_value=0, max_value=10**15, required=False, allow_null=True)
    hopper = serializers.DecimalField(required=False, allow_null=True, **AMOUNT)
    unclaimed = serializers.DecimalField(default=0, **AMOUNT)


class SlotCountLineSerializer(serializers.ModelSerializer):
    class Meta:
        model = SlotCountLine
        fields = (
            "id",
            "count",
            "machine",
            "coins",
            "bills",
            "tickets",
            "units_in",
            "units_out",
            "hopper",
            "accounting_line",
            "drop_count",
            "recorded_at",
            "recorded_by",
        )


class SlotCountCloseSerializer(serializers.Serializer):
    floats = serializers.DecimalField(required=False, allow_null=True, **AMOUNT)


class CountView(ActionView):
    def count(self, pk: int) -> SlotCount:
        return get_object_or_404(SlotCount, pk=pk, establishment=self.establishment)


@extend_schema(parameters=[ESTABLISHMENT], request=SlotCountOpenSerializer, responses={201: SlotCountSessionSerializer})
class CountOpenView(CountView):
    input_serializer, output_serializer = SlotCountOpenSerializer, SlotCountSessionSerializer

    def perform(self, data):
        return counts.slot_count_open(establishment=self.establishment, actor=self.request.user, **data)


@extend_schema(
    parameters=[ESTABLISHMENT], request=SlotCountLineInputSerializer, responses={201: SlotCountLineSerializer}
)
class CountLineView(CountView):
    input_serializer, output_serializer = SlotCountLineInputSerializer, SlotCountLineSerializer

    def perform(self, data, pk):
        if self.establishment.jurisdiction == "FR":  # the line is a modèle 29 entry: its writer signs (REG-28)
            reauthenticate(
                self.request._request,
                user=self.request.user,
                password=data.get("password", ""),
                otp_token=data.get("otp_token", ""),
            )
        comite = countersigner_from(self.request, data, "comite")
        inputs = {k: v for k, v in data.items() if not k.startswith("comite_") and k not in ("password", "otp_token")}
        return counts.slot_count_line(count=self.count(pk), actor=self.request.user, comite=comite, **inputs)


@extend_schema(
    parameters=[ESTABLISHMENT], request=SlotCountCloseSerializer, responses={201: SlotCountSessionSerializer}
)
class CountCloseView(CountView):
    input_serializer, output_serializer = SlotCountCloseSerializer, SlotCountSessionSerializer

    def perform(self, data, pk):
        return counts.slot_count_close(count=self.count(pk), actor=self.request.user, floats=data.get("floats"))
