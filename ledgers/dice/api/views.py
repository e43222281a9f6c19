"""Dice API: read endpoints and one endpoint per flow. Each action validates its input, calls one
service and answers 201 with the object; rule violations answer 409 {"code", "article",
"detail"}."""

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from ledgers.core.api.actions import service_action as action
from ledgers.core.api.fields import DateField
from ledgers.core.api.scoping import EstablishmentReadOnlyViewSet, EstablishmentScoped
from ledgers.core.countersign import countersigner_from
from ledgers.core.models import Establishment, Location
from ledgers.custody import services as custody
from ledgers.custody.models import DestructionSession, PurchaseOrder, Supplier

from .. import selectors, services
from ..domains import DICE
from ..models import DiceAllocation, DiceCheck, DiceSwap, Die
from . import serializers as s


class DieViewSet(EstablishmentReadOnlyViewSet):
    """The dice of the establishment (filter by status, location code, numéro d'ordre)."""

    queryset = Die.objects.all()
    serializer_class = s.DieSerializer
    filterset_fields = {
        "status": ["exact"],
        "serial": ["exact", "icontains"],
        "location__code": ["exact"],
        "services": ["exact"],
        "table_session": ["exact"],
    }

    def scoped_queryset(self):
        return selectors.dice_of(self.establishment)


class AllocationViewSet(EstablishmentReadOnlyViewSet):
    queryset = DiceAllocation.objects.select_related("signed_by", "entry__register").prefetch_related("lines__die")
    serializer_class = s.AllocationSerializer
    filterset_fields = ("table_session", "kind")


class SwapViewSet(EstablishmentReadOnlyViewSet):
    queryset = DiceSwap.objects.select_related("entry__register")
    serializer_class = s.SwapSerializer
    filterset_fields = ("table_session", "reason")


class CheckViewSet(EstablishmentReadOnlyViewSet):
    queryset = DiceCheck.objects.select_related("checker", "cosigner", "entry__register")
    serializer_class = s.CheckSerializer
    filterset_fields = ("table_session",)


class DestructionViewSet(EstablishmentReadOnlyViewSet):
    queryset = DestructionSession.objects.all()
    serializer_class = s.DestructionSerializer
    filterset_fields = ("status",)

    def scoped_queryset(self):
        return selectors.destruction_sessions(self.establishment)


class StockView(EstablishmentScoped, APIView):
    @extend_schema(responses=dict)
    def get(self, request: Request) -> Response:
        """On-demand statement: per place, book stock, located dice, FR pairs held, destruction queue."""
        statement = selectors.stock_statement(self.establishment)
        return Response(
            {
                "lines": [
                    {
                        "place": line.place,
                        "new": line.new,
                        "used": line.used,
                        "damaged": line.damaged,
                        "at_table": line.at_table,
                        "total": line.total,
                    }
                    for line in statement.lines
                ],
                "book": statement.book,
                "located": statement.located,
                "balanced": statement.balanced,
                "pairs_held": statement.pairs_held,
                "pairs_max": statement.pairs_max,
                "pairs_reference": statement.pairs_reference,
                "destruction_queue": statement.queue,
                "quarantined": statement.quarantined,
            }
        )


# --- actions -------------------------------------------------------------------------------------


def _receive(request, est, data):
    return services.dice_receive(establishment=est, actor=request.user, **data)


def _pairs_cap(request, est, data):
    est = services.dice_pairs_cap_set(establishment=est, actor=request.user, **data)
    return {"pairs_held": selectors.pairs_held(est), "pairs_max": est.setting("SET-14")["max_pairs"]}


def _allocate(request, est, data):
    return services.dice_allocate(
        session=data["table_session"],
        actor=request.user,
        signer=countersigner_from(request, data, "signer"),
        dice=data["dice"],
        pairs=data["pairs"],
        supplementary=data["supplementary"],
        observations=data["observations"],
    )


def _swap(request, est, data):
    return services.dice_swap(session=data.pop("table_session"), actor=request.user, **data)


def _end_check(request, est, data):
    return services.dice_end_check(
        session=data["table_session"],
        results=s.results_of(data, est),
        actor=request.user,
        return_to=data["return_to"],
        observations=data["observations"],
        instruments=data["instruments"],
        cosigner=countersigner_from(request, data, "cosigner"),
    )


def _withdraw(request, est, data):
    return services.dice_withdraw(actor=request.user, **data)


def _transfer(request, est, data):
    return custody.items_transfer(
        domain=DICE,
        items=data["dice"],
        to_location=data["to_location"],
        actor=request.user,
        received_by=data["received_by"],
    )


def _day_close(request, est, data):
    days = custody.depot_day_close(domain=DICE, establishment=est, date=data["date"], actor=request.user)
    return [
        {
            "depot": day.location.code,
            "date": day.date,
            "opening": day.opening,
            "in": day.transfers_in,
            "out": day.transfers_out,
            "closing": day.closing,
        }
        for day in days
    ]


def _supplier(request, est, data):
    return custody.supplier_register(establishment=est, domain=DICE, actor=request.user, **data)


