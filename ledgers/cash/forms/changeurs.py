"""Forms for the changeurs' floats."""

from django import forms
from django.contrib.auth import get_user_model
from django.utils.translation import gettext_lazy as _

from ledgers.core.roles import Role

from .common import BreakdownField, CashForm


class ChangeurFloatFixForm(CashForm):
    table = forms.ModelChoiceField(label=_("Table"), queryset=None)
    amount = forms.DecimalField(label=_("Somme de la caisse du changeur (€)"), min_value=0, decimal_places=2)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["table"].queryset = self.establishment.tables.filter(active=True)


class ChangeurFloatForm(CashForm):
    changeur = forms.ModelChoiceField(label=_("Changeur"), queryset=None)
    breakdown = BreakdownField(label=_("Nomenclature"))

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["changeur"].queryset = (
            get_user_model()
            .objects.filter(memberships__establishment=self.establishment, memberships__role=Role.CHANGEUR)
            .distinct()
        )
