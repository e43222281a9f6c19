"""The slot staff's incident report page (MC INC-06, FR INC-16): the report opens the incident, whose
notices and closing are on the incidents pages."""

from django import forms
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from ledgers.core.forms import EstablishmentForm

from ..models import Machine
from ..services import reports
from .common import ServiceFormView


class ReportForm(EstablishmentForm):
    description = forms.CharField(label=_("Description"), widget=forms.Textarea)
    machine = forms.ModelChoiceField(label=_("Machine"), queryset=Machine.objects.none(), required=False)
    circumstances = forms.CharField(label=_("Circonstances"), widget=forms.Textarea, required=False)
    urgent = forms.BooleanField(label=_("Urgent"), required=False)
    system = forms.CharField(label=_("Système informatique agréé"), max_length=200, required=False)

    def setup(self) -> None:
        self.fields["machine"].queryset = Machine.objects.filter(establishment=self.establishment)
        drop = ("urgent", "system") if self.jurisdiction == "MC" else ("circumstances",)
        for name in drop:
            del self.fields[name]


class ReportView(ServiceFormView):
    form_class = ReportForm

    @property
    def title(self):
        if self.establishment.jurisdiction == "MC":
            return _("Compte rendu d'incident de l'agent de surveillance")
        return _("Signalement d'anomalie à la police")

    def perform(self, form):
        report = (
            reports.surveillance_incident_report if self.establishment.jurisdiction == "MC" else reports.anomaly_report
        )
        return report(establishment=self.establishment, actor=self.request.user, **form.cleaned_data)

    def get_success_url(self) -> str:
        return reverse("incidents:detail", args=[self.result.pk])
