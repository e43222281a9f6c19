"""Card API: read endpoints and one POST endpoint per flow. Views call the services; a rule of the
texts answers 409 {code, article, detail}, a role 403, bad input 400."""

from django_filters import rest_framework as filters
from drf_spectacular.utils import extend_schema
from rest_framework import generics
from rest_framework.response import Response
from rest_framework.views import APIView

from ledgers.core.api.actions import NoInput, ServiceAction
from ledgers.core.api.scoping import EstablishmentScoped
from ledgers.custody import services as custody
from ledgers.custody.models import DestructionSession, PurchaseOrder, StockVerification, Supplier
from ledgers.incidents.api.serializers import IncidentRefSerializer

from .. import selectors, services
from ..deck_rules import rules_table
from ..domains import CARDS
from ..models import CardEvent, CardExchange, CardUnit
from . import serializers as s

# --- Reads -----------------------------------------------------------------------------------


class UnitFilter(filters.FilterSet):
    serial = filters.CharFilter(lookup_expr="icontains")

    class Meta:
        model = CardUnit
        fields = ["serial", "status", "unit_type", "category", "location", "table_session", "parent"]


class UnitList(EstablishmentScoped, generics.ListAPIView):
    queryset = CardUnit.objects.all()
    serializer_class = s.CardUnitSerializer
    filterset_class = UnitFilter

    def scoped_queryset(self):
        return selectors.units_of(self.establishment)


class UnitDetail(EstablishmentScoped, generics.RetrieveAPIView):
    queryset = CardUnit.objects.all()
    serializer_class = s.CardUnitSerializer

    def scoped_queryset(self):
        return selectors.units_of(self.establishment)


class EventList(EstablishmentScoped, generics.ListAPIView):
    queryset = CardEvent.objects.select_related("entry__register", "actor")
    serializer_class = s.CardEventSerializer
    filterset_fields = ["kind", "unit", "table_session", "ok"]


class ExchangeList(EstablishmentScoped, generics.ListAPIView):
    queryset = CardExchange.objects.all()
    serializer_class = s.CardExchangeSerializer


class OrderList(EstablishmentScoped, generics.ListAPIView):
    queryset = PurchaseOrder.objects.all()
    serializer_class = s.PurchaseOrderSerializer

    def scoped_queryset(self):
        return selectors.purchase_orders(self.establishment)


class DestructionList(EstablishmentScoped, generics.ListAPIView):
    queryset = DestructionSession.objects.all()
    serializer_class = s.DestructionSessionSerializer

    def scoped_queryset(self):
        return selectors.destruction_sessions(self.establishment)


class VerificationList(EstablishmentScoped, generics.ListAPIView):
    queryset = StockVerification.objects.filter(domain=CARDS.code)
    serializer_class = s.StockVerificationSerializer


class StockView(EstablishmentScoped, APIView):
    @extend_schema(responses=s.StockStatementSerializer)
    def get(self, request):
        return Response(s.StockStatementSerializer(selectors.stock_statement(self.establishment)).data)


class ExceptionsView(EstablishmentScoped, APIView):
    @extend_schema(responses=s.FlagSerializer(many=True))
    def get(self, request):
        return Response(s.FlagSerializer(selectors.exceptions(self.establishment), many=True).data)


class RulesView(EstablishmentScoped, APIView):
    @extend_schema(responses=s.DeckRuleSerializer(many=True))
    def get(self, request):
        rows = [
            {
                "game": label,
                "requirement": r.requirement,
                "compositions": r.describe(),
                "freshness": r.freshness,
                "whole_sixain": r.whole_sixain,
                "plain_back": r.plain_back,
                "direction_fixed": r.direction_fixed,
            }
            for label, r in rules_table(self.establishment)
        ]
        return Response(s.DeckRuleSerializer(rows, many=True).data)


# --- Flows -----------------------------------------------------------------------------------


def flow(input_serializer, output_serializer=s.CardUnitSerializer, many=False, countersigners=()):
    """A flow endpoint: its input, its output and who signs (see ``ServiceAction``)."""

    def declare(view):
        view.input_serializer, view.output_serializer, view.many = input_serializer, output_serializer, many
        view.countersigners = countersigners
        return view

    return declare


