"""Authority API: the police's registers (REG-44, REG-45). Each write validates its input, calls
one service and answers 201; refusals by the texts answer 409 {"code", "article", "detail"}."""

from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.db.models import Model, QuerySet
from django.http import FileResponse, Http404
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import generics, serializers, status
from rest_framework.pagination import CursorPagination
from rest_framework.request import Request
from rest_framework.response import Response

from ledgers.core.api import RuleViolationSerializer
from ledgers.core.authz import roles_of
from ledgers.core.models import Establishment, GamingTable, Seance, TableSession
from ledgers.registers.models import Register

from .. import displays, selectors, services
from ..models import (
    AccessLog,
    ApprovedBanker,
    CalledBet,
    Declaration,
    HouseRulesVersion,
    LiaisonQuestion,
    Observation,
    ProgressiveConfig,
    ProgressivePayout,
    ProgressiveReading,
    RulesDisplay,
    SeasonArchive,
    TableOptionChange,
)
from ..views import ACCESS_LOG_READERS, archive_file
from . import serializers as s


class NewestFirst(CursorPagination):
    ordering = "-pk"


def establishment_of(request: Request) -> Establishment:
    if request.establishment is None:
        raise Http404
    return request.establishment


class Scoped(generics.GenericAPIView):
    """Objects of the caller's establishment (``scoped``); a POST validates ``input_class`` and
    answers 201 with what ``perform`` (one service call) returns."""

    pagination_class = NewestFirst
    input_class: type[serializers.Serializer]

    def scoped(self, establishment: Establishment) -> QuerySet:
        raise NotImplementedError

    def get_queryset(self):
        return self.scoped(establishment_of(self.request))

    def perform(self, data: dict[str, Any], **kwargs) -> Model:
        raise NotImplementedError

    def post(self, request: Request, **kwargs) -> Response:
        data = self.input_class(data=request.data)
        data.is_valid(raise_exception=True)
        return Response(
            self.get_serializer(self.perform(data.validated_data, **kwargs)).data, status=status.HTTP_201_CREATED
        )


class ObservationsMixin:
    queryset = Observation.objects.none()
    serializer_class = s.ObservationSerializer

    def scoped(self, establishment: Establishment) -> QuerySet:
        return selectors.observations_of(establishment)


class LiaisonMixin:
    queryset = LiaisonQuestion.objects.none()
    serializer_class = s.LiaisonSerializer

    def scoped(self, establishment: Establishment) -> QuerySet:
        return selectors.liaison_of(establishment)


@extend_schema(
    methods=["POST"], request=s.ObservationInput, responses={201: s.ObservationSerializer, 409: RuleViolationSerializer}
)
class ObservationList(ObservationsMixin, Scoped, generics.ListAPIView):
    """The registre spécial d'observations; POST: a police surveillance agent writes a visit."""

    input_class = s.ObservationInput

    def perform(self, data, **kwargs):
        return services.observation_record(
            establishment=establishment_of(self.request), actor=self.request.user, **data
        )


@extend_schema(request=s.FollowUpInput, responses={201: s.ObservationSerializer, 409: RuleViolationSerializer})
class ObservationFollowUp(ObservationsMixin, Scoped):
    """The directeur responsable's follow-up, written opposite the observation."""

    input_class = s.FollowUpInput

    def perform(self, data, *, pk: int):
        return services.observation_follow_up(
            observation=get_object_or_404(self.get_queryset(), pk=pk), actor=self.request.user, text=data["text"]
        )


@extend_schema(
    methods=["POST"], request=s.QuestionInput, responses={201: s.LiaisonSerializer, 409: RuleViolationSerializer}
)
class LiaisonList(LiaisonMixin, Scoped, generics.ListAPIView):
    """The registre de liaison; POST: the directeur responsable asks."""

    input_class = s.QuestionInput

    def perform(self, data, **kwargs):
        return services.liaison_ask(establishment=establishment_of(self.request), actor=self.request.user, **data)


