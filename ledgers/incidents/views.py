"""Incident pages: the open incidents, one incident with its subjects and notices, and the forms
that record a notice, the Direction's decision and the closing."""

from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.views.generic import ListView

from ledgers.core.authz import holds_one_of
from ledgers.core.exports import ListExportMixin
from ledgers.core.roles import Role
from ledgers.core.service_views import EstablishmentRequiredMixin, ServiceFormView
from ledgers.core.templatetags.ledgers import person

from . import services
from .categories import GAME_INCIDENT, get_category
from .forms import CloseForm, DecisionForm, DeclareForm, NoticeForm
from .models import Incident
from .registers import INCIDENT_REGISTER
from .selectors import late_notices, missing_notices


class IncidentListView(EstablishmentRequiredMixin, ListExportMixin, ListView):
    template_name = "incidents/list.html"
    context_object_name = "incidents"
    paginate_by = 50
    export_name = "incidents"

    def export_headers(self) -> list:
        return [_("Incident"), _("Exigence"), _("Constaté le"), _("Constaté par"), _("Description"), _("Statut")]

    def export_rows(self, queryset):
        for incident in queryset:
            found_at = self.establishment.localtime(incident.found_at)
            yield [
                str(incident),
                incident.requirement,
                f"{found_at:%d/%m/%Y %H:%M}",
                person(incident.found_by),
                incident.description,
                incident.get_status_display(),
            ]

    def get_queryset(self):
        qs = Incident.objects.filter(establishment=self.establishment).prefetch_related("notices")
        qs = qs.select_related("establishment", "found_by")
        return qs if self.request.GET.get("all") else qs.filter(status=Incident.Status.OPEN)

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["may_declare"] = holds_one_of(self.roles, INCIDENT_REGISTER.record_roles)
        for incident in context["incidents"]:  # the notices given after the category's delay (a flag)
            incident.late = [Role(r).label for r in late_notices(incident)]
        return context


class IncidentDeclareView(EstablishmentRequiredMixin, ServiceFormView):
    """Declare an incident of play (INC-01): offered to whom the incident register lets record."""

    template_name = "incidents/declare.html"
    form_class = DeclareForm
    success_message = _("Incident inscrit au registre des incidents.")

    @property
    def page_roles(self):
        return INCIDENT_REGISTER.record_roles

    def get_form_kwargs(self):
        return {**super().get_form_kwargs(), "establishment": self.establishment}

    def get_initial(self):
        return {"found_at": timezone.localtime().replace(second=0, microsecond=0), **self.request.GET.dict()}

    def perform(self, form):
        return services.incident_open(
            establishment=self.establishment, category=GAME_INCIDENT.code, actor=self.request.user, **form.cleaned_data
        )

    def get_success_url(self):
        return reverse("incidents:detail", args=[self.result.pk])


class IncidentActView(EstablishmentRequiredMixin, ServiceFormView):
    """The incident page; each act posts to its own URL and comes back here."""

    template_name = "incidents/detail.html"
    form_class = NoticeForm
    act = "notify"

    @property
    def incident(self) -> Incident:
        return get_object_or_404(Incident, establishment=self.establishment, pk=self.kwargs["pk"])

    def get_initial(self):
        return {"notified_at": timezone.localtime().replace(second=0, microsecond=0)}

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        incident = self.incident
        info = get_category(incident.category)
        forms = {"notify": NoticeForm(initial=self.get_initial()), "decide": DecisionForm(), "close": CloseForm()}
        forms[self.act] = context["form"]
        context.update(
            incident=incident,
            category=info,
            subjects=incident.subjects.all(),
            notices=incident.notices.all(),
            missing=[Role(r).label for r in missing_notices(incident)],
            act=self.act,
            late=[Role(r).label for r in late_notices(incident)],
            notice_form=forms["notify"],
            decision_form=forms["decide"],
            close_form=forms["close"],
        )
        return context

    def get_success_url(self):
        return reverse("incidents:detail", args=[self.kwargs["pk"]])


class IncidentNotifyView(IncidentActView):
    success_message = _("Information inscrite au registre des incidents.")

    def perform(self, form):
        return services.incident_notify(incident=self.incident, actor=self.request.user, **form.cleaned_data)


class IncidentDecideView(IncidentActView):
    form_class = DecisionForm
    act = "decide"
    success_message = _("Décision inscrite.")

    def perform(self, form):
        return services.incident_decide(incident=self.incident, actor=self.request.user, **form.cleaned_data)


class IncidentCloseView(IncidentActView):
    form_class = CloseForm
    act = "close"
    success_message = _("Incident clos.")

    def perform(self, form):
        return services.incident_close(incident=self.incident, actor=self.request.user)
