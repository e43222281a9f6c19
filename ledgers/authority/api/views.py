"""Authority API: the police's registers (REG-44, REG-45). Each write validates its input, calls
one service and answers 201; refusals by the texts answer 409 {"code", "article", "detail"}."""

from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.http import FileResponse
from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import generics
from rest_framework.request import Request

from ledgers.core.api.actions import ServiceAction
from ledgers.core.api.scoping import EstablishmentScoped
from ledgers.core.authz import reserved_to, roles_of
from ledgers.core.models import GamingTable, Seance, TableSession
from ledgers.registers.models import Register

from .. import displays, selectors, services
from ..models import (
    AccessLog,
    ApprovedBanker,
    Arrete,
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
)
from ..views import ACCESS_LOG_READERS, archive_file
from . import serializers as s


class ListAndWrite(ServiceAction, generics.ListAPIView):
    """A register of the caller's establishment: GET lists its lines, POST writes one."""


class ObservationsMixin:
    queryset = Observation.objects.all()
    serializer_class = output_serializer = s.ObservationSerializer

    def scoped_queryset(self):
        return selectors.observations_of(self.establishment)


class LiaisonMixin:
    queryset = LiaisonQuestion.objects.all()
    serializer_class = output_serializer = s.LiaisonSerializer

    def scoped_queryset(self):
        return selectors.liaison_of(self.establishment)


class ObservationList(ObservationsMixin, ListAndWrite):
    """The registre spécial d'observations; POST: a police surveillance agent writes a visit."""

    input_serializer = s.ObservationInput

    def perform(self, data, **kwargs):
        return services.observation_record(establishment=self.establishment, actor=self.request.user, **data)


class ObservationFollowUp(ObservationsMixin, ServiceAction):
    """The directeur responsable's follow-up, written opposite the observation."""

    input_serializer = s.FollowUpInput

    def perform(self, data, pk):
        return services.observation_follow_up(observation=self.get_object(), actor=self.request.user, text=data["text"])


class LiaisonList(LiaisonMixin, ListAndWrite):
    """The registre de liaison; POST: the directeur responsable asks."""

    input_serializer = s.QuestionInput

    def perform(self, data, **kwargs):
        return services.liaison_ask(establishment=self.establishment, actor=self.request.user, **data)


class LiaisonAnswer(LiaisonMixin, ServiceAction):
    """The service's answer."""

    input_serializer = s.AnswerInput

    def perform(self, data, pk):
        return services.liaison_answer(question=self.get_object(), actor=self.request.user, answer=data["answer"])


class AccessLogList(EstablishmentScoped, generics.ListAPIView):
    """REG-22: the regulators' reads and prints of register content (regulators and Direction)."""

    queryset = AccessLog.objects.all()
    serializer_class = s.AccessLogSerializer

    def scoped_queryset(self):
        est = self.establishment
        if not roles_of(self.request.user, est) & ACCESS_LOG_READERS:
            raise PermissionDenied(reserved_to(ACCESS_LOG_READERS, "REG-22", est))
        return selectors.access_log(est)


class ArchiveList(ListAndWrite):
    """REG-43: the archives of closed seasons; POST asks for one (built in the background)."""

    queryset = SeasonArchive.objects.all()
    serializer_class = output_serializer = s.ArchiveSerializer
    input_serializer = s.ArchiveInput

    def scoped_queryset(self):
        return selectors.archives_of(self.establishment)

    def perform(self, data, **kwargs):
        return services.archive_request(establishment=self.establishment, actor=self.request.user, **data)


class ArchiveFile(generics.GenericAPIView):
    """The archive's zip (404 until it is done)."""

    queryset = SeasonArchive.objects.none()

    @extend_schema(responses={(200, "application/zip"): OpenApiTypes.BINARY})
    def get(self, request: Request, pk: int) -> FileResponse:
        return archive_file(request._request, pk)


class PurgeRequest(ServiceAction):
    """Clear a register for removal: refused before its retention term (REG-43)."""

    queryset = Register.objects.all()
    input_serializer, output_serializer = s.PurgeInput, s.PurgeClearanceSerializer

    def perform(self, data, **kwargs):
        register = get_object_or_404(self.get_queryset(), number=data["register"])
        return services.register_purge(register=register, actor=self.request.user)


class DeclarationsMixin:
    queryset = Declaration.objects.all()
    serializer_class = output_serializer = s.DeclarationSerializer

    def scoped_queryset(self):
        return selectors.declarations_of(self.establishment)


class DeclarationList(DeclarationsMixin, ListAndWrite):
    """AUTH-01: the prior declarations; POST records one (sent 15 days at least before implementation)."""

    input_serializer = s.DeclarationInput

    def perform(self, data, **kwargs):
        return services.declaration_record(establishment=self.establishment, actor=self.request.user, **data)


class ArreteList(ListAndWrite):
    """AUTH-03: the arrêtés d'autorisation; POST: the directeur responsable records one, or its
    amendment (AUTH-02: ``follows``, the declaration it follows up)."""

    queryset = Arrete.objects.all()
    serializer_class = output_serializer = s.ArreteSerializer
    input_serializer = s.ArreteInput

    def scoped_queryset(self):
        return selectors.arretes_of(self.establishment)

    def perform(self, data, **kwargs):
        games = [dict(line) for line in data.pop("games")]
        return services.arrete_record(establishment=self.establishment, actor=self.request.user, games=games, **data)


