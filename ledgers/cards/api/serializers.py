"""Shapes of the card API. Input serializers only validate (types, and that every referenced
object belongs to the caller's establishment); the services decide and refuse."""

from rest_framework import serializers

from ledgers.core.api.actions import Signature
from ledgers.core.api.fields import DateField, DateTimeField
from ledgers.core.api.scoping import EstablishmentPK
from ledgers.core.countersign import countersignature_serializer
from ledgers.core.models import Location, Room, Seance, TableSession
from ledgers.custody.models import DestructionSession, ItemStatus, PurchaseOrder, StockVerification, Supplier
from ledgers.incidents.models import IncidentNotice

from ..models import Anomaly, CardEvent, CardExchange, CardUnit, Category, ShuffleMethod, UnitType


def unit_field(**kwargs):
    return EstablishmentPK(CardUnit.objects.all(), **kwargs)


def units_field(**kwargs):
    return EstablishmentPK(CardUnit.objects.all(), many=True, **kwargs)


def location_field(**kwargs):
    return EstablishmentPK(Location.objects.all(), **kwargs)


def session_field(**kwargs):
    return EstablishmentPK(TableSession.objects.all(), "seance__establishment", **kwargs)


CountersignSerializer = countersignature_serializer("signer", required=False)


# --- Reads -----------------------------------------------------------------------------------


class CardUnitSerializer(serializers.ModelSerializer):
    location = serializers.StringRelatedField()
    supplier = serializers.StringRelatedField()
    place = serializers.CharField(read_only=True)

    class Meta:
        model = CardUnit
        fields = [
            "id",
            "serial",
            "unit_type",
            "category",
            "parent",
            "position",
            "back_colour",
            "plain_back",
            "design",
            "hidden_mark",
            "hidden_mark_description",
            "is_new",
            "condition",
            "complete",
            "pae",
            "contains_exchanged_card",
            "internal_serial",
            "status",
            "location",
            "table_session",
            "place",
            "supplier",
            "purchase_order",
            "received_at",
            "withdrawn_at",
            "withdrawal_reason",
        ]


class CardEventSerializer(serializers.ModelSerializer):
    register = serializers.CharField(source="entry.register.number", read_only=True)
    seq = serializers.IntegerField(source="entry.seq", read_only=True)
    actor = serializers.StringRelatedField()

    class Meta:
        model = CardEvent
        fields = [
            "id",
            "kind",
            "unit",
            "table_session",
            "at",
            "actor",
            "role",
            "ok",
            "details",
            "flags",
            "register",
            "seq",
        ]


class CardExchangeSerializer(serializers.ModelSerializer):
    class Meta:
        model = CardExchange
        fields = [
            "id",
            "table_session",
            "table_unit",
            "replacement_unit",
            "card",
            "croupier",
            "inspecteur",
            "exchanged_at",
            "reconciled_at",
            "reconciled_by",
            "reconciliation",
        ]


class SupplierSerializer(serializers.ModelSerializer):
    class Meta:
        model = Supplier
        fields = ["id", "name", "approval_reference", "approval_issuer", "approved_from", "approved_until"]


class PurchaseOrderSerializer(serializers.ModelSerializer):
    class Meta:
        model = PurchaseOrder
        fields = [
            "id",
            "supplier",
            "carnet",
            "number",
            "lines",
            "issued_at",
            "issued_by",
            "status",
            "visa_by",
            "visa_role",
            "visa_at",
            "visa_statement",
            "sent_at",
        ]


class DestructionSessionSerializer(serializers.ModelSerializer):
    items = serializers.SerializerMethodField()

    class Meta:
        model = DestructionSession
        fields = [
            "id",
            "method",
            "planned_at",
            "officer",
            "status",
            "notified_at",
            "notice_channel",
            "notice_reference",
            "performed_at",
            "witness",
            "witness_role",
            "checks",
            "observations",
            "items",
        ]

    def get_items(self, session) -> list[int]:
        return list(session.items.values_list("object_id", flat=True))


