"""Slot accounting API (FR): bons d'avance machine and the lines of modèle 29. Each is signed twice
(art. 73, REG-28): the writer types their password again (``password``, ``otp_token``) and the
comité member's visa is their username and password (``comite_username``, ``comite_password``)."""

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers

from ledgers.core.api import EstablishmentPK
from ledgers.core.authz import reauthenticate
from ledgers.core.countersign import countersignature_serializer, countersigner_from
from ledgers.dice.api.views import ESTABLISHMENT

from .. import selectors
from ..models import AccountingLine, JackpotPayment, MachineAvance, MeterStatement, MonthlyStatement
from ..services import accounting
from .views import ActionView, _member


class Visa(countersignature_serializer("comite")):
    password = serializers.CharField(write_only=True, help_text=_("Mot de passe du signataire (signature)."))
    otp_token = serializers.CharField(
        required=False,
        allow_blank=True,
        default="",
        write_only=True,
        help_text=_("Code d'authentification, si le signataire en a un."),
    )


AMOUNT = {"max_digits": 14, "decimal_places": 2}


class SlotAvanceInputSerializer(Visa):
    reason = serializers.CharField(allow_blank=True)
    denomination = serializers.CharField()
    amount = serializers.DecimalField(**AMOUNT)
    refilled_by = serializers.IntegerField(help_text="the employee's user id")


class SlotAvanceSerializer(serializers.ModelSerializer):
    reason = serializers.CharField(read_only=True)

    class Meta:
        model = MachineAvance
        fields = (
            "id",
            "bon_number",
            "machine",
            "reason",
            "issued_at",
            "denomination",
            "amount",
            "cashier",
            "comite",
            "refilled_by",
            "line",
        )


class SlotTicketsInputSerializer(Visa):
    day = serializers.DateField(required=False)
    amount = serializers.DecimalField(**AMOUNT)


class SlotCarnetCountInputSerializer(Visa):
    physical = serializers.DecimalField(**AMOUNT)
    units_in = serializers.IntegerField(min_value=0, max_value=10**15, default=0)
    units_out = serializers.IntegerField(min_value=0, max_value=10**15, default=0)
    unclaimed = serializers.DecimalField(default=0, **AMOUNT)
    product = serializers.DecimalField(required=False, allow_null=True, **AMOUNT)


class SlotPaymentPostInputSerializer(Visa):
    payment = EstablishmentPK(queryset=JackpotPayment.objects.all(), path="machine__establishment")


class SlotAccountingLineSerializer(serializers.ModelSerializer):
    kind = serializers.CharField(read_only=True)

    class Meta:
        model = AccountingLine
        fields = (
            "id",
            "machine",
            "kind",
            "day",
            "recorded_at",
            "amount",
            "physical",
            "units_in",
            "units_out",
            "electronic",
            "avances",
            "payments",
            "unclaimed",
            "tickets",
            "jackpot",
            "cashier",
            "comite",
        )


class VisaedView(ActionView):
    output_serializer = SlotAccountingLineSerializer

    def visa(self, data: dict) -> dict:
        """The service's inputs: the writer's signature and the comité member's visa authenticated
        (REG-28: an electronic signature on each modèle 29 entry), the password fields dropped."""
        reauthenticate(
            self.request._request,
            user=self.request.user,
            password=data["password"],
            otp_token=data.get("otp_token", ""),
        )
        comite = countersigner_from(self.request, data, "comite")
        return {
            **{k: v for k, v in data.items() if not k.startswith("comite_") and k not in ("password", "otp_token")},
            "comite": comite,
            "actor": self.request.user,
        }

    def machine(self, pk: int):
        return get_object_or_404(selectors.machines_of(self.establishment), pk=pk)


@extend_schema(parameters=[ESTABLISHMENT], request=SlotAvanceInputSerializer, responses={201: SlotAvanceSerializer})
class AvanceView(VisaedView):
    input_serializer, output_serializer = SlotAvanceInputSerializer, SlotAvanceSerializer

    def perform(self, data, pk):
        inputs = self.visa(data)
        inputs["refilled_by"] = _member(self.establishment, inputs["refilled_by"])
        return accounting.avance_issue(machine=self.machine(pk), **inputs)


@extend_schema(
    parameters=[ESTABLISHMENT], request=SlotTicketsInputSerializer, responses={201: SlotAccountingLineSerializer}
)
class TicketsView(VisaedView):
    input_serializer = SlotTicketsInputSerializer

    def perform(self, data, pk):
        return accounting.tickets_record(machine=self.machine(pk), **self.visa(data))


@extend_schema(
    parameters=[ESTABLISHMENT], request=SlotCarnetCountInputSerializer, responses={201: SlotAccountingLineSerializer}
)
class CountView(VisaedView):
    input_serializer = SlotCarnetCountInputSerializer

    def perform(self, data, pk):
        return accounting.count_record(machine=self.machine(pk), **self.visa(data))


@extend_schema(
    parameters=[ESTABLISHMENT], request=SlotPaymentPostInputSerializer, responses={201: SlotAccountingLineSerializer}
)
class PaymentPostView(VisaedView):
    input_serializer = SlotPaymentPostInputSerializer

    def perform(self, data):
        return accounting.payment_post(**self.visa(data))


class SlotMonthInputSerializer(Visa):
    year = serializers.IntegerField(min_value=2000, max_value=2100)
    month = serializers.IntegerField(min_value=1, max_value=12)


class SlotStatementInputSerializer(SlotMonthInputSerializer):
    total = serializers.DecimalField(required=False, allow_null=True, max_digits=16, decimal_places=2)


class SlotStatementSerializer(serializers.ModelSerializer):
    class Meta:
        model = MonthlyStatement
        fields = ("id", "year", "month", "lines", "total", "director", "comite", "certified_at")


@extend_schema(
    parameters=[ESTABLISHMENT], request=SlotStatementInputSerializer, responses={201: SlotStatementSerializer}
)
class StatementView(VisaedView):
    input_serializer, output_serializer = SlotStatementInputSerializer, SlotStatementSerializer

    def perform(self, data):
        return accounting.statement_certify(establishment=self.establishment, **self.visa(data))


class SlotMeterStatementSerializer(serializers.ModelSerializer):
    class Meta:
        model = MeterStatement
        fields = ("id", "year", "month", "lines", "employee", "comite", "certified_at")


@extend_schema(
    parameters=[ESTABLISHMENT], request=SlotMonthInputSerializer, responses={201: SlotMeterStatementSerializer}
)
class MeterStatementView(VisaedView):
    input_serializer, output_serializer = SlotMonthInputSerializer, SlotMeterStatementSerializer

    def perform(self, data):
        return accounting.meter_statement_certify(establishment=self.establishment, **self.visa(data))
