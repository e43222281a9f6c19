"""Forms of FR slot accounting: the logged-in cashier writes and signs with their password again
(``ReauthMixin``), the comité member visas at this terminal with theirs (``CountersignMixin``):
each modèle 29 entry bears both electronic signatures (art. 73, REG-28)."""

from django import forms
from django.utils.translation import gettext_lazy as _

from ledgers.core.countersign import CountersignMixin, ReauthMixin
from ledgers.core.forms import EstablishmentForm
from ledgers.core.models import Room
from ledgers.core.roles import Role

from ..models import JackpotPayment, MachineAvance
from ..services.accounting import payments_to_post
from .common import people

AMOUNT = {"max_digits": 14, "decimal_places": 2}
COMITE_LABEL = _("Membre du comité de direction")


class VisaForm(ReauthMixin, CountersignMixin, EstablishmentForm):
    def setup(self) -> None:
        self.add_countersignature("comite", COMITE_LABEL)

    def clean(self):
        cleaned = super().clean()
        for field in ("password", "otp_token"):  # the writer has signed; the services take people, not secrets
            cleaned.pop(field, None)
        return cleaned


class AvanceForm(VisaForm):
    reason = forms.ChoiceField(label=_("Motif"), choices=MachineAvance.Reason.choices)
    denomination = forms.CharField(label=_("Valeur des pièces ou jetons"), max_length=30)
    amount = forms.DecimalField(label=_("Montant (€)"), **AMOUNT)
    refilled_by = forms.ModelChoiceField(label=_("Rechargée par"), queryset=Room.objects.none())

    def setup(self) -> None:
        self.fields["refilled_by"].queryset = people(
            self.establishment, Role.EMPLOYE_JEUX, Role.CHANGEUR, Role.MECANICIEN
        )
        super().setup()


class PaymentPostForm(VisaForm):
    payment = forms.ModelChoiceField(label=_("Bon de paiement"), queryset=JackpotPayment.objects.none())

    def setup(self) -> None:
        self.fields["payment"].queryset = payments_to_post(self.establishment)
        super().setup()


class TicketsForm(VisaForm):
    day = forms.DateField(label=_("Journée"), widget=forms.DateInput(attrs={"type": "date"}))
    amount = forms.DecimalField(label=_("Montant (€)"), **AMOUNT)


class CountForm(VisaForm):
    physical = forms.DecimalField(label=_("Comptage physique (€)"), **AMOUNT)
    units_in = forms.IntegerField(label=_("Unités entrées"), min_value=0, max_value=10**15, initial=0)
    units_out = forms.IntegerField(label=_("Unités sorties"), min_value=0, max_value=10**15, initial=0)
    unclaimed = forms.DecimalField(label=_("Gains non réclamés (€)"), initial=0, **AMOUNT)
    product = forms.DecimalField(label=_("Produit réel des jeux (€)"), required=False, **AMOUNT)


class MonthForm(VisaForm):
    year = forms.IntegerField(label=_("Année"), min_value=2000, max_value=2100)
    month = forms.IntegerField(label=_("Mois"), min_value=1, max_value=12)


class StatementForm(MonthForm):
    total = forms.DecimalField(
        label=_("Total du produit réel des jeux (€)"), required=False, max_digits=16, decimal_places=2
    )
