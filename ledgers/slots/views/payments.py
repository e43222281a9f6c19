"""Pages for jackpot payments."""

from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from .. import forms, selectors, services
from .common import ServiceFormView


class JackpotView(ServiceFormView):
    form_class = forms.JackpotForm
    title = _("Paiement manuel d'un jackpot")

    def perform(self, form):
        return services.jackpot_pay(actor=self.request.user, **form.cleaned_data)


class DisputeView(ServiceFormView):
    form_class = forms.DisputeForm
    title = _("Contestation de paiement")

    def perform(self, form):
        return services.dispute_decide(actor=self.request.user, **form.cleaned_data)


class TopUpView(ServiceFormView):
    form_class = forms.TopUpForm
    title = _("Complément de paiement")

    def perform(self, form):
        return services.top_up_pay(actor=self.request.user, **form.cleaned_data)


class JackpotThresholdView(ServiceFormView):
    """MC: the identity threshold fixed by the Direction, versioned by its effective date (SLOT-16)."""

    form_class = forms.JackpotThresholdForm
    title = _("Seuil d'identification des gagnants")
    template_name = "slots/thresholds.html"

    def get_context_data(self, **kwargs):
        return super().get_context_data(history=selectors.jackpot_thresholds(self.establishment), **kwargs)

    def perform(self, form):
        return services.jackpot_threshold_set(
            establishment=self.establishment, actor=self.request.user, **form.cleaned_data
        )

    def get_success_url(self) -> str:
        return reverse("slots:jackpot_threshold")
