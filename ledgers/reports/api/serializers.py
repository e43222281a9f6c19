from django.conf import settings
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from ..models import ReportJob


class ReportRequestSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=ReportJob.Kind.choices)
    register = serializers.CharField(required=False, help_text=_("Numéro du registre (kind=register)."))
    seance = serializers.IntegerField(required=False, help_text=_("Identifiant de la séance (kind=daily)."))
    sealed = serializers.BooleanField(default=False)
    lang = serializers.ChoiceField(
        choices=settings.LANGUAGES, required=False, help_text=_("Langue du document ; par défaut celle de la requête.")
    )

    def validate(self, attrs: dict) -> dict:
        needed = "register" if attrs["kind"] == ReportJob.Kind.REGISTER else "seance"
        if attrs.get(needed) in (None, ""):
            raise serializers.ValidationError({needed: _("Ce champ est obligatoire pour ce type de rapport.")})
        return attrs


class ReportJobSerializer(serializers.ModelSerializer):
    register = serializers.SlugRelatedField(slug_field="number", read_only=True)
    file_url = serializers.SerializerMethodField()
    notice = serializers.CharField(
        source="get_notice_display",
        read_only=True,
        help_text=_("Ce que l'attente signifie (service d'impression injoignable, relance)."),
    )

    class Meta:
        model = ReportJob
        fields = (
            "id",
            "kind",
            "register",
            "seance",
            "parameters",
            "status",
            "progress",
            "notice",
            "error",
            "file_url",
            "attempts",
            "created_at",
            "sent_at",
            "started_at",
            "heartbeat_at",
            "finished_at",
        )
        read_only_fields = fields

    def get_file_url(self, job: ReportJob) -> str | None:
        if job.status != ReportJob.Status.DONE:
            return None
        url = reverse("api-report-file", args=[job.pk])
        request = self.context.get("request")
        return request.build_absolute_uri(url) if request else url
