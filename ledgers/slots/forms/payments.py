"""Forms for jackpot payments."""

from django import forms
from django.utils.translation import gettext_lazy as _

from ledgers.core.countersign import CountersignMixin
from ledgers.core.forms import EstablishmentForm
from ledgers.core.models import Room
from ledgers.core.roles import Role

from ..models import Machine, PaymentMethod
from .common import LOCAL_DATETIME, people


class MachineChoiceForm(EstablishmentForm):
    machine = forms.ModelChoiceField(
        label=_("Machine"), queryset=Machine.objects.none(), widget=forms.Select(attrs={"data-searchable": ""})
    )

    def setup(self) -> None:
        self.fields["machine"].queryset = Machine.objects.filter(establishment=self.establishment)


class JackpotForm(CountersignMixin, MachineChoiceForm):
    station = forms.IntegerField(label=_("Poste"), min_value=1, initial=1)
    amount = forms.DecimalField(label=_("Montant (€)"), max_digits=14, decimal_places=2)
    combination = forms.CharField(label=_("Combinaison gagnante"), max_length=200, required=False)
    method = forms.ChoiceField(label=_("Mode de paiement"), choices=PaymentMethod.choices)
    id_type = forms.CharField(label=_("Pièce d'identité"), max_length=60, required=False)
    id_number = forms.CharField(label=_("Numéro de la pièce"), max_length=60, required=False)
    pre_check = forms.CharField(
        label=_("Contrôle préalable de la machine"), required=False, widget=forms.Textarea(attrs={"rows": 2})
    )

    def setup(self) -> None:
        super().setup()
        # FR SLOT-35: the comité member who controls the payment signs it here, password again.
        self.add_countersignature(
            "controller", _("Contrôlé par (membre du comité)"), required=False, roles=(Role.COMITE,)
        )


class DisputeForm(MachineChoiceForm):
    claim = forms.CharField(label=_("Réclamation du client"), widget=forms.Textarea(attrs={"rows": 2}))
    mechanic = forms.ModelChoiceField(label=_("Mécanicien entendu"), queryset=Room.objects.none())
    mechanic_statement = forms.CharField(label=_("Avis du mécanicien"), widget=forms.Textarea(attrs={"rows": 2}))
    decision = forms.CharField(label=_("Décision"), widget=forms.Textarea(attrs={"rows": 2}))
    amount_paid = forms.DecimalField(label=_("Montant payé (€)"), initial=0, max_digits=14, decimal_places=2)

    def setup(self) -> None:
        super().setup()
        self.fields["mechanic"].queryset = people(self.establishment, Role.MECANICIEN)


class TopUpForm(MachineChoiceForm):
    combination = forms.CharField(label=_("Combinaison"), max_length=200)
    amount_due = forms.DecimalField(label=_("Montant dû (€)"), max_digits=14, decimal_places=2)
    paid_by_machine = forms.DecimalField(label=_("Payé par la machine (€)"), max_digits=14, decimal_places=2)
    difference = forms.DecimalField(label=_("Complément payé (€)"), max_digits=14, decimal_places=2)
    customer = forms.CharField(label=_("Client"), max_length=200)
    mechanic_opinion = forms.CharField(label=_("Avis du mécanicien"), widget=forms.Textarea(attrs={"rows": 2}))


class JackpotThresholdForm(EstablishmentForm):
    """MC: the amount above which a win is paid only on an identity document, from its date (SLOT-16)."""

    amount = forms.DecimalField(label=_("Montant (€)"), max_digits=12, decimal_places=2)
    effective_from = forms.DateTimeField(label=_("En vigueur le"), widget=LOCAL_DATETIME)