@extend_schema(request=s.AnswerInput, responses={201: s.LiaisonSerializer, 409: RuleViolationSerializer})
class LiaisonAnswer(LiaisonMixin, Scoped):
    """The service's answer."""

    input_class = s.AnswerInput

    def perform(self, data, *, pk: int):
        return services.liaison_answer(
            question=get_object_or_404(self.get_queryset(), pk=pk), actor=self.request.user, answer=data["answer"]
        )


class AccessLogList(generics.ListAPIView):
    """REG-22: the regulators' reads and prints of register content (regulators and Direction)."""

    queryset = AccessLog.objects.none()
    serializer_class = s.AccessLogSerializer
    pagination_class = NewestFirst

    def get_queryset(self):
        est = establishment_of(self.request)
        if not roles_of(self.request.user, est) & ACCESS_LOG_READERS:
            raise PermissionDenied(_("Le journal des accès est réservé aux autorités et à la Direction."))
        return selectors.access_log(est)


@extend_schema(methods=["POST"], request=s.ArchiveInput, responses={201: s.ArchiveSerializer})
class ArchiveList(Scoped, generics.ListAPIView):
    """REG-43: the archives of closed seasons; POST asks for one (built in the background)."""

    queryset = SeasonArchive.objects.none()
    serializer_class = s.ArchiveSerializer
    input_class = s.ArchiveInput

    def scoped(self, establishment: Establishment) -> QuerySet:
        return selectors.archives_of(establishment)

    def perform(self, data, **kwargs):
        return services.archive_request(establishment=establishment_of(self.request), actor=self.request.user, **data)


class ArchiveFile(generics.GenericAPIView):
    """The archive's zip (404 until it is done)."""

    queryset = SeasonArchive.objects.none()

    @extend_schema(responses={(200, "application/zip"): OpenApiTypes.BINARY})
    def get(self, request: Request, pk: int) -> FileResponse:
        return archive_file(request._request, pk)


@extend_schema(request=s.PurgeInput, responses={201: s.PurgeClearanceSerializer, 409: RuleViolationSerializer})
class PurgeRequest(Scoped):
    """Clear a register for removal: refused before its retention term (REG-43)."""

    queryset = Register.objects.none()
    serializer_class = s.PurgeClearanceSerializer
    input_class = s.PurgeInput

    def scoped(self, establishment: Establishment) -> QuerySet:
        return Register.objects.filter(establishment=establishment)

    def perform(self, data, **kwargs):
        register = get_object_or_404(self.get_queryset(), number=data["register"])
        return services.register_purge(register=register, actor=self.request.user)


class DeclarationsMixin:
    queryset = Declaration.objects.none()
    serializer_class = s.DeclarationSerializer

    def scoped(self, establishment: Establishment) -> QuerySet:
        return selectors.declarations_of(establishment)


@extend_schema(
    methods=["POST"], request=s.DeclarationInput, responses={201: s.DeclarationSerializer, 409: RuleViolationSerializer}
)
class DeclarationList(DeclarationsMixin, Scoped, generics.ListAPIView):
    """AUTH-01: the prior declarations; POST records one (sent 15 days at least before implementation)."""

    input_class = s.DeclarationInput

    def perform(self, data, **kwargs):
        return services.declaration_record(
            establishment=establishment_of(self.request), actor=self.request.user, **data
        )


@extend_schema(request=s.DeclarationFollowUpInput, responses={201: s.DeclarationSerializer})
class DeclarationFollowUp(DeclarationsMixin, Scoped):
    """AUTH-02: what became of the declaration."""

    input_class = s.DeclarationFollowUpInput

    def perform(self, data, *, pk: int):
        return services.declaration_follow_up(
            declaration=get_object_or_404(self.get_queryset(), pk=pk), actor=self.request.user, **data
        )


