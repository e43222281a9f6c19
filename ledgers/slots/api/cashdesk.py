"""Slot change points and cash desk API (SLOT-21, SLOT-48, SLOT-49): the register of change points,
the séance's assignments, change given, the encaisse justified, restored and closed."""

from rest_framework import serializers

from ledgers.core.api.actions import ServiceAction
from ledgers.core.api.fields import DateField
from ledgers.core.api.scoping import EstablishmentPK
from ledgers.core.models import Seance

from ..models import (
    ChangeAssignment,
    ChangeMovement,
    ChangePoint,
    CommonDeskValidation,
    CounterfeitDestruction,
    CounterfeitItem,
    EncaisseJustification,
    SlotStaffing,
)
from ..services import cashdesk, staffing
from .views import _member

AMOUNT = {"max_digits": 14, "decimal_places": 2, "min_value": 0}
SIGNED = {"max_digits": 14, "decimal_places": 2, "min_value": -(10**11), "max_value": 10**11}


class SlotChangePointInputSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=ChangePoint.Kind.choices)
    name = serializers.CharField(max_length=100)
    cash = serializers.DecimalField(default=0, **AMOUNT)
    chips = serializers.DecimalField(default=0, **AMOUNT)
    fixed_sum = serializers.DecimalField(required=False, allow_null=True, **AMOUNT)


class SlotChangePointSerializer(serializers.ModelSerializer):
    class Meta:
        model = ChangePoint
        fields = ("id", "kind", "name", "cash", "chips", "fixed_sum", "active", "created_at")


class SlotAssignInputSerializer(serializers.Serializer):
    seance = EstablishmentPK(queryset=Seance.objects.all())
    person = serializers.IntegerField(min_value=1, max_value=2**31 - 1, help_text="the person's user id")


class SlotAssignmentSerializer(serializers.ModelSerializer):
    class Meta:
        model = ChangeAssignment
        fields = (
            "id",
            "point",
            "seance",
            "person",
            "status",
            "opening_cash",
            "opening_chips",
            "closing_cash",
            "closing_chips",
            "opened_at",
            "closed_at",
        )


class SlotChangeInputSerializer(serializers.Serializer):
    amount = serializers.DecimalField(**AMOUNT)
    given = serializers.ChoiceField(choices=ChangeMovement.Given.choices)
    tendered = EstablishmentPK(
        queryset=CounterfeitItem.objects.all(),
        required=False,
        allow_null=True,
        help_text="FR: an item of the counterfeit box the player tenders (refused)",
    )
    account = serializers.ChoiceField(
        choices=[("table", "table"), ("slot", "slot")],
        required=False,
        allow_blank=True,
        help_text="FR common desk: the account posted to",
    )


class SlotChangeMovementSerializer(serializers.ModelSerializer):
    class Meta:
        model = ChangeMovement
        fields = (
            "id",
            "assignment",
            "kind",
            "amount",
            "given",
            "cash",
            "chips",
            "counterpart",
            "recorded_at",
            "recorded_by",
        )


class SlotJustifyInputSerializer(serializers.Serializer):
    items = serializers.DictField(
        child=serializers.DecimalField(**AMOUNT), help_text="item → amount: " + ", ".join(cashdesk.JUSTIFICATION_ITEMS)
    )


class SlotJustificationSerializer(serializers.ModelSerializer):
    class Meta:
        model = EncaisseJustification
        fields = (
            "id",
            "assignment",
            "items",
            "total",
            "expected",
            "difference",
            "open_bons",
            "justified_at",
            "justified_by",
        )


class SlotRestoreInputSerializer(serializers.Serializer):
    cash = serializers.DecimalField(default=0, **SIGNED)
    chips = serializers.DecimalField(default=0, **SIGNED)
    counterpart = serializers.ChoiceField(choices=ChangeMovement.Counterpart.choices)


class SlotAssignmentCloseInputSerializer(serializers.Serializer):
    cash = serializers.DecimalField(**AMOUNT)
    chips = serializers.DecimalField(**AMOUNT)


class PointView(ServiceAction):
    """An act at the change point in the URL."""

    queryset = ChangePoint.objects.all()


class AssignmentView(ServiceAction):
    """An act on the assignment in the URL."""

    queryset, scope = ChangeAssignment.objects.all(), "point__establishment"


class ChangePointView(ServiceAction):
    input_serializer, output_serializer = SlotChangePointInputSerializer, SlotChangePointSerializer

    def perform(self, data):
        return cashdesk.change_point_create(establishment=self.establishment, actor=self.request.user, **data)


class AssignView(PointView):
    input_serializer, output_serializer = SlotAssignInputSerializer, SlotAssignmentSerializer

    def perform(self, data, pk):
        return cashdesk.change_assign(
            point=self.get_object(),
            seance=data["seance"],
            person=_member(self.establishment, data["person"]),
            actor=self.request.user,
        )


class ChangeView(PointView):
    input_serializer, output_serializer = SlotChangeInputSerializer, SlotChangeMovementSerializer

    def perform(self, data, pk):
        return cashdesk.change_record(point=self.get_object(), actor=self.request.user, **data)