@flow(s.SupplierInput, s.SupplierSerializer)
class SupplierCreate(ServiceAction):
    def perform(self, data, **kwargs):
        return custody.supplier_register(
            establishment=self.establishment, domain=CARDS, actor=self.request.user, **data
        )


@flow(s.SupplierApprovalInput, s.SupplierSerializer)
class SupplierApproval(ServiceAction):
    """The maker's approval renewed or first given (CARD-32): a line of the carnet of orders."""

    queryset = Supplier.objects.filter(domain=CARDS.code)

    def perform(self, data, **kwargs):
        return custody.supplier_approval_change(supplier=self.get_object(), actor=self.request.user, **data)


@flow(s.OrderInput, s.PurchaseOrderSerializer)
class OrderCreate(ServiceAction):
    def perform(self, data, **kwargs):
        lines = [dict(line) for line in data["lines"]]
        return custody.purchase_order_issue(
            establishment=self.establishment,
            domain=CARDS,
            supplier=data["supplier"],
            lines=lines,
            carnet=data["carnet"],
            number=data["number"],
            actor=self.request.user,
        )


class OrderMixin:
    queryset = PurchaseOrder.objects.all()

    def scoped_queryset(self):
        return selectors.purchase_orders(self.establishment)


@flow(s.OrderVisaInput, s.PurchaseOrderSerializer)
class OrderVisa(OrderMixin, ServiceAction):
    def perform(self, data, **kwargs):
        return custody.purchase_order_visa(
            order=self.get_object(), actor=self.request.user, statement=data["statement"]
        )


@flow(NoInput, s.PurchaseOrderSerializer)
class OrderSend(OrderMixin, ServiceAction):
    def perform(self, data, **kwargs):
        return custody.purchase_order_send(order=self.get_object(), domain=CARDS, actor=self.request.user)


@flow(s.ReceiptInput, many=True)
class Receipt(ServiceAction):
    def perform(self, data, **kwargs):
        units = [
            services.ReceivedUnit(**{**u, "decks": tuple(services.ReceivedDeck(**d) for d in u["decks"])})
            for u in data["units"]
        ]
        return services.cards_receive(
            establishment=self.establishment,
            location=data["location"],
            supplier=data["supplier"],
            units=units,
            actor=self.request.user,
            order=data["order"],
            delivery_note=data["delivery_note"],
        )


@flow(s.TransferInput, many=True)
class Transfer(ServiceAction):
    def perform(self, data, **kwargs):
        return custody.items_transfer(
            domain=CARDS,
            items=list(data["units"]),
            to_location=data["to_location"],
            actor=self.request.user,
            received_by=data["received_by"],
        )


class DepotDaySerializer(s.serializers.Serializer):
    location = s.serializers.CharField()
    date = s.DateField()
    opening = s.serializers.DictField()
    transfers_in = s.serializers.DictField()
    transfers_out = s.serializers.DictField()
    closing = s.serializers.DictField()


@flow(s.DepotDayInput, DepotDaySerializer, many=True)
class DepotDayClose(ServiceAction):
    def perform(self, data, **kwargs):
        return custody.depot_day_close(
            domain=CARDS, establishment=self.establishment, date=data["date"], actor=self.request.user
        )


@flow(s.IssueInput, many=True)
class Issue(ServiceAction):
    def perform(self, data, **kwargs):
        return services.cards_issue(
            table_session=data["table_session"],
            units=list(data["units"]),
            actor=self.request.user,
            received_by=data["received_by"],
        )


@flow(s.UnsealInput)
class Unseal(ServiceAction):
    def perform(self, data, **kwargs):
        return services.cards_unseal(actor=self.request.user, **data)


@flow(s.TableControlInput)
class TableControl(ServiceAction):
    def perform(self, data, **kwargs):
        return services.cards_table_control(actor=self.request.user, **data)


@flow(s.ControlInput)
class FirstControl(ServiceAction):
    def perform(self, data, **kwargs):
        return services.cards_first_control(actor=self.request.user, **data)


@flow(s.ControlInput)
class PostControl(ServiceAction):
    def perform(self, data, **kwargs):
        return services.cards_post_control(actor=self.request.user, **data)


