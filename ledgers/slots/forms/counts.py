"""Forms of the slot count sessions (SLOT-46). FR: each machine's line is written in its modèle 29
by the logged-in cashier and visaed by the comité member at this terminal."""

from django import forms
from django.utils.translation import gettext_lazy as _

from ledgers.core.forms import EstablishmentForm
from ledgers.core.models import Seance

from ..models import Machine, Releve, SlotCount
from .accounting import AMOUNT, COMITE_LABEL, VisaForm


class CountOpenForm(EstablishmentForm):
    kind = forms.ChoiceField(label=_("Type de comptée"), choices=SlotCount.Kind.choices)
    seance = forms.ModelChoiceField(label=_("Séance"), queryset=Seance.objects.none(), required=False)
    denomination = forms.DecimalField(label=_("Dénomination (€)"), max_digits=10, decimal_places=2, required=False)
    releve = forms.ModelChoiceField(label=_("Relève"), queryset=Releve.objects.none(), required=False)

    def setup(self) -> None:
        self.fields["seance"].queryset = Seance.objects.filter(
            establishment=self.establishment, status=Seance.Status.OPEN
        )
        self.fields["releve"].queryset = Releve.objects.filter(establishment=self.establishment)
        if self.jurisdiction == "MC":
            self.fields["kind"].choices = [(SlotCount.Kind.AS_NEEDED, SlotCount.Kind.AS_NEEDED.label)]
            self.fields["releve"].required = True  # the count is of a relève's boxes
            del self.fields["seance"], self.fields["denomination"]
        else:
            del self.fields["releve"]


class CountLineForm(VisaForm):
    machine = forms.ModelChoiceField(label=_("Machine"), queryset=Machine.objects.none())
    coins = forms.DecimalField(label=_("Pièces ou jetons (€)"), initial=0, min_value=0, **AMOUNT)
    bills = forms.DecimalField(label=_("Billets (€)"), initial=0, min_value=0, **AMOUNT)
    tickets = forms.DecimalField(label=_("Tickets (€)"), initial=0, min_value=0, **AMOUNT)
    units_in = forms.IntegerField(label=_("Unités entrées"), min_value=0, max_value=10**15, required=False)
    units_out = forms.IntegerField(label=_("Unités sorties"), min_value=0, max_value=10**15, required=False)
    hopper = forms.DecimalField(label=_("Trémie (€)"), required=False, min_value=0, **AMOUNT)
    unclaimed = forms.DecimalField(label=_("Gains non réclamés (€)"), initial=0, min_value=0, **AMOUNT)

    def setup(self) -> None:
        self.fields["machine"].queryset = Machine.objects.filter(establishment=self.establishment)
        if self.jurisdiction == "MC":
            for name in ("units_in", "units_out", "hopper", "unclaimed"):
                del self.fields[name]
            return
        self.add_countersignature("comite", COMITE_LABEL)


class CountCloseForm(EstablishmentForm):
    floats = forms.DecimalField(label=_("Fonds de caisse comptés (€)"), required=False, min_value=0, **AMOUNT)
