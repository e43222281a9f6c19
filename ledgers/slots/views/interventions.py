"""Pages for interventions."""

from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.functional import cached_property
from django.utils.translation import gettext_lazy as _

from ledgers.core.countersign import signed_data

from .. import forms, services
from ..models import Intervention
from .common import ServiceFormView
from .machines import MachineFormView


class InterventionOpenView(MachineFormView):
    form_class = forms.InterventionForm
    title = _("Ouverture de la machine (fiche d'intervention)")

    def perform(self, form):
        data = form.cleaned_data
        return services.intervention_open(
            machine=self.machine, actor=self.request.user, reason=data["reason"], stopped_at=data.get("stopped_at")
        )


class InterventionNewView(ServiceFormView):
    """The same sheet as from the machine's page, with the machine chosen in the form."""

    form_class = forms.InterventionNewForm
    title = _("Ouverture de la machine (fiche d'intervention)")

    def perform(self, form):
        data = form.cleaned_data
        return services.intervention_open(
            machine=data["machine"], actor=self.request.user, reason=data["reason"], stopped_at=data.get("stopped_at")
        )

    def get_success_url(self) -> str:
        return reverse("slots:machine", kwargs={"pk": self.result.machine_id})


class InterventionCloseView(ServiceFormView):
    form_class = forms.InterventionCloseForm
    title = _("Fin d'intervention")

    @cached_property
    def intervention(self) -> Intervention:
        return get_object_or_404(Intervention, pk=self.kwargs["pk"], machine__establishment=self.establishment)

    def perform(self, form):
        return services.intervention_close(
            intervention=self.intervention, actor=self.request.user, work_done=form.cleaned_data["work_done"]
        )


class TransmittalView(ServiceFormView):
    form_class = forms.TransmittalForm
    title = _("Remise des fiches du jour à la Direction de l'exploitation")

    def perform(self, form):
        return services.transmittal_hand_over(
            establishment=self.establishment, actor=self.request.user, **signed_data(form)
        )


class ApprovalView(ServiceFormView):
    form_class = forms.ApprovalForm
    title = _("Agrément d'un membre du personnel")

    def perform(self, form):
        return services.staff_approval_record(
            establishment=self.establishment, actor=self.request.user, **form.cleaned_data
        )


class SfmVisitView(ServiceFormView):
    form_class = forms.SfmVisitForm
    title = _("Visite de révision de la SFM")

    def perform(self, form):
        return services.sfm_visit_record(establishment=self.establishment, actor=self.request.user, **form.cleaned_data)
