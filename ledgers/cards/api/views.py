"""Card API: read endpoints and one POST endpoint per flow. Views call the services; a rule of the
texts answers 409 {code, article, detail} (ledgers.core.api), a role 403, bad input 400."""

from django.http import Http404
from django.shortcuts import get_object_or_404
from django_filters import rest_framework as filters
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import generics, status
from rest_framework.exceptions import ValidationError as DRFValidationError
from rest_framework.pagination import CursorPagination
from rest_framework.response import Response
from rest_framework.views import APIView

from ledgers.core.authz import reauthenticate
from ledgers.core.countersign import countersigner_from
from ledgers.custody import services as custody
from ledgers.custody.models import DestructionSession, PurchaseOrder, StockVerification
from ledgers.incidents.api.serializers import IncidentRefSerializer

from .. import selectors, services
from ..deck_rules import rules_table
from ..domains import CARDS
from ..models import CardEvent, CardExchange, CardUnit
from . import serializers as s


class ByPk(CursorPagination):
    ordering = "-pk"


class EstablishmentAPIMixin:
    """The caller's establishment (the one chosen in the session, else their first)."""

    @property
    def establishment(self):
        est = self.request.establishment
        if est is None:
            raise Http404
        return est

    def get_serializer_context(self):
        return {**super().get_serializer_context(), "establishment": self.establishment}


# --- Reads -----------------------------------------------------------------------------------


class UnitFilter(filters.FilterSet):
    serial = filters.CharFilter(lookup_expr="icontains")

    class Meta:
        model = CardUnit
        fields = ["serial", "status", "unit_type", "category", "location", "table_session", "parent"]


class UnitList(EstablishmentAPIMixin, generics.ListAPIView):
    queryset = CardUnit.objects.none()  # for the schema; get_queryset scopes to the establishment
    serializer_class = s.CardUnitSerializer
    pagination_class = ByPk
    filterset_class = UnitFilter

    def get_queryset(self):
        return selectors.units_of(self.establishment)


class UnitDetail(EstablishmentAPIMixin, generics.RetrieveAPIView):
    queryset = CardUnit.objects.none()  # for the schema; get_queryset scopes to the establishment
    serializer_class = s.CardUnitSerializer

    def get_queryset(self):
        return selectors.units_of(self.establishment)


class EventList(EstablishmentAPIMixin, generics.ListAPIView):
    queryset = CardEvent.objects.none()  # for the schema; get_queryset scopes to the establishment
    serializer_class = s.CardEventSerializer
    pagination_class = ByPk
    filterset_fields = ["kind", "unit", "table_session", "ok"]

    def get_queryset(self):
        return CardEvent.objects.filter(establishment=self.establishment).select_related("entry__register", "actor")


class ExchangeList(EstablishmentAPIMixin, generics.ListAPIView):
    queryset = CardExchange.objects.none()  # for the schema; get_queryset scopes to the establishment
    serializer_class = s.CardExchangeSerializer
    pagination_class = ByPk

    def get_queryset(self):
        return CardExchange.objects.filter(establishment=self.establishment)


class OrderList(EstablishmentAPIMixin, generics.ListAPIView):
    queryset = PurchaseOrder.objects.none()  # for the schema; get_queryset scopes to the establishment
    serializer_class = s.PurchaseOrderSerializer
    pagination_class = ByPk

    def get_queryset(self):
        return selectors.purchase_orders(self.establishment)


class DestructionList(EstablishmentAPIMixin, generics.ListAPIView):
    queryset = DestructionSession.objects.none()  # for the schema; get_queryset scopes to the establishment
    serializer_class = s.DestructionSessionSerializer
    pagination_class = ByPk

    def get_queryset(self):
        return selectors.destruction_sessions(self.establishment)


class VerificationList(EstablishmentAPIMixin, generics.ListAPIView):
    queryset = StockVerification.objects.none()  # for the schema; get_queryset scopes to the establishment
    serializer_class = s.StockVerificationSerializer
    pagination_class = ByPk

    def get_queryset(self):
        return StockVerification.objects.filter(establishment=self.establishment, domain=CARDS.code)


class StockView(EstablishmentAPIMixin, APIView):
    @extend_schema(responses=s.StockStatementSerializer)
    def get(self, request):
        return Response(s.StockStatementSerializer(selectors.stock_statement(self.establishment)).data)


