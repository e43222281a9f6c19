from pathlib import PurePath

from django.http import FileResponse, Http404
from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import generics, status
from rest_framework.request import Request
from rest_framework.response import Response

from ledgers.core.models import Seance
from ledgers.core.selectors import establishments_for
from ledgers.registers.selectors import register_for

from .. import services
from ..models import ReportJob
from ..selectors import reports_for
from .serializers import ReportJobSerializer, ReportRequestSerializer


class ReportJobList(generics.ListCreateAPIView):
    """Your reports; POST asks for one (a printed register or a séance report) and answers 202
    with the job to poll."""

    serializer_class = ReportJobSerializer
    ordering = "-created_at"

    def get_queryset(self):
        return reports_for(self.request.user).select_related("register")

    @extend_schema(request=ReportRequestSerializer, responses={202: ReportJobSerializer})
    def post(self, request: Request, *args, **kwargs) -> Response:
        params = ReportRequestSerializer(data=request.data)
        params.is_valid(raise_exception=True)
        data = params.validated_data
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
        body = ReportJobSerializer(job, context={"request": request}).data
        return Response(body, status=status.HTTP_202_ACCEPTED)


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
