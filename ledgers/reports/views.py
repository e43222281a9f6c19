"""Report pages: ask for a printed register or a séance report, follow the job (an HTMX-polled
progress bar), download the file, list one's reports; the month's report, drawn on request."""

import io
from pathlib import PurePath

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django_tables2 import RequestConfig
from django_tables2.export import ExportMixin

from ledgers.core.authz import roles_of
from ledgers.core.charts import chart_month, reads_charts
from ledgers.core.exports import FORMATS, SafeTableExport
from ledgers.registers.selectors import register_for

from . import services
from .filtersets import ReportJobFilter
from .forms import DailyReportForm, RegisterPrintForm
from .models import ReportJob
from .monthly import render_monthly
from .selectors import reports_for
from .tables import ReportJobTable


@login_required
def report_list(request: HttpRequest) -> HttpResponse:
    filterset = ReportJobFilter(request.GET, queryset=reports_for(request.user).select_related("register", "seance"))
    table = ReportJobTable(filterset.qs)
    table.export_formats = FORMATS
    export_format = request.GET.get(ExportMixin.export_trigger_param)
    if export_format in FORMATS:
        return SafeTableExport(export_format, table).response(
            f"rapports-{timezone.localdate():%Y-%m-%d}.{export_format}"
        )
    RequestConfig(request, paginate={"per_page": 25}).configure(table)
    return render(request, "reports/list.html", {"filter": filterset, "table": table})


@login_required
def register_print(request: HttpRequest, number: str) -> HttpResponse:
    register = register_for(request.user, number)
    form = RegisterPrintForm(request.POST or None, initial={"lang": request.LANGUAGE_CODE})
    if request.method == "POST" and form.is_valid():
        try:
            job = services.report_request_register(register=register, actor=request.user, **form.cleaned_data)
        except ValidationError as exc:
            form.add_error(None, exc)
        else:
            return redirect("reports:job", pk=job.pk)
    return render(
        request, "reports/register_print.html", {"register": register, "form": form}, status=400 if form.errors else 200
    )


@login_required
def daily_request(request: HttpRequest) -> HttpResponse:
    form = DailyReportForm(
        request.POST or None,
        establishment=request.establishment,
        initial={"lang": request.LANGUAGE_CODE, "seance": request.GET.get("seance")},
    )
    if request.method == "POST" and form.is_valid():
        try:
            job = services.report_request_daily(actor=request.user, **form.cleaned_data)
        except ValidationError as exc:
            form.add_error(None, exc)
        else:
            return redirect("reports:job", pk=job.pk)
    return render(request, "reports/daily_request.html", {"form": form}, status=400 if form.errors else 200)


def _job(request: HttpRequest, pk: int) -> ReportJob:
    return get_object_or_404(reports_for(request.user).select_related("register", "seance"), pk=pk)


@login_required
def monthly(request: HttpRequest) -> HttpResponse:
    """The month's charts and their numbers as a PDF, in the reader's language."""
    establishment = request.establishment
    if not establishment or not reads_charts(roles_of(request.user, establishment)):
        raise PermissionDenied
    month = chart_month(request.GET.get("mois"), establishment)
    out = io.BytesIO()
    render_monthly(establishment, month, out, lang=request.LANGUAGE_CODE)
    out.seek(0)
    name = f"rapport-mensuel-{establishment.code}-{month:%Y-%m}-{request.LANGUAGE_CODE}.pdf"
    return FileResponse(out, as_attachment=True, filename=name, content_type="application/pdf")


@login_required
def job_detail(request: HttpRequest, pk: int) -> HttpResponse:
    return render(request, "reports/job.html", {"job": _job(request, pk)})


@login_required
def job_progress(request: HttpRequest, pk: int) -> HttpResponse:
    return render(request, "reports/_progress.html", {"job": _job(request, pk)})


@login_required
def job_file(request: HttpRequest, pk: int) -> FileResponse:
    job = _job(request, pk)
    if job.status != ReportJob.Status.DONE or not job.file:
        raise Http404
    return FileResponse(
        job.file.open("rb"), as_attachment=True, filename=PurePath(job.file.name).name, content_type="application/pdf"
    )