def _supplier_approval(request, est, data, pk):
    """The supplier's approval renewed or first given (DICE-15): a line of the carnet of orders."""
    supplier = get_object_or_404(Supplier, pk=pk, establishment=est, domain=DICE.code)
    return custody.supplier_approval_change(supplier=supplier, actor=request.user, **data)


def _order(request, est, data):
    lines = [{"category": "des", "quantity": data["quantity"]}]
    return custody.purchase_order_issue(
        establishment=est,
        domain=DICE,
        supplier=data["supplier"],
        carnet=data["carnet"],
        lines=lines,
        actor=request.user,
    )


def _order_of(est: Establishment, pk: int) -> PurchaseOrder:
    return get_object_or_404(PurchaseOrder, pk=pk, establishment=est, domain=DICE.code)


def _order_visa(request, est, data, pk):
    return custody.purchase_order_visa(order=_order_of(est, pk), actor=request.user, statement=data["statement"])


def _order_send(request, est, data, pk):
    return custody.purchase_order_send(order=_order_of(est, pk), domain=DICE, actor=request.user)


def _destruction_plan(request, est, data):
    return services.dice_destruction_plan(establishment=est, actor=request.user, **data)


def _destruction_of(est: Establishment, pk: int):
    return get_object_or_404(selectors.destruction_sessions(est), pk=pk)


def _destruction_notify(request, est, data, pk):
    return custody.destruction_notify(session=_destruction_of(est, pk), actor=request.user, **data)


def _destruction_complete(request, est, data, pk):
    return services.dice_destruction_complete(
        session=_destruction_of(est, pk),
        actor=request.user,
        witness=countersigner_from(request, data, "witness"),
        inspector=countersigner_from(request, data, "inspector"),
        loaded=data["loaded"],
        tampered=data["tampered"],
        police_service=data["police_service"],
        observations=data["observations"],
    )


def _verification(request, est, data):
    codes = dict(Location.objects.filter(establishment=est).values_list("code", "pk"))
    unknown = [row["location"] for row in data["counted"] if row["location"] and row["location"] not in codes]
    if unknown:
        raise ValidationError({"counted": f"Emplacement inconnu : {', '.join(unknown)}"})
    counted = {(codes.get(row["location"]), "des"): row["count"] for row in data["counted"]}
    orders = list(PurchaseOrder.objects.filter(establishment=est, domain=DICE.code, pk__in=data["orders_seen"]))
    return custody.stock_verification_record(
        domain=DICE,
        establishment=est,
        counted=counted,
        actor=request.user,
        opened_by=data["opened_by"],
        remarks=data["remarks"],
        orders_seen=orders,
    )


class DayCloseOutput(serializers.Serializer):
    depot = serializers.CharField()
    date = DateField()
    opening = serializers.JSONField()
    closing = serializers.JSONField()


class PairsCapOutput(serializers.Serializer):
    pairs_held = serializers.IntegerField()
    pairs_max = serializers.IntegerField()


ReceiveView = action("ReceiveView", s.DiceReceiptInput, s.DieSerializer, _receive, many=True)
PairsCapView = action("PairsCapView", s.PairsCapInput, PairsCapOutput, _pairs_cap)
AllocateView = action("AllocateView", s.AllocationInput, s.AllocationSerializer, _allocate)
SwapView = action("SwapView", s.SwapInput, s.SwapSerializer, _swap)
EndCheckView = action("EndCheckView", s.EndCheckInput, s.CheckSerializer, _end_check)
WithdrawView = action("WithdrawView", s.DiceWithdrawInput, s.DieSerializer, _withdraw, many=True)
TransferView = action("TransferView", s.DiceTransferInput, s.DieSerializer, _transfer, many=True)
DayCloseView = action("DayCloseView", s.DayCloseInput, DayCloseOutput, _day_close, many=True)
SupplierCreateView = action("SupplierCreateView", s.DiceSupplierInput, s.DiceSupplierSerializer, _supplier)
SupplierApprovalView = action(
    "SupplierApprovalView", s.DiceSupplierApprovalInput, s.DiceSupplierSerializer, _supplier_approval
)
OrderCreateView = action("OrderCreateView", s.DiceOrderInput, s.OrderSerializer, _order)
OrderVisaView = action("OrderVisaView", s.DiceOrderVisaInput, s.OrderSerializer, _order_visa)
OrderSendView = action("OrderSendView", s.DiceOrderVisaInput, s.OrderSerializer, _order_send)
DestructionPlanView = action(
    "DestructionPlanView", s.DiceDestructionPlanInput, s.DestructionSerializer, _destruction_plan
)
DestructionNotifyView = action(
    "DestructionNotifyView", s.DiceDestructionNotifyInput, s.DestructionSerializer, _destruction_notify
)
DestructionCompleteView = action(
    "DestructionCompleteView", s.DiceDestructionCompleteInput, s.DestructionSerializer, _destruction_complete
)
VerificationView = action("VerificationView", s.DiceVerificationInput, s.VerificationResultSerializer, _verification)
