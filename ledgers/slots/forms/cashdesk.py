"""Forms of the slot room's change points and cash desk (SLOT-21, SLOT-48, SLOT-49)."""

from django import forms
from django.utils.translation import gettext_lazy as _

from ledgers.core.forms import EstablishmentForm
from ledgers.core.models import Seance
from ledgers.core.roles import Role

from ..models import ChangeMovement, ChangePoint, CommonDeskValidation, CounterfeitItem
from ..services.cashdesk import JUSTIFICATION_ITEMS
from ..services.staffing import fleet_threshold
from .accounting import AMOUNT
from .common import DATE, people

SIGNED = {"max_digits": 14, "decimal_places": 2}


class ChangePointForm(EstablishmentForm):
    kind = forms.ChoiceField(label=_("Nature"), choices=ChangePoint.Kind.choices)
    name = forms.CharField(label=_("Désignation"), max_length=100)
    cash = forms.DecimalField(label=_("Espèces de l'encaisse (€)"), initial=0, min_value=0, **AMOUNT)
    chips = forms.DecimalField(label=_("Jetons de l'encaisse (€)"), initial=0, min_value=0, **AMOUNT)
    fixed_sum = forms.DecimalField(label=_("Somme fixe (€)"), required=False, min_value=0, **AMOUNT)


class AssignForm(EstablishmentForm):
    seance = forms.ModelChoiceField(label=_("Séance"), queryset=Seance.objects.none())
    person = forms.ModelChoiceField(label=_("Affecté"), queryset=Seance.objects.none())

    def setup(self) -> None:
        self.fields["seance"].queryset = Seance.objects.filter(
            establishment=self.establishment, status=Seance.Status.OPEN
        )
        self.fields["person"].queryset = people(
            self.establishment, Role.CAISSIER, Role.CAISSIER_PRINCIPAL, Role.CHANGEUR
        )


ACCOUNTS = [("", "—"), ("table", _("Jeux de table")), ("slot", _("Machines à sous"))]


class ChangeForm(EstablishmentForm):
    amount = forms.DecimalField(label=_("Montant (€)"), min_value=0, **AMOUNT)
    given = forms.ChoiceField(label=_("Remis en"), choices=ChangeMovement.Given.choices)
    account = forms.ChoiceField(label=_("Comptabilité (caisse commune)"), choices=ACCOUNTS, required=False)


class JustifyForm(EstablishmentForm):
    def setup(self) -> None:
        for name, label in JUSTIFICATION_ITEMS.items():
            self.fields[name] = forms.DecimalField(label=label, required=False, min_value=0, **AMOUNT)


class RestoreForm(EstablishmentForm):
    cash = forms.DecimalField(label=_("Espèces (€)"), initial=0, **SIGNED)
    chips = forms.DecimalField(label=_("Jetons (€)"), initial=0, **SIGNED)
    counterpart = forms.ChoiceField(label=_("Avec"), choices=ChangeMovement.Counterpart.choices)


class AssignmentCloseForm(EstablishmentForm):
    cash = forms.DecimalField(label=_("Espèces en fin de séance (€)"), min_value=0, **AMOUNT)
    chips = forms.DecimalField(label=_("Jetons en fin de séance (€)"), min_value=0, **AMOUNT)


class CounterfeitForm(EstablishmentForm):
    kind = forms.ChoiceField(label=_("Nature"), choices=CounterfeitItem.Kind.choices)
    description = forms.CharField(label=_("Description"), max_length=200)
    quantity = forms.IntegerField(label=_("Quantité"), min_value=1, max_value=10**5)
    found_during = forms.ChoiceField(label=_("Trouvée lors de"), choices=CounterfeitItem.FoundDuring.choices)
    found_by = forms.ModelChoiceField(label=_("Trouvée par"), queryset=Seance.objects.none())

    def setup(self) -> None:
        self.fields["found_by"].queryset = people(self.establishment, *Role.values)


class DestructionForm(EstablishmentForm):
    controller_name = forms.CharField(label=_("Comptable du Trésor, chef de poste"), max_length=200)


class CommonDeskForm(EstablishmentForm):
    name = forms.CharField(label=_("Désignation"), max_length=100)
    route = forms.ChoiceField(label=_("Cas"), choices=CommonDeskValidation.Route.choices)
    contiguous_tables = forms.BooleanField(label=_("Jeux de table dans des lieux contigus"), required=False)
    validation_reference = forms.CharField(label=_("Référence de la validation"), max_length=100, required=False)
    validation_date = forms.DateField(
        label=_("Date de la validation"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    validator_name = forms.CharField(label=_("Chef du service de police judiciaire"), max_length=200, required=False)
    cash = forms.DecimalField(label=_("Espèces de l'encaisse (€)"), initial=0, min_value=0, **AMOUNT)
    chips = forms.DecimalField(label=_("Jetons de l'encaisse (€)"), initial=0, min_value=0, **AMOUNT)


class StaffingForm(EstablishmentForm):
    """The day's slot-room staffing (FR SLOT-50)."""

    date = forms.DateField(label=_("Journée"), widget=DATE)
    comite = forms.ModelChoiceField(
        label=_("Membre du comité de direction affecté au contrôle des jeux"), queryset=Seance.objects.none()
    )
    cashier = forms.ModelChoiceField(label=_("Caissier"), queryset=Seance.objects.none())
    maintainer = forms.ModelChoiceField(
        label=_("Mécanicien ou employé chargé de l'entretien"), required=False, queryset=Seance.objects.none()
    )
    training = forms.CharField(label=_("Formation préalable à l'entretien"), max_length=200, required=False)

    def setup(self) -> None:
        est = self.establishment
        self.fields["date"].initial = est.localtime().date()
        threshold = {"n": fleet_threshold(est)}
        self.fields["maintainer"].help_text = (
            _("Un mécanicien est obligatoire au-delà de %(n)s machines en exploitation.") % threshold
        )
        self.fields["training"].help_text = (
            _("Pour l'employé ou le caissier chargé de l'entretien et du dépannage courants (%(n)s machines au plus).")
            % threshold
        )
        self.fields["comite"].queryset = people(est, Role.COMITE, Role.DIRECTEUR_RESPONSABLE)
        self.fields["cashier"].queryset = people(est, Role.CAISSIER, Role.CAISSIER_PRINCIPAL)
        self.fields["maintainer"].queryset = people(
            est, Role.MECANICIEN, Role.EMPLOYE_JEUX, Role.CAISSIER, Role.CAISSIER_PRINCIPAL
        )
