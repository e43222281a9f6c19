from django.conf import settings
from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.exceptions import ValidationError
from django.shortcuts import redirect
from django.utils.translation import gettext_lazy as _
from django.views.generic import TemplateView
from django_tables2 import SingleTableMixin

from ledgers.core.errors import RuleViolation
from ledgers.core.exports import TableExportMixin

from . import selectors, services
from .tables import NoticeTable


class NoticeListView(LoginRequiredMixin, TableExportMixin, SingleTableMixin, TemplateView):
    template_name = "notifications/notice_list.html"
    table_class = NoticeTable
    table_pagination = {"per_page": 200}
    export_name = "notifications"

    def get_table_data(self):
        return selectors.notices_for(self.request.user)

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        # The demo writes mails to a folder instead of sending them: shown here.
        context["mails"] = selectors.demo_mails(self.request.user) if settings.DEBUG else []
        return context


class NoticeDetailView(LoginRequiredMixin, TemplateView):
    template_name = "notifications/notice_detail.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["notice"] = selectors.notice_for(self.request.user, self.kwargs["pk"])
        return context

    def post(self, request, pk: int):
        notice = selectors.notice_for(request.user, pk)
        try:
            services.notice_acknowledge(notice=notice, actor=request.user)
        except (RuleViolation, ValidationError) as exc:
            messages.error(request, getattr(exc, "message", str(exc)))
        else:
            messages.success(request, _("Réception accusée."))
        return redirect("notifications:detail", pk=pk)
