import django_tables2 as tables
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from .models import ReportJob


class ReportJobTable(tables.Table):
    created_at = tables.DateTimeColumn(
        verbose_name=_("Demandé le"),
        format="d/m/Y H:i",
        linkify=lambda record: reverse("reports:job", args=[record.pk]),
    )
    subject = tables.Column(verbose_name=_("Objet"), empty_values=(), orderable=False)
    progress = tables.Column(verbose_name=_("Avancement"))
    download = tables.Column(verbose_name="", empty_values=(), orderable=False, exclude_from_export=True)

    class Meta:
        model = ReportJob
        fields = ("created_at", "kind", "subject", "status", "progress", "download")
        attrs = {"class": "reports"}

    def render_subject(self, record: ReportJob) -> str:
        if record.kind == ReportJob.Kind.REGISTER:
            return f"{record.register.number} — {record.register.title}"
        return str(record.seance)

    def render_progress(self, value: int) -> str:
        return f"{value} %"

    def render_download(self, record: ReportJob) -> str:
        if record.status != ReportJob.Status.DONE:
            return ""
        return format_html('<a href="{}">{}</a>', reverse("reports:job_file", args=[record.pk]), _("PDF"))