@flow(s.PAEPrepareInput, many=True)
class PAEPrepare(ServiceAction):
    def perform(self, data, **kwargs):
        return services.cards_pae_prepare(actor=self.request.user, **{**data, "units": list(data["units"])})


@flow(s.PAEConfirmInput)
class PAEConfirm(ServiceAction):
    def perform(self, data, **kwargs):
        return services.cards_pae_confirm(actor=self.request.user, **data)


class DesignationSerializer(s.serializers.Serializer):
    id = s.serializers.IntegerField()
    seance = s.serializers.IntegerField(source="seance_id")
    room = s.serializers.IntegerField(source="room_id")
    unit = s.serializers.IntegerField(source="unit_id")


@flow(s.DesignateInput, DesignationSerializer)
class Designate(ServiceAction):
    def perform(self, data, **kwargs):
        return services.cards_replacement_designate(actor=self.request.user, **data)


@flow(s.ExchangeInput, s.CardExchangeSerializer)
class Exchange(ServiceAction):
    def perform(self, data, **kwargs):
        return services.cards_exchange(actor=self.request.user, **data)


@flow(s.ReconcileInput, s.CardExchangeSerializer)
class Reconcile(ServiceAction):
    queryset = CardExchange.objects.all()

    def perform(self, data, **kwargs):
        return services.cards_exchange_reconcile(exchange=self.get_object(), actor=self.request.user, note=data["note"])


@flow(s.ReturnInput, many=True, countersigners=("signer",))
class Return(ServiceAction):
    def perform(self, data, **kwargs):
        return services.cards_return(
            units=list(data["units"]),
            to_location=data["to_location"],
            actor=self.request.user,
            returned_by=data["returned_by"],
            inspecteur=self.signed["signer"],
        )


@flow(s.WithdrawInput, many=True)
class Withdraw(ServiceAction):
    def perform(self, data, **kwargs):
        return services.cards_withdraw(
            units=list(data["units"]), status=data["status"], reason=data["reason"], actor=self.request.user
        )


@flow(s.AnomalyInput, IncidentRefSerializer)
class AnomalyReport(ServiceAction):
    def perform(self, data, **kwargs):
        return services.cards_anomaly_report(actor=self.request.user, **{**data, "units": list(data["units"])})


@flow(s.ReshuffleInput, s.CardEventSerializer)
class Reshuffle(ServiceAction):
    def perform(self, data, **kwargs):
        return services.cards_reshuffle_order(actor=self.request.user, **data)


@flow(s.DestructionPlanInput, s.DestructionSessionSerializer)
class DestructionPlan(ServiceAction):
    def perform(self, data, **kwargs):
        return services.cards_destruction_plan(
            establishment=self.establishment,
            units=list(data["units"]),
            method=data["method"],
            planned_at=data["planned_at"],
            actor=self.request.user,
        )


class DestructionMixin:
    queryset = DestructionSession.objects.all()

    def scoped_queryset(self):
        return selectors.destruction_sessions(self.establishment)


@flow(s.DestructionNotifyInput, s.DestructionSessionSerializer)
class DestructionNotify(DestructionMixin, ServiceAction):
    def perform(self, data, **kwargs):
        return custody.destruction_notify(session=self.get_object(), actor=self.request.user, **data)


@flow(s.DestructionCompleteInput, s.DestructionSessionSerializer, countersigners=("signer",))
class DestructionComplete(DestructionMixin, ServiceAction):
    def perform(self, data, **kwargs):
        return services.cards_destruction_complete(
            session=self.get_object(),
            actor=self.request.user,
            witness=self.signed["signer"],
            withheld=list(data["withheld"]),
            finding=data["finding"],
            observations=data["observations"],
        )


@flow(s.VerificationInput, s.StockVerificationSerializer)
class Verification(ServiceAction):
    def perform(self, data, **kwargs):
        counted = {(c["location"].pk if c["location"] else None, c["category"]): c["count"] for c in data["counted"]}
        return services.cards_stock_verification(
            establishment=self.establishment,
            counted=counted,
            actor=self.request.user,
            opened_by=data["opened_by"],
            remarks=data["remarks"],
        )
