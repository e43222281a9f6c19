"""Serializers of the dice API: they validate input and resolve references (numéros d'ordre,
location codes, pair numbers) inside the caller's establishment, and shape the output."""

from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from ledgers.core.api.fields import DateField, DateTimeField
from ledgers.core.api.scoping import EstablishmentPK
from ledgers.core.countersign import countersignature_inputs
from ledgers.core.models import Location, TableSession
from ledgers.custody.models import DestructionSession, PurchaseOrder, Supplier
from ledgers.incidents.models import IncidentNotice

from ..domains import DICE
from ..models import AllocatedDie, DiceAllocation, DiceCheck, DicePair, DiceSwap, Die
from ..rules import CHECKLIST
from ..services import DieInput, DieResult, Result, WithdrawReason

# --- output ----------------------------------------------------------------------------------


class DieSerializer(serializers.ModelSerializer):
    pair = serializers.IntegerField(source="pair.number", default=None, read_only=True)
    location = serializers.CharField(source="location.code", default=None, read_only=True)
    is_new = serializers.BooleanField(read_only=True)

    class Meta:
        model = Die
        fields = (
            "id",
            "serial",
            "sigle",
            "colour",
            "side_mm",
            "pair",
            "status",
            "play_role",
            "is_new",
            "services",
            "location",
            "table_session",
            "received_at",
            "purchase_order",
        )


class AllocatedDieSerializer(serializers.ModelSerializer):
    serial = serializers.CharField(source="die.serial")
    sigle = serializers.CharField(source="die.sigle")

    class Meta:
        model = AllocatedDie
        fields = ("serial", "sigle", "role")


class EntryRefMixin(serializers.Serializer):
    register = serializers.CharField(source="entry.register.number", read_only=True)
    entry_seq = serializers.IntegerField(source="entry.seq", read_only=True)


class AllocationSerializer(EntryRefMixin, serializers.ModelSerializer):
    signed_by = serializers.CharField(source="signed_by.username")
    lines = AllocatedDieSerializer(many=True)

    class Meta:
        model = DiceAllocation
        fields = (
            "id",
            "table_session",
            "kind",
            "recorded_at",
            "recorded_role",
            "signed_by",
            "signed_role",
            "flags",
            "observations",
            "lines",
            "register",
            "entry_seq",
        )


class SwapSerializer(EntryRefMixin, serializers.ModelSerializer):
    class Meta:
        model = DiceSwap
        fields = (
            "id",
            "table_session",
            "swapped_at",
            "reason",
            "withdrawn",
            "brought_in",
            "damaged",
            "during_rampo_attempt",
            "observations",
            "incident",
            "register",
            "entry_seq",
        )


class CheckSerializer(EntryRefMixin, serializers.ModelSerializer):
    checker = serializers.CharField(source="checker.username")
    cosigner = serializers.CharField(source="cosigner.username", default=None)

    class Meta:
        model = DiceCheck
        fields = (
            "id",
            "table_session",
            "checked_at",
            "checker",
            "checker_role",
            "cosigner",
            "cosigner_role",
            "results",
            "instruments",
            "observations",
            "incident",
            "register",
            "entry_seq",
        )


class DestructionSerializer(serializers.ModelSerializer):
    dice = serializers.SerializerMethodField()

    class Meta:
        model = DestructionSession
        fields = (
            "id",
            "method",
            "status",
            "planned_at",
            "notified_at",
            "performed_at",
            "officer",
            "inspector",
            "witness",
            "witness_role",
            "checks",
            "observations",
            "dice",
        )

    def get_dice(self, obj) -> list[str]:
        return list(
            Die.objects.filter(pk__in=obj.items.values_list("object_id", flat=True))
            .order_by("serial")
            .values_list("serial", flat=True)
        )


class OrderSerializer(serializers.ModelSerializer):
    class Meta:
        model = PurchaseOrder
        fields = (
            "id",
            "carnet",
            "number",
            "supplier",
            "lines",
            "status",
            "issued_at",
            "visa_by",
            "visa_role",
            "visa_at",
            "visa_statement",
            "sent_at",
        )


class DiceSupplierSerializer(serializers.ModelSerializer):
    class Meta:
        model = Supplier
        fields = ("id", "name", "approval_reference", "approval_issuer", "approved_from", "approved_until")


class VerificationResultSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    verified_at = DateTimeField()
    discrepancy = serializers.BooleanField()
    incident = serializers.IntegerField(source="incident_id", allow_null=True)
    lines = serializers.JSONField()


# --- references ------------------------------------------------------------------------------


class SerialsField(serializers.ListField):
    """Numéros d'ordre → dice of the establishment (400 for an unknown one)."""

    child = serializers.CharField()

    def to_internal_value(self, data):
        serials = super().to_internal_value(data)
        found = {
            d.serial: d for d in Die.objects.filter(establishment=self.context["establishment"], serial__in=serials)
        }
        unknown = [s for s in serials if s not in found]
        if unknown:
            raise serializers.ValidationError(_("Numéro d'ordre inconnu : %(s)s.") % {"s": ", ".join(unknown)})
        return [found[s] for s in serials]


class LocationField(serializers.SlugRelatedField):
    def __init__(self, **kwargs):
        super().__init__(slug_field="code", queryset=Location.objects.all(), **kwargs)

    def get_queryset(self):
        return Location.objects.filter(establishment=self.context["establishment"])


def with_fields(name: str, base: type, fields: dict) -> type:
    return type(name, (base,), dict(fields))


# --- input -----------------------------------------------------------------------------------


class DieInputSerializer(serializers.Serializer):
    serial = serializers.CharField(allow_blank=True)
    sigle = serializers.CharField(allow_blank=True)
    colour = serializers.CharField(required=False, allow_blank=True, default="")
    side_mm = serializers.DecimalField(max_digits=5, decimal_places=2, required=False, allow_null=True, default=None)
    pair = serializers.CharField(required=False, allow_blank=True, default="")
    inspection = serializers.DictField(child=serializers.BooleanField(), help_text=", ".join(CHECKLIST))

    def to_internal_value(self, data):
        return DieInput(**super().to_internal_value(data))


class DiceReceiptInput(serializers.Serializer):
    location = LocationField()
    order = EstablishmentPK(PurchaseOrder.objects.filter(domain=DICE.code), required=False, allow_null=True)
    supplier = EstablishmentPK(Supplier.objects.filter(domain=DICE.code), required=False, allow_null=True)
    delivery_note = serializers.CharField(required=False, allow_blank=True, default="")
    dice = DieInputSerializer(many=True)


class PairsCapInput(serializers.Serializer):
    max_pairs = serializers.IntegerField(min_value=1)
    reference = serializers.CharField()


class PairsField(serializers.ListField):
    child = serializers.IntegerField()

    def to_internal_value(self, data):
        numbers = super().to_internal_value(data)
        found = {
            p.number: p
            for p in DicePair.objects.filter(establishment=self.context["establishment"], number__in=numbers)
        }
        unknown = [str(n) for n in numbers if n not in found]
        if unknown:
            raise serializers.ValidationError(_("Paire inconnue : %(s)s.") % {"s": ", ".join(unknown)})
        return [found[n] for n in numbers]


AllocationInput = with_fields(
    "AllocationInput",
    serializers.Serializer,
    {
        "table_session": EstablishmentPK(TableSession.objects.all(), "seance__establishment"),
        "dice": SerialsField(required=False, default=list),
        "pairs": PairsField(
            required=False, default=list, help_text=_("Rampo : la paire en jeu puis la paire de réserve.")
        ),
        "supplementary": serializers.BooleanField(required=False, default=False),
        "observations": serializers.CharField(required=False, allow_blank=True, default=""),
        **countersignature_inputs("signer", required=False),
    },
)


class SwapInput(serializers.Serializer):
    table_session = EstablishmentPK(TableSession.objects.all(), "seance__establishment")
    brought_in = SerialsField()
    withdrawn = SerialsField(required=False, default=list)
    damaged = SerialsField(required=False, default=list)
    reason = serializers.ChoiceField(choices=DiceSwap.Reason.choices)
    during_rampo_attempt = serializers.BooleanField(required=False, default=False)
    observations = serializers.CharField(required=False, allow_blank=True, default="")


class ResultInput(serializers.Serializer):
    serial = serializers.CharField()
    result = serializers.ChoiceField(choices=[c for c, _label in Result.CHOICES], default=Result.OK)
    micrometer = serializers.CharField(required=False, allow_blank=True, default="")
    square_ok = serializers.BooleanField(required=False, allow_null=True, default=None)
    balance_ok = serializers.BooleanField(required=False, allow_null=True, default=None)
    remark = serializers.CharField(required=False, allow_blank=True, default="")