class ExceptionsView(EstablishmentAPIMixin, APIView):
    @extend_schema(responses=s.FlagSerializer(many=True))
    def get(self, request):
        return Response(s.FlagSerializer(selectors.exceptions(self.establishment), many=True).data)


class RulesView(EstablishmentAPIMixin, APIView):
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


class ActionView(EstablishmentAPIMixin, APIView):
    """POST: validate the input, call one service, answer 201 with the changed object(s)."""

    input_class: type = None
    output_class: type = s.CardUnitSerializer
    many = False

    def get_serializer_context(self):
        return {"request": self.request, "view": self, "establishment": self.establishment}

    def perform(self, data: dict):
        raise NotImplementedError

    def post(self, request, *args, **kwargs):
        serializer = self.input_class(data=request.data, context=self.get_serializer_context())
        serializer.is_valid(raise_exception=True)
        try:
            result = self.perform(serializer.validated_data)
        except ValueError as exc:  # bad input the service found: not a rule of the texts
            raise DRFValidationError({"detail": str(exc)}) from exc
        return Response(self.output_class(result, many=self.many).data, status=status.HTTP_201_CREATED)

    def signer(self, data: dict):
        """The countersigning person (inspecteur, police officer…), authenticated here."""
        return countersigner_from(self.request, data, "signer")

    def check_signature(self, data: dict) -> None:
        """A visa or a verification is a signature: the caller types their password again."""
        reauthenticate(
            self.request._request, user=self.request.user, password=data["password"], otp_token=data["otp_token"]
        )


def flow(input_class, output_class=s.CardUnitSerializer, many=False):
    """Declare a flow endpoint's input and output (and its OpenAPI schema)."""

    def decorate(view):
        view.input_class, view.output_class, view.many = input_class, output_class, many
        schema = extend_schema(request=input_class, responses={201: output_class(many=many)})
        return extend_schema_view(post=schema)(view)

    return decorate


@flow(s.SupplierInput, s.SupplierSerializer)
class SupplierCreate(ActionView):
    def perform(self, data):
        return custody.supplier_register(
            establishment=self.establishment, domain=CARDS, actor=self.request.user, **data
        )


@flow(s.OrderInput, s.PurchaseOrderSerializer)
class OrderCreate(ActionView):
    def perform(self, data):
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
    def order(self):
        return get_object_or_404(selectors.purchase_orders(self.establishment), pk=self.kwargs["pk"])


@flow(s.OrderVisaInput, s.PurchaseOrderSerializer)
class OrderVisa(OrderMixin, ActionView):
    def perform(self, data):
        self.check_signature(data)
        return custody.purchase_order_visa(order=self.order(), actor=self.request.user, statement=data["statement"])


@flow(s.EmptyInput, s.PurchaseOrderSerializer)
class OrderSend(OrderMixin, ActionView):
    def perform(self, data):
        return custody.purchase_order_send(order=self.order(), domain=CARDS, actor=self.request.user)


@flow(s.ReceiptInput, many=True)
class Receipt(ActionView):
    def perform(self, data):
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
class Transfer(ActionView):
    def perform(self, data):
        return custody.items_transfer(
            domain=CARDS,
            items=list(data["units"]),
            to_location=data["to_location"],
            actor=self.request.user,
            received_by=data["received_by"],
        )


class DepotDaySerializer(s.serializers.Serializer):
    location = s.serializers.CharField()
    date = s.serializers.DateField()
    opening = s.serializers.DictField()
    transfers_in = s.serializers.DictField()
    transfers_out = s.serializers.DictField()
    closing = s.serializers.DictField()


@flow(s.DepotDayInput, DepotDaySerializer, many=True)
class DepotDayClose(ActionView):
    def perform(self, data):
        return custody.depot_day_close(
            domain=CARDS, establishment=self.establishment, date=data["date"], actor=self.request.user
        )


@flow(s.IssueInput, many=True)
class Issue(ActionView):
    def perform(self, data):
        return services.cards_issue(
            table_session=data["table_session"],
            units=list(data["units"]),
            actor=self.request.user,
            received_by=data["received_by"],
        )


@flow(s.UnsealInput)
class Unseal(ActionView):
    def perform(self, data):
        return services.cards_unseal(actor=self.request.user, **data)


