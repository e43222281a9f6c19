"""Forms for the registre de contrôle."""

from django import forms
from django.utils.translation import gettext_lazy as _

from ledgers.core.countersign import ReauthMixin

from .common import CashForm


class ControlCloseForm(CashForm):
    date = forms.DateField(label=_("Journée"), widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"))


class ControlVisaForm(ReauthMixin, CashForm):
    statement = forms.CharField(label=_("Mention du visa"), max_length=200, required=False)
