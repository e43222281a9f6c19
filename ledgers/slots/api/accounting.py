"""Slot accounting API (FR): bons d'avance machine and the lines of modèle 29. Each is signed twice
(art. 73, REG-28): the writer types their password again (``password``, ``otp_token``) and the
comité member's visa is their username and password (``comite_username``, ``comite_password``)."""

from rest_framework import serializers

from ledgers.core.api.actions import ServiceAction, Signature
from ledgers.core.api.fields import DateField
from ledgers.core.api.scoping import EstablishmentPK
from ledgers.core.countersign import countersignature_serializer

from ..models import AccountingLine, JackpotPayment, Machine, MachineAvance, MeterStatement, MonthlyStatement
from ..services import accounting
from .views import _member


class Visa(Signature, countersignature_serializer("comite")):
    """The writer's signature and the comité member's visa (REG-28)."""


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
    day = DateField(required=False)
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


class VisaedView(ServiceAction):
    """A modèle 29 entry: the writer signs (a ``Visa`` input) and the comité member countersigns."""

    output_serializer = SlotAccountingLineSerializer
    countersigners = ("comite",)

    def visa(self, data: dict) -> dict:
        """The service's inputs: the data, the comité member and the writer."""
        return {**data, "comite": self.signed["comite"], "actor": self.request.user}

    def line(self, data: dict) -> dict:
        """A modèle 29 line's inputs: the visa's, and the writer who signed it (REG-28)."""
        return {**self.visa(data), "signed_by": self.signed_by}


class MachineEntryView(VisaedView):
    """A modèle 29 entry of the machine in the URL."""

    queryset = Machine.objects.all()


class AvanceView(MachineEntryView):
    input_serializer, output_serializer = SlotAvanceInputSerializer, SlotAvanceSerializer

    def perform(self, data, pk):
        inputs = self.line(data)
        inputs["refilled_by"] = _member(self.establishment, inputs["refilled_by"])
        return accounting.avance_issue(machine=self.get_object(), **inputs)


class TicketsView(MachineEntryView):
    input_serializer = SlotTicketsInputSerializer

    def perform(self, data, pk):
        return accounting.tickets_record(machine=self.get_object(), **self.line(data))


class CountView(MachineEntryView):
    input_serializer = SlotCarnetCountInputSerializer

    def perform(self, data, pk):
        return accounting.count_record(machine=self.get_object(), **self.line(data))


class PaymentPostView(VisaedView):
    input_serializer = SlotPaymentPostInputSerializer

    def perform(self, data):
        return accounting.payment_post(**self.line(data))


class SlotMonthInputSerializer(Visa):
    year = serializers.IntegerField(min_value=2000, max_value=2100)
    month = serializers.IntegerField(min_value=1, max_value=12)


class SlotStatementInputSerializer(SlotMonthInputSerializer):
    total = serializers.DecimalField(required=False, allow_null=True, max_digits=16, decimal_places=2)


class SlotStatementSerializer(serializers.ModelSerializer):
    class Meta:
        model = MonthlyStatement
        fields = ("id", "year", "month", "lines", "total", "director", "comite", "certified_at")


class StatementView(VisaedView):
    input_serializer, output_serializer = SlotStatementInputSerializer, SlotStatementSerializer

    def perform(self, data):
        return accounting.statement_certify(establishment=self.establishment, **self.visa(data))


class SlotMeterStatementSerializer(serializers.ModelSerializer):
    class Meta:
        model = MeterStatement
        fields = ("id", "year", "month", "lines", "employee", "comite", "certified_at")


class MeterStatementView(VisaedView):
    input_serializer, output_serializer = SlotMonthInputSerializer, SlotMeterStatementSerializer

    def perform(self, data):
        return accounting.meter_statement_certify(establishment=self.establishment, **self.visa(data))
