"""Forms for orphans and their restitution."""

from django import forms
from django.utils.translation import gettext_lazy as _

from ..models import Orphan
from .common import CashForm


class OrphanForm(CashForm):
    category = forms.ChoiceField(label=_("Nature"), choices=Orphan.Category.choices)
    amount = forms.DecimalField(label=_("Montant (€)"), min_value=0, decimal_places=2)
    initial_stake = forms.DecimalField(label=_("Mise initiale (€)"), min_value=0, decimal_places=2, required=False)
    winnings = forms.DecimalField(label=_("Gains cumulés (€)"), min_value=0, decimal_places=2, required=False)
    place = forms.CharField(label=_("Lieu"), max_length=100)
    found_by = forms.CharField(label=_("Trouvé par"), max_length=150)
    witness = forms.CharField(label=_("Témoin"), max_length=150, required=False)
    paid_into = forms.CharField(label=_("Versé à (caisse ou tirelire n°)"), max_length=60)


class RestitutionForm(CashForm):
    amount = forms.DecimalField(label=_("Montant restitué (€)"), min_value=0, decimal_places=2)
    name = forms.CharField(label=_("Nom du bénéficiaire"), max_length=150)
    address = forms.CharField(label=_("Adresse"), max_length=300)
    proof = forms.CharField(label=_("Justificatif produit"), max_length=300)
