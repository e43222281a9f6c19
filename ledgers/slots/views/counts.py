"""Pages of the slot count sessions (SLOT-46): the list with the open sessions, one session with
its lines and the machines it still has to cover, and one form per act."""

from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.functional import cached_property
from django.utils.translation import gettext_lazy as _
from django.views.generic import DetailView, TemplateView
from django_tables2 import SingleTableMixin

from ledgers.core.countersign import signed_data
from ledgers.core.exports import TableExportMixin

from ..forms import counts as counts_forms
from ..models import SlotCount
from ..services import counts
from ..tables import CountTable
from .common import ServiceFormView, SlotsView


class CountListView(SlotsView, TableExportMixin, SingleTableMixin, TemplateView):
    template_name = "slots/counts.html"
    table_class = CountTable
    export_name = "comptees"

    def get_table_data(self):
        return SlotCount.objects.filter(establishment=self.establishment)


class CountDetailView(SlotsView, DetailView):
    template_name = "slots/slot_count.html"
    context_object_name = "count"

    def get_queryset(self):
        return SlotCount.objects.filter(establishment=self.establishment)

    def get_context_data(self, **kwargs):
        count = self.object
        due = counts.uncovered(count) if count.status == SlotCount.Status.OPEN else []
        # The acts offered are those the user's roles may do here (the services refuse the others).
        jurisdiction = self.establishment.jurisdiction
        return super().get_context_data(
            lines=count.lines.select_related("machine", "entry"),
            due=due,
            may_count=bool(set(self.roles) & set(counts.COUNT_LINE_ROLES[jurisdiction])),
            may_close=bool(set(self.roles) & set(counts.COUNT_SESSION_ROLES[jurisdiction])),
            **kwargs,
        )


class CountOpenView(ServiceFormView):
    form_class = counts_forms.CountOpenForm
    title = _("Ouverture d'une comptée")

    def perform(self, form):
        data = {k: v for k, v in form.cleaned_data.items() if v is not None}
        return counts.slot_count_open(establishment=self.establishment, actor=self.request.user, **data)

    def get_success_url(self) -> str:
        return reverse("slots:slot_count", args=[self.result.pk])


class CountActView(ServiceFormView):
    @cached_property
    def count(self) -> SlotCount:
        return get_object_or_404(SlotCount, pk=self.kwargs["pk"], establishment=self.establishment)

    def get_success_url(self) -> str:
        return reverse("slots:slot_count", args=[self.count.pk])


class CountLineView(CountActView):
    form_class = counts_forms.CountLineForm
    title = _("Machine comptée")

    def perform(self, form):
        data = {k: v for k, v in signed_data(form).items() if v is not None}
        # The form took the writer's password again: the line is signed by them (REG-28).
        return counts.slot_count_line(count=self.count, actor=self.request.user, signed_by=self.request.user, **data)


class CountCloseView(CountActView):
    form_class = counts_forms.CountCloseForm
    title = _("Clôture de la comptée")
    submit = _("Clore")

    def perform(self, form):
        return counts.slot_count_close(count=self.count, actor=self.request.user, floats=form.cleaned_data["floats"])
