"""Slot count sessions API (SLOT-46): open, one line per machine, close. FR lines carry the comité
member's visa as their username and password (``comite_username``, ``comite_password``)."""

from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from ledgers.core.api.actions import ServiceAction
from ledgers.core.api.scoping import EstablishmentPK
from ledgers.core.authz import reauthenticate
from ledgers.core.countersign import countersignature_serializer
from ledgers.core.models import Seance

from ..models import Machine, Releve, SlotCount, SlotCountLine
from ..services import counts

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
    # FR: the line is the machine's modèle 29 entry, signed by its writer.
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


class CountOpenView(ServiceAction):
    input_serializer, output_serializer = SlotCountOpenSerializer, SlotCountSessionSerializer

    def perform(self, data):
        return counts.slot_count_open(establishment=self.establishment, actor=self.request.user, **data)


class CountLineView(ServiceAction):
    input_serializer, output_serializer = SlotCountLineInputSerializer, SlotCountLineSerializer
    queryset, countersigners = SlotCount.objects.all(), ("comite",)

    def perform(self, data, pk):
        password, otp_token = data.pop("password", ""), data.pop("otp_token", "")
        signed_by = None
        if password:  # FR: the line is a modèle 29 entry, which its writer signs (REG-28)
            reauthenticate(self.request._request, user=self.request.user, password=password, otp_token=otp_token)
            signed_by = self.request.user
        return counts.slot_count_line(
            count=self.get_object(), actor=self.request.user, comite=self.signed["comite"], signed_by=signed_by, **data
        )


class CountCloseView(ServiceAction):
    input_serializer, output_serializer = SlotCountCloseSerializer, SlotCountSessionSerializer
    queryset = SlotCount.objects.all()

    def perform(self, data, pk):
        return counts.slot_count_close(count=self.get_object(), actor=self.request.user, floats=data.get("floats"))