EndCheckInput = with_fields(
    "EndCheckInput",
    serializers.Serializer,
    {
        "table_session": EstablishmentPK(TableSession.objects.all(), "seance__establishment"),
        "return_to": LocationField(),
        "results": ResultInput(many=True),
        "instruments": serializers.DictField(
            child=serializers.CharField(allow_blank=True),
            required=False,
            default=dict,
            help_text="micrometer, square, balance",
        ),
        "observations": serializers.CharField(required=False, allow_blank=True, default=""),
        **countersignature_inputs("cosigner", required=False),
    },
)


def results_of(data: dict, est) -> list[DieResult]:
    serials = [row["serial"] for row in data["results"]]
    found = {d.serial: d for d in Die.objects.filter(establishment=est, serial__in=serials)}
    unknown = [s for s in serials if s not in found]
    if unknown:
        raise serializers.ValidationError({"results": _("Numéro d'ordre inconnu : %(s)s.") % {"s": ", ".join(unknown)}})
    return [DieResult(die=found[row.pop("serial")], **row) for row in data["results"]]


class DiceWithdrawInput(serializers.Serializer):
    dice = SerialsField()
    reason = serializers.ChoiceField(choices=[c for c, _label in WithdrawReason.CHOICES])
    observations = serializers.CharField(required=False, allow_blank=True, default="")


class DiceTransferInput(serializers.Serializer):
    dice = SerialsField()
    to_location = LocationField()
    received_by = serializers.CharField(required=False, allow_blank=True, default="")


class DayCloseInput(serializers.Serializer):
    date = DateField()


class DiceSupplierApprovalInput(serializers.Serializer):
    """A supplier's approval as it now stands (DICE-15)."""

    approval_reference = serializers.CharField()
    approval_issuer = serializers.CharField(required=False, allow_blank=True, default="")
    approved_from = DateField(required=False, allow_null=True, default=None)
    approved_until = DateField(required=False, allow_null=True, default=None)


class DiceSupplierInput(DiceSupplierApprovalInput):
    name = serializers.CharField()
    approval_reference = serializers.CharField(required=False, allow_blank=True, default="")


class DiceOrderInput(serializers.Serializer):
    supplier = EstablishmentPK(Supplier.objects.filter(domain=DICE.code))
    carnet = serializers.CharField(required=False, allow_blank=True, default="")
    quantity = serializers.IntegerField(min_value=1, help_text=_("Nombre de dés (rampo : deux par paire)."))


class DiceOrderVisaInput(serializers.Serializer):
    statement = serializers.CharField(required=False, allow_blank=True, default="")


class DiceDestructionPlanInput(serializers.Serializer):
    dice = SerialsField()
    method = serializers.ChoiceField(
        choices=DestructionSession.Method.choices, default=DestructionSession.Method.DESTRUCTION
    )
    planned_at = DateTimeField()


class DiceDestructionNotifyInput(serializers.Serializer):
    """The notice is recorded at the time it is given (the request's)."""

    channel = serializers.ChoiceField(choices=IncidentNotice.Channel.choices)
    reference = serializers.CharField(required=False, allow_blank=True, default="")


DiceDestructionCompleteInput = with_fields(
    "DiceDestructionCompleteInput",
    serializers.Serializer,
    {
        "loaded": serializers.BooleanField(required=False, allow_null=True, default=None),
        "tampered": serializers.BooleanField(required=False, allow_null=True, default=None),
        "police_service": serializers.CharField(required=False, allow_blank=True, default=""),
        "observations": serializers.CharField(required=False, allow_blank=True, default=""),
        **countersignature_inputs("witness", required=False),
        **countersignature_inputs("inspector", required=False),
    },
)


class DiceCountInput(serializers.Serializer):
    location = serializers.CharField(allow_null=True, help_text=_("Code de l'emplacement ; null pour les tables."))
    count = serializers.IntegerField(min_value=0)


class DiceVerificationInput(serializers.Serializer):
    counted = DiceCountInput(many=True)
    opened_by = serializers.CharField(required=False, allow_blank=True, default="")
    remarks = serializers.CharField(required=False, allow_blank=True, default="")
    orders_seen = serializers.ListField(child=serializers.IntegerField(), required=False, default=list)
