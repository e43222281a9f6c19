from django.db.models import QuerySet
from rest_framework import serializers, viewsets

from ledgers.core.api.actions import ServiceAction

from .. import selectors, services
from ..models import Notice


class MailedNoticeSerializer(serializers.ModelSerializer):
    establishment = serializers.SlugRelatedField(slug_field="code", read_only=True)
    register = serializers.SlugRelatedField(slug_field="number", read_only=True)

    class Meta:
        model = Notice
        fields = [
            "id",
            "establishment",
            "kind",
            "register",
            "subject",
            "body",
            "created_at",
            "level",
            "acknowledge_by",
            "acknowledged_at",
        ]
        read_only_fields = fields


class NoticeViewSet(viewsets.ReadOnlyModelViewSet):
    """The notices mailed to the user, whichever establishment they concern."""

    serializer_class = MailedNoticeSerializer
    ordering = "-created_at"  # read by the API's one pagination

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):  # the schema generator has no user
            return Notice.objects.none()
        return selectors.notices_for(self.request.user)


class NoticeAcknowledgeView(ServiceAction):
    """The recipient records that they have read a notice mailed to them: a line of the register
    the notice concerns."""

    output_serializer = MailedNoticeSerializer
    queryset = Notice.objects.all()

    def scoped_queryset(self) -> QuerySet[Notice]:
        return selectors.notices_for(self.request.user)  # whichever establishment it concerns

    def perform(self, data, pk):
        return services.notice_acknowledge(notice=self.get_object(), actor=self.request.user)
