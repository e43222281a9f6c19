"""The lists of the organisation's pages as django-tables2 tables, exported in CSV and XLSX."""

import django_tables2 as tables
from django.urls import reverse
from django.utils import formats
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from .models import Seance


class SeanceTable(tables.Table):
    date = tables.Column(verbose_name=_("Date"))
    period = tables.Column(verbose_name=_("Période"))
    status = tables.Column(verbose_name=_("Statut"))
    opened_at = tables.DateTimeColumn(format="d/m/Y H:i", verbose_name=_("Ouverte le"))
    closed_at = tables.DateTimeColumn(format="d/m/Y H:i", verbose_name=_("Clôturée le"), default="—")

    class Meta:
        model = Seance
        fields = ("date", "period", "status", "opened_at", "closed_at")
        orderable = False
        empty_text = _("Aucune séance.")

    def render_date(self, record: Seance, value) -> str:
        return format_html('<a href="{}">{}</a>', reverse("seance", args=[record.pk]), formats.date_format(value))

    def render_status(self, record: Seance, value: str) -> str:
        return format_html('<span class="status status-{}">{}</span>', record.status, value)

    def value_status(self, value: str) -> str:
        return value
