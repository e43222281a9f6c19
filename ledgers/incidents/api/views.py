"""Incident API: list and read, record a notice, the Direction's decision, the closing."""

from rest_framework import generics

from ledgers.core.api.actions import ServiceAction
from ledgers.core.api.scoping import EstablishmentScoped

from .. import services
from ..categories import GAME_INCIDENT
from ..models import Incident
from .serializers import DecisionInput, DeclareInput, IncidentSerializer, NoticeInput, NoticeSerializer


class IncidentsMixin(EstablishmentScoped):
    queryset = Incident.objects.select_related("establishment").prefetch_related("notices", "subjects__content_type")


class IncidentList(IncidentsMixin, generics.ListAPIView):
    serializer_class = IncidentSerializer
    ordering = "-found_at"
    filterset_fields = ["status", "category", "requirement"]


class IncidentDetail(IncidentsMixin, generics.RetrieveAPIView):
    serializer_class = IncidentSerializer


class IncidentDeclare(IncidentsMixin, ServiceAction):
    """Declare an incident of play (INC-01)."""

    input_serializer, output_serializer = DeclareInput, IncidentSerializer

    def perform(self, data):
        return services.incident_open(
            establishment=self.establishment, category=GAME_INCIDENT.code, actor=self.request.user, **data
        )


class IncidentNotify(IncidentsMixin, ServiceAction):
    input_serializer, output_serializer = NoticeInput, NoticeSerializer

    def perform(self, data, pk):
        return services.incident_notify(incident=self.get_object(), actor=self.request.user, **data)


class IncidentDecide(IncidentsMixin, ServiceAction):
    input_serializer, output_serializer = DecisionInput, IncidentSerializer

    def perform(self, data, pk):
        return services.incident_decide(incident=self.get_object(), actor=self.request.user, decision=data["decision"])


class IncidentClose(IncidentsMixin, ServiceAction):
    output_serializer = IncidentSerializer

    def perform(self, data, pk):
        return services.incident_close(incident=self.get_object(), actor=self.request.user)
