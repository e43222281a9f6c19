from pathlib import PurePath

from django.db.models import QuerySet
from django.http import FileResponse, Http404
from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import generics, status
from rest_framework.request import Request

from ledgers.core.api.actions import ServiceAction
from ledgers.core.api.scoping import EstablishmentList
from ledgers.core.models import Seance
from ledgers.core.selectors import establishments_for
from ledgers.registers.selectors import register_for

from .. import services
from ..models import ReportJob
from ..selectors import reports_for
from .serializers import ReportJobSerializer, ReportRequestSerializer


class ReportJobList(EstablishmentList, ServiceAction):
    """Your reports, whichever establishment (GET); POST asks for one (a printed register or a
    séance report) and answers 202 with the job to poll."""

    input_serializer, output_serializer = ReportRequestSerializer, ReportJobSerializer
    queryset, serializer_class = ReportJob.objects.all(), ReportJobSerializer
    ordering = "-created_at"
    answer = status.HTTP_202_ACCEPTED

    def scoped_queryset(self) -> QuerySet[ReportJob]:
        return reports_for(self.request.user).select_related("register")

    def perform(self, data) -> ReportJob:
        request = self.request
        lang = data.get("lang") or request.LANGUAGE_CODE  # the reader's language (Accept-Language, cookie)
        if data["kind"] == ReportJob.Kind.REGISTER:
            register = register_for(request.user, data["register"])
            job = services.report_request_register(
                register=register, actor=request.user, lang=lang, sealed=data["sealed"]
            )
        else:
            seance = get_object_or_404(
                Seance.objects.select_related("establishment"),
                pk=data["seance"],
                establishment__in=establishments_for(request.user),
            )
            job = services.report_request_daily(seance=seance, actor=request.user, lang=lang)
        job.refresh_from_db()  # eager mode: the job may already have run on commit
        return job


class ReportJobDetail(generics.RetrieveAPIView):
    """A report's status and progress (0–100); ``file_url`` once done."""

    serializer_class = ReportJobSerializer

    def get_queryset(self):
        return reports_for(self.request.user).select_related("register")


class ReportJobFile(generics.GenericAPIView):
    """The report's PDF (404 until it is done)."""

    def get_queryset(self):
        return reports_for(self.request.user)

    @extend_schema(responses={(200, "application/pdf"): OpenApiTypes.BINARY})
    def get(self, request: Request, pk: int) -> FileResponse:
        job = self.get_object()
        if job.status != ReportJob.Status.DONE or not job.file:
            raise Http404
        return FileResponse(
            job.file.open("rb"),
            as_attachment=True,
            filename=PurePath(job.file.name).name,
            content_type="application/pdf",
        )
