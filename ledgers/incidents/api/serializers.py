from rest_framework import serializers

from ledgers.core.api.fields import DateTimeField
from ledgers.core.api.scoping import EstablishmentPK
from ledgers.core.models import TableSession
from ledgers.core.roles import Role

from ..models import Incident, IncidentNotice, IncidentSubject
from ..selectors import late_notices


class NoticeSerializer(serializers.ModelSerializer):
    class Meta:
        model = IncidentNotice
        fields = ["id", "recipient_role", "recipient_name", "notified_at", "channel", "recorded_by"]


class SubjectSerializer(serializers.ModelSerializer):
    model = serializers.CharField(source="content_type.model", read_only=True)

    class Meta:
        model = IncidentSubject
        fields = ["model", "object_id", "label"]


class IncidentRefSerializer(serializers.ModelSerializer):
    """The incident an act of a domain opened, as that act's answer."""

    class Meta:
        model = Incident
        fields = ["id", "requirement", "status"]


class IncidentSerializer(serializers.ModelSerializer):
    notices = NoticeSerializer(many=True, read_only=True)
    subjects = SubjectSerializer(many=True, read_only=True)
    late_notices = serializers.SerializerMethodField(
        help_text="Recipients (roles) informed after the category's delay, or not yet once it has passed (a flag)"
    )

    class Meta:
        model = Incident
        fields = [
            "id",
            "category",
            "requirement",
            "status",
            "found_at",
            "found_by",
            "description",
            "circumstances",
            "table_session",
            "location",
            "decision",
            "decided_by",
            "decided_at",
            "closed_at",
            "notices",
            "subjects",
            "late_notices",
        ]

    def get_late_notices(self, incident: Incident) -> list[str]:
        return late_notices(incident)


class NoticeInput(serializers.Serializer):
    recipient_role = serializers.ChoiceField(choices=Role.choices)
    recipient_name = serializers.CharField(max_length=200)
    notified_at = DateTimeField()
    channel = serializers.ChoiceField(choices=IncidentNotice.Channel.choices)


class DeclareInput(serializers.Serializer):
    found_at = DateTimeField()
    table_session = EstablishmentPK(
        TableSession.objects.exclude(status=TableSession.Status.CLOSED),
        path="seance__establishment",
        required=False,
        allow_null=True,
        help_text="Table-partie in play where the incident was found.",
    )
    description = serializers.CharField()
    circumstances = serializers.CharField(required=False, allow_blank=True, default="")


class DecisionInput(serializers.Serializer):
    decision = serializers.CharField()
