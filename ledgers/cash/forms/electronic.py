"""Forms for electronic games."""

from django import forms
from django.utils.translation import gettext_lazy as _

from ledgers.core.countersign import ReauthMixin

from ..models import ElectronicDevice
from .common import CashForm


class DeviceForm(CashForm):
    family = forms.ChoiceField(label=_("Famille"), choices=ElectronicDevice.Family.choices)
    number = forms.CharField(label=_("Appareil n°"), max_length=30)
    game = forms.CharField(label=_("Jeu pratiqué"), max_length=100)
    stations = forms.IntegerField(label=_("Postes de jeu"), min_value=1, max_value=1000)


class StationResultForm(CashForm):
    date = forms.DateField(label=_("Date"), widget=forms.DateInput(attrs={"type": "date"}))
    station = forms.IntegerField(label=_("Poste de jeu"), min_value=1, max_value=1000)
    avances = forms.DecimalField(label=_("Avances de la caisse (€)"), min_value=0, decimal_places=2, max_digits=14)
    physical_count = forms.DecimalField(label=_("Comptée physique (€)"), min_value=0, decimal_places=2, max_digits=14)
    units_in = forms.IntegerField(label=_("Unités entrées"), min_value=0)
    units_out = forms.IntegerField(label=_("Unités sorties"), min_value=0)
    unit_stake = forms.DecimalField(label=_("Mise unitaire (€)"), min_value=0, decimal_places=2, max_digits=8)
    tickets_issued = forms.DecimalField(label=_("Tickets émis (€)"), min_value=0, decimal_places=2, max_digits=14)
    product = forms.DecimalField(label=_("Produit (€)"), decimal_places=2, max_digits=14, required=False)


class DeviceVisaForm(ReauthMixin, CashForm):
    date = forms.DateField(label=_("Date"), widget=forms.DateInput(attrs={"type": "date"}))


class MeterStatementForm(ReauthMixin, CashForm):
    year = forms.IntegerField(label=_("Année"), min_value=2000, max_value=2100)
    month = forms.IntegerField(label=_("Mois"), min_value=1, max_value=12)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.add_countersignature("comite", _("Membre du comité de direction"))


class CercleDayForm(CashForm):
    date = forms.DateField(label=_("Date"), widget=forms.DateInput(attrs={"type": "date"}))
    parties = forms.IntegerField(label=_("Parties"), min_value=0)
    levies = forms.DecimalField(
        label=_("Retenues au profit de la cagnotte (€)"), min_value=0, decimal_places=2, max_digits=14
    )


class CercleCertifyForm(ReauthMixin, CashForm):
    words = forms.CharField(label=_("Mention"), max_length=40, initial="certifié exact")
