"""Pages for jackpot payments."""

from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from ledgers.core.countersign import signed_data
from ledgers.core.exports import ListExportMixin

from .. import forms, selectors, services
from .common import ServiceFormView


class JackpotView(ServiceFormView):
    form_class = forms.JackpotForm
    title = _("Paiement manuel d'un jackpot")

    def perform(self, form):
        return services.jackpot_pay(actor=self.request.user, **signed_data(form))


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


class JackpotThresholdView(ListExportMixin, ServiceFormView):
    """MC: the identity threshold fixed by the Direction, versioned by its effective date (SLOT-16);
    the successive thresholds exported."""

    form_class = forms.JackpotThresholdForm
    title = _("Seuil d'identification des gagnants")
    template_name = "slots/thresholds.html"
    export_name = "seuils-identification"

    def get_queryset(self):
        return selectors.jackpot_thresholds(self.establishment)

    def export_headers(self) -> list:
        return [_("En vigueur le"), _("Montant (€)"), _("Fixé par")]

    def export_rows(self, thresholds):
        for threshold in thresholds:
            effective = f"{self.establishment.localtime(threshold.effective_from):%d/%m/%Y %H:%M}"
            yield (effective, threshold.amount, str(threshold.set_by))

    def get_context_data(self, **kwargs):
        return super().get_context_data(history=selectors.jackpot_thresholds(self.establishment), **kwargs)

    def perform(self, form):
        return services.jackpot_threshold_set(
            establishment=self.establishment, actor=self.request.user, **form.cleaned_data
        )

    def get_success_url(self) -> str:
        return reverse("slots:jackpot_threshold")
