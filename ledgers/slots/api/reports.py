"""The slot staff's incident reports API (MC INC-06, FR INC-16); notices and closing go through the
incidents API."""

from drf_spectacular.utils import extend_schema
from rest_framework import serializers

from ledgers.core.api import EstablishmentPK
from ledgers.dice.api.views import ESTABLISHMENT
from ledgers.incidents.api.serializers import IncidentSerializer

from ..models import Machine
from ..services import reports
from .views import ActionView


class SlotIncidentReportSerializer(serializers.Serializer):
    description = serializers.CharField(max_length=4000)
    machine = EstablishmentPK(queryset=Machine.objects.all(), required=False, allow_null=True)
    circumstances = serializers.CharField(
        max_length=4000, required=False, allow_blank=True, help_text="MC: the circumstances"
    )
    urgent = serializers.BooleanField(default=False, help_text="FR: the police is informed without delay")
    system = serializers.CharField(
        max_length=200, required=False, allow_blank=True, help_text="FR: the approved computer system concerned"
    )


@extend_schema(parameters=[ESTABLISHMENT], request=SlotIncidentReportSerializer, responses={201: IncidentSerializer})
class ReportView(ActionView):
    input_serializer, output_serializer = SlotIncidentReportSerializer, IncidentSerializer

    def perform(self, data):
        est = self.establishment
        if est.jurisdiction == "MC":
            return reports.surveillance_incident_report(
                establishment=est,
                actor=self.request.user,
                description=data["description"],
                machine=data.get("machine"),
                circumstances=data.get("circumstances", ""),
            )
        return reports.anomaly_report(
            establishment=est,
            actor=self.request.user,
            description=data["description"],
            machine=data.get("machine"),
            urgent=data["urgent"],
            system=data.get("system", ""),
        )