@flow(s.TableControlInput)
class TableControl(ActionView):
    def perform(self, data):
        return services.cards_table_control(actor=self.request.user, **data)


@flow(s.ControlInput)
class FirstControl(ActionView):
    def perform(self, data):
        return services.cards_first_control(actor=self.request.user, **data)


@flow(s.ControlInput)
class PostControl(ActionView):
    def perform(self, data):
        return services.cards_post_control(actor=self.request.user, **data)


@flow(s.PAEPrepareInput, many=True)
class PAEPrepare(ActionView):
    def perform(self, data):
        return services.cards_pae_prepare(actor=self.request.user, **{**data, "units": list(data["units"])})


@flow(s.PAEConfirmInput)
class PAEConfirm(ActionView):
    def perform(self, data):
        return services.cards_pae_confirm(actor=self.request.user, **data)


class DesignationSerializer(s.serializers.Serializer):
    id = s.serializers.IntegerField()
    seance = s.serializers.IntegerField(source="seance_id")
    room = s.serializers.IntegerField(source="room_id")
    unit = s.serializers.IntegerField(source="unit_id")


@flow(s.DesignateInput, DesignationSerializer)
class Designate(ActionView):
    def perform(self, data):
        return services.cards_replacement_designate(actor=self.request.user, **data)


@flow(s.ExchangeInput, s.CardExchangeSerializer)
class Exchange(ActionView):
    def perform(self, data):
        return services.cards_exchange(actor=self.request.user, **data)


@flow(s.ReconcileInput, s.CardExchangeSerializer)
class Reconcile(ActionView):
    def perform(self, data):
        exchange = get_object_or_404(CardExchange, establishment=self.establishment, pk=self.kwargs["pk"])
        return services.cards_exchange_reconcile(exchange=exchange, actor=self.request.user, note=data["note"])


@flow(s.ReturnInput, many=True)
class Return(ActionView):
    def perform(self, data):
        return services.cards_return(
            units=list(data["units"]),
            to_location=data["to_location"],
            actor=self.request.user,
            returned_by=data["returned_by"],
            inspecteur=self.signer(data),
        )


@flow(s.WithdrawInput, many=True)
class Withdraw(ActionView):
    def perform(self, data):
        return services.cards_withdraw(
            units=list(data["units"]), status=data["status"], reason=data["reason"], actor=self.request.user
        )


@flow(s.AnomalyInput, IncidentRefSerializer)
class AnomalyReport(ActionView):
    def perform(self, data):
        return services.cards_anomaly_report(actor=self.request.user, **{**data, "units": list(data["units"])})


@flow(s.ReshuffleInput, s.CardEventSerializer)
class Reshuffle(ActionView):
    def perform(self, data):
        return services.cards_reshuffle_order(actor=self.request.user, **data)


@flow(s.DestructionPlanInput, s.DestructionSessionSerializer)
class DestructionPlan(ActionView):
    def perform(self, data):
        return services.cards_destruction_plan(
            establishment=self.establishment,
            units=list(data["units"]),
            method=data["method"],
            planned_at=data["planned_at"],
            actor=self.request.user,
        )


class DestructionMixin:
    def session(self):
        return get_object_or_404(selectors.destruction_sessions(self.establishment), pk=self.kwargs["pk"])


@flow(s.DestructionNotifyInput, s.DestructionSessionSerializer)
class DestructionNotify(DestructionMixin, ActionView):
    def perform(self, data):
        return custody.destruction_notify(session=self.session(), actor=self.request.user, **data)


@flow(s.DestructionCompleteInput, s.DestructionSessionSerializer)
class DestructionComplete(DestructionMixin, ActionView):
    def perform(self, data):
        return services.cards_destruction_complete(
            session=self.session(),
            actor=self.request.user,
            witness=self.signer(data),
            withheld=list(data["withheld"]),
            finding=data["finding"],
            observations=data["observations"],
        )


@flow(s.VerificationInput, s.StockVerificationSerializer)
class Verification(ActionView):
    def perform(self, data):
        self.check_signature(data)
        counted = {(c["location"].pk if c["location"] else None, c["category"]): c["count"] for c in data["counted"]}
        return services.cards_stock_verification(
            establishment=self.establishment,
            counted=counted,
            actor=self.request.user,
            opened_by=data["opened_by"],
            remarks=data["remarks"],
        )