class CalledBetsMixin:
    queryset = CalledBet.objects.none()
    serializer_class = s.CalledBetSerializer

    def scoped(self, establishment: Establishment) -> QuerySet:
        return selectors.called_bets_of(establishment)


@extend_schema(
    methods=["POST"], request=s.CalledBetInput, responses={201: s.CalledBetSerializer, 409: RuleViolationSerializer}
)
class CalledBetList(CalledBetsMixin, Scoped, generics.ListAPIView):
    """GAME-20, REG-18: complex called bets; POST: one handed in writing at an open table-partie."""

    input_class = s.CalledBetInput

    def perform(self, data, **kwargs):
        est = establishment_of(self.request)
        session = get_object_or_404(TableSession, seance__establishment=est, pk=data["table_session"])
        inspecteur = get_object_or_404(get_user_model(), memberships__establishment=est, pk=data["inspecteur"])
        return services.called_bet_record(
            session=session,
            actor=self.request.user,
            content=data["content"],
            inspecteur=inspecteur,
            player=data["player"],
        )


@extend_schema(request=s.CalledBetVisaInput, responses={201: s.CalledBetSerializer, 409: RuleViolationSerializer})
class CalledBetVisa(CalledBetsMixin, Scoped):
    """The direction des jeux's visa, which authorises the bet."""

    input_class = s.CalledBetVisaInput

    def perform(self, data, *, pk: int):
        return services.called_bet_authorise(
            bet=get_object_or_404(self.get_queryset(), pk=pk), actor=self.request.user, **data
        )


@extend_schema(
    methods=["POST"], request=s.HouseRulesInput, responses={201: s.HouseRulesSerializer, 409: RuleViolationSerializer}
)
class HouseRulesList(Scoped, generics.ListAPIView):
    """REG-19: the règlement intérieur's versions; POST a new one (directeur responsable)."""

    queryset = HouseRulesVersion.objects.none()
    serializer_class = s.HouseRulesSerializer
    input_class = s.HouseRulesInput

    def scoped(self, establishment: Establishment) -> QuerySet:
        return HouseRulesVersion.objects.filter(establishment=establishment)

    def perform(self, data, **kwargs):
        return services.house_rules_publish(
            establishment=establishment_of(self.request), actor=self.request.user, **data
        )


@extend_schema(request=s.TableOptionInput, responses={201: s.TableOptionSerializer, 409: RuleViolationSerializer})
class TableOptionSet(Scoped):
    """GAME-07: put an option in force at a table (refused unless the règlement in force writes it)."""

    queryset = TableOptionChange.objects.none()
    serializer_class = s.TableOptionSerializer
    input_class = s.TableOptionInput

    def scoped(self, establishment: Establishment) -> QuerySet:
        return TableOptionChange.objects.filter(table__establishment=establishment)

    def perform(self, data, **kwargs):
        table = get_object_or_404(GamingTable, establishment=establishment_of(self.request), number=data["table"])
        return services.table_option_set(
            table=table, option=data["house_option"], enabled=data["enabled"], actor=self.request.user
        )


@extend_schema(
    methods=["POST"],
    request=s.RulesDisplayInput,
    responses={201: s.RulesDisplaySerializer, 409: RuleViolationSerializer},
)
class DisplayList(Scoped, generics.ListAPIView):
    """REG-23, SLOT-29 (FR): the display checklists' lines; POST one, for a table or a machine."""

    queryset = RulesDisplay.objects.none()
    serializer_class = s.RulesDisplaySerializer
    input_class = s.RulesDisplayInput

    def scoped(self, establishment: Establishment) -> QuerySet:
        return RulesDisplay.objects.filter(establishment=establishment).select_related("table", "machine")

    def perform(self, data, **kwargs):
        est = establishment_of(self.request)
        table = get_object_or_404(GamingTable, establishment=est, number=data["table"]) if data["table"] else None
        machine = get_object_or_404(displays.machines(est), casino_number=data["machine"]) if data["machine"] else None
        return services.display_post(
            establishment=est,
            actor=self.request.user,
            item=data["item"],
            posted_on=data["posted_on"],
            table=table,
            machine=machine,
        )


