"""Forms for baccara à deux tableaux."""

from django import forms
from django.utils.translation import gettext_lazy as _

from ..models import BaccaraBank
from ..services.baccara import DEUX_TABLEAUX
from .common import BreakdownField, CashForm


class BankerForm(CashForm):
    banker = forms.CharField(label=_("Nom du banquier"), max_length=150, required=False)
    bank = BreakdownField(label=_("Somme en banque (jetons et plaques)"))


class BaccaraBankForm(CashForm):
    table = forms.ModelChoiceField(label=_("Table"), queryset=None)
    kind = forms.ChoiceField(label=_("Mention"), choices=BaccaraBank.Kind.choices)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["table"].queryset = self.establishment.tables.filter(active=True, game=DEUX_TABLEAUX)
