from drf_spectacular.utils import extend_schema
from rest_framework import serializers, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response

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
    """The notices mailed to the user; ``acknowledge`` records that they have read one."""

    serializer_class = MailedNoticeSerializer
    ordering = "-created_at"  # read by the API's one pagination

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):  # the schema generator has no user
            return Notice.objects.none()
        return selectors.notices_for(self.request.user)

    @extend_schema(request=None, responses=MailedNoticeSerializer)
    @action(detail=True, methods=["post"])
    def acknowledge(self, request, pk=None):
        notice = services.notice_acknowledge(notice=self.get_object(), actor=request.user)
        return Response(MailedNoticeSerializer(notice).data)