class StockVerificationSerializer(serializers.ModelSerializer):
    class Meta:
        model = StockVerification
        fields = [
            "id",
            "verified_at",
            "agent",
            "agent_role",
            "opened_by",
            "lines",
            "discrepancy",
            "incident",
            "remarks",
        ]


class StockLineSerializer(serializers.Serializer):
    place = serializers.CharField()
    location_id = serializers.IntegerField(allow_null=True)
    category = serializers.CharField()
    count = serializers.IntegerField()


class StockStatementSerializer(serializers.Serializer):
    at = DateTimeField()
    lines = StockLineSerializer(many=True)
    book = serializers.DictField(child=serializers.IntegerField())
    located = serializers.DictField(child=serializers.IntegerField())
    balanced = serializers.BooleanField()


class FlagSerializer(serializers.Serializer):
    code = serializers.CharField()
    article = serializers.CharField()
    text = serializers.CharField()
    at = DateTimeField(allow_null=True)
    subject = serializers.CharField()


class DeckRuleSerializer(serializers.Serializer):
    game = serializers.CharField()
    requirement = serializers.CharField()
    compositions = serializers.CharField()
    freshness = serializers.CharField()
    whole_sixain = serializers.BooleanField()
    plain_back = serializers.BooleanField()
    direction_fixed = serializers.BooleanField()


# --- Inputs ----------------------------------------------------------------------------------


class SupplierApprovalInput(serializers.Serializer):
    """A maker's approval as it now stands (CARD-32)."""

    approval_reference = serializers.CharField(max_length=200)
    approval_issuer = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")
    approved_from = DateField(required=False, allow_null=True, default=None)
    approved_until = DateField(required=False, allow_null=True, default=None)


class SupplierInput(SupplierApprovalInput):
    name = serializers.CharField(max_length=200)
    approval_reference = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")


class OrderLineInput(serializers.Serializer):
    category = serializers.ChoiceField(choices=Category.choices)
    quantity = serializers.IntegerField(min_value=1)


class OrderInput(serializers.Serializer):
    supplier = EstablishmentPK(Supplier.objects.filter(domain="cards"))
    lines = OrderLineInput(many=True)
    carnet = serializers.CharField(max_length=40, required=False, allow_blank=True, default="")
    number = serializers.IntegerField(required=False, allow_null=True, default=None)


class OrderVisaInput(Signature):
    statement = serializers.CharField(max_length=300, required=False, allow_blank=True, default="")


class DeckInput(serializers.Serializer):
    serial = serializers.CharField(max_length=60, allow_blank=True)
    back_colour = serializers.CharField(max_length=30)


class UnitInput(serializers.Serializer):
    unit_type = serializers.ChoiceField(choices=UnitType.choices)
    serial = serializers.CharField(max_length=60, allow_blank=True, required=False, default="")
    back_colour = serializers.CharField(max_length=30, allow_blank=True, required=False, default="")
    decks = DeckInput(many=True, required=False, default=list)
    plain_back = serializers.BooleanField(required=False, default=True)
    design = serializers.CharField(max_length=100, allow_blank=True, required=False, default="")
    hidden_mark = serializers.BooleanField(required=False, default=False)
    hidden_mark_description = serializers.CharField(max_length=200, allow_blank=True, required=False, default="")
    unnumbered = serializers.BooleanField(required=False, default=False)


class ReceiptInput(serializers.Serializer):
    location = location_field()
    supplier = EstablishmentPK(Supplier.objects.filter(domain="cards"))
    order = EstablishmentPK(PurchaseOrder.objects.filter(domain="cards"), required=False, allow_null=True, default=None)
    delivery_note = serializers.CharField(max_length=100, required=False, allow_blank=True, default="")
    units = UnitInput(many=True, allow_empty=False)


class TransferInput(serializers.Serializer):
    units = units_field()
    to_location = location_field()
    received_by = serializers.CharField(max_length=150, required=False, allow_blank=True, default="")


class DepotDayInput(serializers.Serializer):
    date = DateField()


class IssueInput(serializers.Serializer):
    table_session = session_field()
    units = units_field()
    received_by = serializers.CharField(max_length=150)


