"""Forms for interventions."""

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from ledgers.core.countersign import CountersignMixin
from ledgers.core.forms import EstablishmentForm
from ledgers.core.models import Room
from ledgers.core.roles import Role

from .. import selectors
from ..models import Machine, StaffApproval
from .common import DATE, LOCAL_DATETIME, people


class InterventionForm(EstablishmentForm):
    reason = forms.CharField(label=_("Motif de l'arrêt"), widget=forms.Textarea(attrs={"rows": 2}))
    stopped_at = forms.DateTimeField(label=_("Machine arrêtée à"), widget=LOCAL_DATETIME, required=False)


class InterventionNewForm(InterventionForm):
    """The intervention sheet opened from the mechanic's home: the machine chosen by typing or
    scanning its number."""

    machine = forms.ModelChoiceField(
        label=_("Machine"),
        queryset=Machine.objects.none(),
        widget=forms.Select(attrs={"data-searchable": ""}),
    )
    field_order = ["machine", "reason", "stopped_at"]

    def setup(self) -> None:
        self.fields["machine"].queryset = selectors.machines_of(self.establishment)


class InterventionCloseForm(EstablishmentForm):
    work_done = forms.CharField(label=_("Travaux effectués"), widget=forms.Textarea(attrs={"rows": 3}))


class TransmittalForm(CountersignMixin, EstablishmentForm):
    """The envelope handed to the Direction de l'exploitation, who signs its receipt (SLOT-15)."""

    date = forms.DateField(label=_("Journée"), widget=DATE)

    def setup(self) -> None:
        self.add_countersignature(
            "received_by", _("Reçue par (Direction de l'exploitation)"), roles=(Role.DIRECTEUR_EXPLOITATION,)
        )


class ApprovalForm(EstablishmentForm):
    user = forms.ModelChoiceField(label=_("Personne"), queryset=Room.objects.none())
    kind = forms.ChoiceField(label=_("Nature"), choices=StaffApproval.Kind.choices)
    reference = forms.CharField(label=_("Référence"), max_length=100)
    issuer = forms.CharField(label=_("Délivré par"), max_length=200)
    valid_from = forms.DateField(label=_("Valable du"), widget=DATE)
    valid_until = forms.DateField(label=_("Valable jusqu'au"), widget=DATE, required=False)

    def setup(self) -> None:
        self.fields["user"].queryset = people(
            self.establishment,
            Role.MECANICIEN,
            Role.TECHNICIEN_SFM,
            Role.CAISSIER,
            Role.EMPLOYE_JEUX,
            Role.COMITE,
            Role.SUPERVISEUR,
        )


class SfmVisitForm(EstablishmentForm):
    machines = forms.ModelMultipleChoiceField(label=_("Machines visitées"), queryset=Machine.objects.none())
    limits = forms.CharField(
        label=_("Limites contrôlées (une ligne par machine : numéro limite_d'insertion limite_de_paiement)"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 4, "class": "mono"}),
    )
    remarks = forms.CharField(label=_("Remarques et conclusions"), widget=forms.Textarea(attrs={"rows": 3}))

    def setup(self) -> None:
        self.fields["machines"].queryset = Machine.objects.filter(
            establishment=self.establishment, status=Machine.Status.IN_SERVICE
        )

    def clean_limits(self) -> dict[str, dict[str, str]]:
        try:
            return {
                number: {"insertion_limit": insertion, "payment_limit": payment}
                for number, insertion, payment in (
                    line.split() for line in self.cleaned_data["limits"].splitlines() if line.strip()
                )
            }
        except ValueError as exc:
            raise ValidationError(_("Une ligne par machine : numéro, limite d'insertion, limite de paiement.")) from exc