class JustifyView(AssignmentView):
    input_serializer, output_serializer = SlotJustifyInputSerializer, SlotJustificationSerializer

    def perform(self, data, pk):
        return cashdesk.encaisse_justify(assignment=self.get_object(), items=data["items"], actor=self.request.user)


class RestoreView(AssignmentView):
    input_serializer, output_serializer = SlotRestoreInputSerializer, SlotChangeMovementSerializer

    def perform(self, data, pk):
        return cashdesk.encaisse_restore(assignment=self.get_object(), actor=self.request.user, **data)


class AssignmentCloseView(AssignmentView):
    input_serializer, output_serializer = SlotAssignmentCloseInputSerializer, SlotAssignmentSerializer

    def perform(self, data, pk):
        return cashdesk.change_assignment_close(assignment=self.get_object(), actor=self.request.user, **data)


class SlotCounterfeitInputSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=CounterfeitItem.Kind.choices)
    description = serializers.CharField(max_length=200)
    quantity = serializers.IntegerField(min_value=1, max_value=10**5)
    found_during = serializers.ChoiceField(choices=CounterfeitItem.FoundDuring.choices)
    found_by = serializers.IntegerField(min_value=1, max_value=2**31 - 1, help_text="the finder's user id")


class SlotCounterfeitSerializer(serializers.ModelSerializer):
    class Meta:
        model = CounterfeitItem
        fields = (
            "id",
            "kind",
            "description",
            "quantity",
            "found_during",
            "found_at",
            "found_by",
            "deposited_by",
            "destruction",
        )


class SlotDestructionInputSerializer(serializers.Serializer):
    controller_name = serializers.CharField(max_length=200)


class SlotDestructionSerializer(serializers.ModelSerializer):
    class Meta:
        model = CounterfeitDestruction
        fields = ("id", "year_end", "destroyed_at", "controller_name", "recorded_by")


class CounterfeitView(ServiceAction):
    input_serializer, output_serializer = SlotCounterfeitInputSerializer, SlotCounterfeitSerializer

    def perform(self, data):
        return cashdesk.counterfeit_deposit(
            establishment=self.establishment,
            actor=self.request.user,
            **{**data, "found_by": _member(self.establishment, data["found_by"])},
        )


class DestructionView(ServiceAction):
    input_serializer, output_serializer = SlotDestructionInputSerializer, SlotDestructionSerializer

    def perform(self, data):
        return cashdesk.counterfeit_destroy(establishment=self.establishment, actor=self.request.user, **data)


class SlotCommonDeskInputSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=100)
    route = serializers.ChoiceField(choices=CommonDeskValidation.Route.choices)
    contiguous_tables = serializers.BooleanField()
    validation_reference = serializers.CharField(max_length=100, allow_blank=True)
    validation_date = DateField()
    validator_name = serializers.CharField(max_length=200, allow_blank=True)
    cash = serializers.DecimalField(default=0, **AMOUNT)
    chips = serializers.DecimalField(default=0, **AMOUNT)


class SlotCommonDeskSerializer(serializers.ModelSerializer):
    class Meta:
        model = CommonDeskValidation
        fields = (
            "id",
            "point",
            "route",
            "machines",
            "contiguous_tables",
            "validation_reference",
            "validation_date",
            "validator_name",
            "recorded_at",
            "recorded_by",
        )


class CommonDeskView(ServiceAction):
    input_serializer, output_serializer = SlotCommonDeskInputSerializer, SlotCommonDeskSerializer

    def perform(self, data):
        return cashdesk.common_desk_enable(establishment=self.establishment, actor=self.request.user, **data)


class SlotStaffingInputSerializer(serializers.Serializer):
    date = DateField()
    comite = serializers.IntegerField(min_value=1, max_value=2**31 - 1, help_text="the comité member's user id")
    cashier = serializers.IntegerField(min_value=1, max_value=2**31 - 1, help_text="the cashier's user id")
    maintainer = serializers.IntegerField(
        min_value=1,
        max_value=2**31 - 1,
        required=False,
        allow_null=True,
        help_text="the mechanic's (or trained employee's) user id; required above SET-43 machines",
    )
    training = serializers.CharField(
        max_length=200,
        required=False,
        allow_blank=True,
        help_text="the trained employee's prior training (at most SET-43 machines)",
    )


class SlotStaffingSerializer(serializers.ModelSerializer):
    class Meta:
        model = SlotStaffing
        fields = (
            "id",
            "date",
            "machines",
            "comite",
            "comite_approval",
            "cashier",
            "cashier_approval",
            "maintainer",
            "maintainer_role",
            "maintainer_approval",
            "training",
            "recorded_at",
            "recorded_by",
        )


class StaffingView(ServiceAction):
    """FR SLOT-50: the day's slot-room staffing, before the séance opens."""

    input_serializer, output_serializer = SlotStaffingInputSerializer, SlotStaffingSerializer

    def perform(self, data):
        est = self.establishment
        people = {key: _member(est, data.get(key)) for key in ("comite", "cashier", "maintainer")}
        return staffing.staffing_record(
            establishment=est, date=data["date"], actor=self.request.user, training=data.get("training", ""), **people
        )
