"""The page of the month's levy."""

from django.utils.translation import gettext_lazy as _

from .. import forms, services
from .common import CashFormView


class LevyMonthView(CashFormView):
    form_class = forms.LevyMonthForm
    title = _("Carnet des prélèvements (modèle 13) : arrêté du mois")
    submit = _("Reporter et arrêter le mois")

    def perform(self, form):
        return services.levy_month_close(establishment=self.establishment, actor=self.request.user, **form.cleaned_data)
