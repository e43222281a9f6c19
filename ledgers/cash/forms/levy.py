"""The form of the month's levy."""

from django import forms
from django.utils.translation import gettext_lazy as _

from .common import CashForm


class LevyMonthForm(CashForm):
    year = forms.IntegerField(label=_("Année"), min_value=2000)
    month = forms.IntegerField(label=_("Mois"), min_value=1, max_value=12)
    slot_total = forms.DecimalField(
        label=_("Total du modèle 35 (machines à sous, €)"),
        decimal_places=2,
        required=False,
        help_text=_("Laissé vide, le total du modèle 35 certifié du mois est reporté."),
    )
