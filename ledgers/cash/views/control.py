"""Pages for the registre de contrôle."""

from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.functional import cached_property
from django.utils.translation import gettext_lazy as _
from django.views.generic import TemplateView

from ledgers.core.service_views import EstablishmentRequiredMixin

from .. import forms, selectors, services
from ..models import ControlDay
from .common import CashFormView


class ControlView(CashFormView):
    """The registre de contrôle: the closed days, and the closing of a day."""

    form_class = forms.ControlCloseForm
    template_name = "cash/control.html"
    title = _("Registre de contrôle (modèle 12)")
    submit = _("Reporter et arrêter la journée")
    success_message = _("Journée reportée et arrêtée au registre de contrôle.")

    def get_initial(self):
        return {"date": selectors.day_to_close(self.establishment)}

    def get_context_data(self, **kwargs):
        days = ControlDay.objects.filter(establishment=self.establishment)[:31]
        return super().get_context_data(days=days, **kwargs)

    def get_success_url(self) -> str:
        return reverse("cash:control")

    def perform(self, form):
        return services.control_day_close(
            establishment=self.establishment, date=form.cleaned_data["date"], actor=self.request.user
        )


class ControlVisaView(CashFormView):
    form_class = forms.ControlVisaForm
    submit = _("Viser")

    @cached_property
    def day(self) -> ControlDay:
        return get_object_or_404(ControlDay, pk=self.kwargs["pk"], establishment=self.establishment)

    @property
    def title(self):
        return _("Visa du registre de contrôle — journée du %(day)s") % {"day": self.day}

    def get_success_url(self) -> str:
        return reverse("cash:control")

    def perform(self, form):
        return services.control_day_visa(
            day=self.day, actor=self.request.user, statement=form.cleaned_data.get("statement", "")
        )


class ExceptionsView(EstablishmentRequiredMixin, TemplateView):
    """What the table cash reports without refusing it (FLAG rows)."""

    template_name = "cash/exceptions.html"

    def get_context_data(self, **kwargs):
        est = self.establishment
        return super().get_context_data(
            slips=selectors.slip_exceptions(est),
            floats=selectors.float_flags(est),
            bad_beats=selectors.bad_beat_flags(est),
            **kwargs,
        )