class UnsealInput(serializers.Serializer):
    unit = unit_field()
    seal_intact = serializers.BooleanField()
    video_camera = serializers.CharField(max_length=60, required=False, allow_blank=True, default="")
    video_reference = serializers.CharField(max_length=120, required=False, allow_blank=True, default="")
    notes = serializers.CharField(required=False, allow_blank=True, default="")


class TableControlInput(serializers.Serializer):
    unit = unit_field()
    complete = serializers.BooleanField()
    order_intact = serializers.BooleanField()
    witnesses = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")
    notes = serializers.CharField(required=False, allow_blank=True, default="")


class ControlInput(serializers.Serializer):
    unit = unit_field()
    complete = serializers.BooleanField()
    order_restored = serializers.BooleanField()
    marks_found = serializers.BooleanField()
    marks_description = serializers.CharField(max_length=300, required=False, allow_blank=True, default="")
    notes = serializers.CharField(required=False, allow_blank=True, default="")


class PAEPrepareInput(serializers.Serializer):
    units = units_field()
    checked_by = serializers.CharField(max_length=150)
    shuffled_by = serializers.CharField(max_length=150)
    method = serializers.ChoiceField(choices=ShuffleMethod.choices)
    shuffler = serializers.CharField(max_length=60, required=False, allow_blank=True, default="")
    video_camera = serializers.CharField(max_length=60, allow_blank=True)
    video_reference = serializers.CharField(max_length=120, allow_blank=True)
    complete = serializers.BooleanField(required=False, default=True)
    order_intact = serializers.BooleanField(required=False, default=True)


class PAEConfirmInput(serializers.Serializer):
    unit = unit_field()
    shuffler = serializers.CharField(max_length=60, required=False, allow_blank=True, default="")
    notes = serializers.CharField(required=False, allow_blank=True, default="")


class DesignateInput(serializers.Serializer):
    seance = EstablishmentPK(Seance.objects.all())
    room = EstablishmentPK(Room.objects.all())
    unit = unit_field()


class ExchangeInput(serializers.Serializer):
    table_unit = unit_field()
    replacement_unit = unit_field()
    card = serializers.CharField(max_length=40)
    croupier = serializers.CharField(max_length=150)
    shown_both_sides = serializers.BooleanField()


class ReconcileInput(serializers.Serializer):
    note = serializers.CharField(max_length=300)


class ReturnInput(CountersignSerializer):
    units = units_field()
    to_location = location_field()
    returned_by = serializers.CharField(max_length=150)


class WithdrawInput(serializers.Serializer):
    units = units_field()
    status = serializers.ChoiceField(choices=[(s, ItemStatus(s).label) for s in ("out_of_use", "marked", "damaged")])
    reason = serializers.CharField(max_length=300)


class AnomalyInput(serializers.Serializer):
    units = units_field()
    anomaly = serializers.ChoiceField(choices=Anomaly.choices)
    cards = serializers.CharField(max_length=200)
    circumstances = serializers.CharField()
    found_at = DateTimeField(required=False, allow_null=True, default=None)


class ReshuffleInput(serializers.Serializer):
    table_session = session_field()
    reason = serializers.CharField(allow_blank=True)


class DestructionPlanInput(serializers.Serializer):
    units = units_field()
    method = serializers.ChoiceField(choices=DestructionSession.Method.choices)
    planned_at = DateTimeField()


class DestructionNotifyInput(serializers.Serializer):
    """The notice is recorded at the time it is given (the request's)."""

    channel = serializers.ChoiceField(choices=IncidentNotice.Channel.choices)
    reference = serializers.CharField(max_length=200)


class DestructionCompleteInput(CountersignSerializer):
    withheld = units_field(required=False, default=list)
    finding = serializers.CharField(required=False, allow_blank=True, default="")
    observations = serializers.CharField(required=False, allow_blank=True, default="")


class CountInput(serializers.Serializer):
    location = location_field(allow_null=True)
    category = serializers.ChoiceField(choices=Category.choices)
    count = serializers.IntegerField(min_value=0)


class VerificationInput(Signature):
    counted = CountInput(many=True, required=False, default=list)
    opened_by = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")
    remarks = serializers.CharField(required=False, allow_blank=True, default="")