@extend_schema(
    methods=["POST"],
    request=s.ProgressiveConfigInput,
    responses={201: s.ProgressiveConfigSerializer, 409: RuleViolationSerializer},
)
class ProgressiveConfigList(Scoped, generics.ListAPIView):
    """GAME-04 (MC): the Split Aces configurations; POST a new version (Direction des Jeux)."""

    queryset = ProgressiveConfig.objects.none()
    serializer_class = s.ProgressiveConfigSerializer
    input_class = s.ProgressiveConfigInput

    def scoped(self, establishment: Establishment) -> QuerySet:
        return ProgressiveConfig.objects.filter(establishment=establishment)

    def perform(self, data, **kwargs):
        return services.progressive_configure(
            establishment=establishment_of(self.request), actor=self.request.user, **data
        )


@extend_schema(
    methods=["POST"],
    request=s.ProgressiveReadingInput,
    responses={201: s.ProgressiveReadingSerializer, 409: RuleViolationSerializer},
)
class ProgressiveReadingList(Scoped, generics.ListAPIView):
    """GAME-04: the progressive amount at each séance's opening and closing."""

    queryset = ProgressiveReading.objects.none()
    serializer_class = s.ProgressiveReadingSerializer
    input_class = s.ProgressiveReadingInput

    def scoped(self, establishment: Establishment) -> QuerySet:
        return selectors.progressive_readings(establishment)

    def perform(self, data, **kwargs):
        seance = get_object_or_404(Seance, establishment=establishment_of(self.request), pk=data.pop("seance"))
        return services.progressive_read(seance=seance, actor=self.request.user, **data)


@extend_schema(
    methods=["POST"],
    request=s.ProgressivePayoutInput,
    responses={201: s.ProgressivePayoutSerializer, 409: RuleViolationSerializer},
)
class ProgressivePayoutList(Scoped, generics.ListAPIView):
    """GAME-04: the Split Aces jackpots paid (table, time, amount, winner)."""

    queryset = ProgressivePayout.objects.none()
    serializer_class = s.ProgressivePayoutSerializer
    input_class = s.ProgressivePayoutInput

    def scoped(self, establishment: Establishment) -> QuerySet:
        return selectors.progressive_payouts(establishment)

    def perform(self, data, **kwargs):
        est = establishment_of(self.request)
        seance = get_object_or_404(Seance, establishment=est, pk=data.pop("seance"))
        table = get_object_or_404(GamingTable, establishment=est, number=data.pop("table"))
        return services.progressive_payout(seance=seance, table=table, actor=self.request.user, **data)


class BankersMixin:
    queryset = ApprovedBanker.objects.none()
    serializer_class = s.ApprovedBankerSerializer

    def scoped(self, establishment: Establishment) -> QuerySet:
        return selectors.bankers_of(establishment)


@extend_schema(
    methods=["POST"],
    request=s.BankerApproveInput,
    responses={201: s.ApprovedBankerSerializer, 409: RuleViolationSerializer},
)
class BankerList(BankersMixin, Scoped, generics.ListAPIView):
    """GAME-31 (MC): the register of approved bankers; POST an approval (Direction des Jeux)."""

    input_class = s.BankerApproveInput

    def perform(self, data, **kwargs):
        return services.banker_approve(establishment=establishment_of(self.request), actor=self.request.user, **data)


@extend_schema(request=s.BankerWithdrawInput, responses={201: s.ApprovedBankerSerializer, 409: RuleViolationSerializer})
class BankerWithdraw(BankersMixin, Scoped):
    """The approval withdrawn from a date."""

    input_class = s.BankerWithdrawInput

    def perform(self, data, *, pk: int):
        return services.banker_withdraw(
            banker=get_object_or_404(self.get_queryset(), pk=pk), actor=self.request.user, **data
        )
