"""The page of the month's levy."""

import datetime

from django.utils.translation import gettext_lazy as _

from .. import forms, services
from .common import CashFormView


class LevyMonthView(CashFormView):
    form_class = forms.LevyMonthForm
    title = _("Carnet des prélèvements (modèle 13) : arrêté du mois")
    submit = _("Reporter et arrêter le mois")

    def get_initial(self):
        # The month to close is the one just ended.
        last = self.establishment.localtime().date().replace(day=1) - datetime.timedelta(days=1)
        return {"year": last.year, "month": last.month}

    def perform(self, form):
        return services.levy_month_close(establishment=self.establishment, actor=self.request.user, **form.cleaned_data)