class DeclarationFollowUp(DeclarationsMixin, ServiceAction):
    """AUTH-02: what became of the declaration."""

    input_serializer = s.DeclarationFollowUpInput

    def perform(self, data, pk):
        return services.declaration_follow_up(declaration=self.get_object(), actor=self.request.user, **data)


class CalledBetsMixin:
    queryset = CalledBet.objects.all()
    serializer_class = output_serializer = s.CalledBetSerializer

    def scoped_queryset(self):
        return selectors.called_bets_of(self.establishment)


class CalledBetList(CalledBetsMixin, ListAndWrite):
    """GAME-20, REG-18: complex called bets; POST: one handed in writing at an open table-partie."""

    input_serializer = s.CalledBetInput

    def perform(self, data, **kwargs):
        est = self.establishment
        session = get_object_or_404(TableSession, seance__establishment=est, pk=data["table_session"])
        inspecteur = get_object_or_404(get_user_model(), memberships__establishment=est, pk=data["inspecteur"])
        return services.called_bet_record(
            session=session,
            actor=self.request.user,
            content=data["content"],
            inspecteur=inspecteur,
            player=data["player"],
        )


class CalledBetVisa(CalledBetsMixin, ServiceAction):
    """The direction des jeux's visa, which authorises the bet."""

    input_serializer = s.CalledBetVisaInput

    def perform(self, data, pk):
        return services.called_bet_authorise(bet=self.get_object(), actor=self.request.user)


class CalledBetScjNotice(CalledBetsMixin, ServiceAction):
    """The SCJ informed of the bet, at the time the system records (GAME-20)."""

    input_serializer = s.CalledBetScjNoticeInput

    def perform(self, data, pk):
        return services.called_bet_scj_notify(bet=self.get_object(), actor=self.request.user, **data)


class HouseRulesList(ListAndWrite):
    """REG-19: the règlement intérieur's versions; POST a new one (directeur responsable)."""

    queryset = HouseRulesVersion.objects.all()
    serializer_class = output_serializer = s.HouseRulesSerializer
    input_serializer = s.HouseRulesInput

    def perform(self, data, **kwargs):
        return services.house_rules_publish(establishment=self.establishment, actor=self.request.user, **data)


class TableOptionSet(ServiceAction):
    """GAME-07: put an option in force at a table (refused unless the règlement in force writes it)."""

    input_serializer, output_serializer = s.TableOptionInput, s.TableOptionSerializer

    def perform(self, data, **kwargs):
        table = get_object_or_404(GamingTable, establishment=self.establishment, number=data["table"])
        return services.table_option_set(
            table=table, option=data["house_option"], enabled=data["enabled"], actor=self.request.user
        )


class DisplayList(ListAndWrite):
    """REG-23, SLOT-29 (FR): the display checklists' lines; POST one, for a table or a machine."""

    queryset = RulesDisplay.objects.select_related("table", "machine")
    serializer_class = output_serializer = s.RulesDisplaySerializer
    input_serializer = s.RulesDisplayInput

    def perform(self, data, **kwargs):
        est = self.establishment
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


class ProgressiveConfigList(ListAndWrite):
    """GAME-04 (MC): the Split Aces configurations; POST a new version (Direction des Jeux)."""

    queryset = ProgressiveConfig.objects.all()
    serializer_class = output_serializer = s.ProgressiveConfigSerializer
    input_serializer = s.ProgressiveConfigInput

    def perform(self, data, **kwargs):
        return services.progressive_configure(establishment=self.establishment, actor=self.request.user, **data)


class ProgressiveReadingList(ListAndWrite):
    """GAME-04: the progressive amount at each séance's opening and closing."""

    queryset = ProgressiveReading.objects.all()
    serializer_class = output_serializer = s.ProgressiveReadingSerializer
    input_serializer = s.ProgressiveReadingInput

    def scoped_queryset(self):
        return selectors.progressive_readings(self.establishment)

    def perform(self, data, **kwargs):
        seance = get_object_or_404(Seance, establishment=self.establishment, pk=data.pop("seance"))
        return services.progressive_read(seance=seance, actor=self.request.user, **data)


class ProgressivePayoutList(ListAndWrite):
    """GAME-04: the Split Aces jackpots paid (table, time, amount, winner)."""

    queryset = ProgressivePayout.objects.all()
    serializer_class = output_serializer = s.ProgressivePayoutSerializer
    input_serializer = s.ProgressivePayoutInput

    def scoped_queryset(self):
        return selectors.progressive_payouts(self.establishment)

    def perform(self, data, **kwargs):
        est = self.establishment
        seance = get_object_or_404(Seance, establishment=est, pk=data.pop("seance"))
        table = get_object_or_404(GamingTable, establishment=est, number=data.pop("table"))
        return services.progressive_payout(seance=seance, table=table, actor=self.request.user, **data)


class BankersMixin:
    queryset = ApprovedBanker.objects.all()
    serializer_class = output_serializer = s.ApprovedBankerSerializer

    def scoped_queryset(self):
        return selectors.bankers_of(self.establishment)


class BankerList(BankersMixin, ListAndWrite):
    """GAME-31 (MC): the register of approved bankers; POST an approval (Direction des Jeux)."""

    input_serializer = s.BankerApproveInput

    def perform(self, data, **kwargs):
        return services.banker_approve(establishment=self.establishment, actor=self.request.user, **data)


class BankerWithdraw(BankersMixin, ServiceAction):
    """The approval withdrawn from a date."""

    input_serializer = s.BankerWithdrawInput

    def perform(self, data, pk):
        return services.banker_withdraw(banker=self.get_object(), actor=self.request.user, **data)
