"""Forms for the tables' floats and cash boxes."""

from decimal import Decimal

from django import forms
from django.contrib.auth import get_user_model
from django.utils.translation import gettext_lazy as _

from ledgers.core.forms import StaffChoiceField
from ledgers.core.roles import Role

from ..services.box_holders import BOX_HOLDERS
from .common import CHIPS, BreakdownField, CashForm


class FloatForm(CashForm):
    kind = forms.ChoiceField(
        label=_("Nature"), choices=[("initial", _("Avance initiale")), ("top_up", _("Avance complémentaire"))]
    )
    breakdown = BreakdownField(label=_("Plaques et jetons remis à la table"), kinds=CHIPS)
    box_number = forms.CharField(label=_("Caisse n°"), max_length=20, required=False)
    transport_box = forms.CharField(label=_("Boîte de transport"), max_length=40, required=False)
    called_aloud = forms.BooleanField(label=_("Somme annoncée à haute voix"), required=False)
    carry_note = forms.CharField(
        label=_("Écart avec la comptée précédente"), widget=forms.Textarea(attrs={"rows": 2}), required=False
    )
    carnet_on_table = forms.BooleanField(
        label=_("Carnet d'avances posé sur la table devant le chef de partie ou le chef de table"), required=False
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if self.establishment.jurisdiction == "MC":
            for name in ("kind", "box_number", "transport_box", "called_aloud", "carnet_on_table"):
                del self.fields[name]
            self.add_countersignature("receiver", _("Chef de table qui reçoit"), roles=(Role.CHEF_TABLE,))
        else:
            self.fields["counted_by"] = StaffChoiceField(
                label=_("Compté par (croupier)"),
                establishment=self.establishment,
                roles=(Role.CROUPIER, Role.CHEF_TABLE),
                required=False,
            )
            self.order_fields(["kind", "breakdown", "box_number", "transport_box", "counted_by"])
            self.add_countersignature(
                "receiver",
                _("Chef de table ou employé désigné qui reçoit la caisse"),
                required=False,
                roles=(Role.CHEF_TABLE, *BOX_HOLDERS),
            )


class FixBankForm(CashForm):
    table = forms.ModelChoiceField(label=_("Table"), queryset=None)
    amount = forms.DecimalField(label=_("Somme mise en banque (€)"), min_value=0, decimal_places=2)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["table"].queryset = self.establishment.tables.filter(active=True)


class RefaitThresholdForm(CashForm):
    amount = forms.DecimalField(
        label=_("Mise minimale assurable contre le refait (€)"), min_value=Decimal("0.01"), decimal_places=2
    )


class BoxHolderForm(CashForm):
    employee = forms.ModelChoiceField(label=_("Employé chargé de la caisse"), queryset=None)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["employee"].queryset = (
            get_user_model()
            .objects.filter(
                memberships__establishment=self.establishment,
                memberships__role__in=[Role.CHEF_PARTIE, Role.EMPLOYE_RESPONSABLE, Role.CROUPIER],
            )
            .distinct()
        )
