"""Forms for the registre des plaques."""

from django import forms
from django.utils.translation import gettext_lazy as _

from .. import breakdowns
from ..models import ChipSeries
from .common import CashForm


class ChipSeriesForm(CashForm):
    kind = forms.ChoiceField(label=_("Nature"), choices=ChipSeries.Kind.choices)
    description = forms.CharField(label=_("Description sommaire"), max_length=200)
    manufacturer = forms.CharField(label=_("Fabricant"), max_length=150)
    series_count = forms.IntegerField(label=_("Nombre de séries"), min_value=1, max_value=1_000_000)
    reserve_series = forms.IntegerField(label=_("Séries à la réserve générale"), min_value=0, max_value=1_000_000)
    pieces = forms.CharField(
        label=_("Valeurs et nombre par valeur d'une série"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text=_("Plaques et jetons : une ligne « valeur x quantité » par valeur."),
    )
    cards_per_series = forms.IntegerField(label=_("Cartes par série"), min_value=0, max_value=1_000_000, required=False)

    def clean_pieces(self):
        text = self.cleaned_data["pieces"]
        return (
            [{"value": line["value"], "quantity": line["quantity"]} for line in breakdowns.parse_breakdown(text)]
            if text.strip()
            else []
        )

    def clean_cards_per_series(self):
        return self.cleaned_data["cards_per_series"] or 0


class ChipAllocateForm(CashForm):
    in_service_series = forms.IntegerField(label=_("Séries en service"), min_value=0, max_value=1_000_000)


class ChipCensusForm(CashForm):
    census_date = forms.DateField(label=_("Date du recensement"), widget=forms.DateInput(attrs={"type": "date"}))
    counted = forms.CharField(
        label=_("Pièces recensées"),
        widget=forms.Textarea(attrs={"rows": 5}),
        help_text=_(
            "Une ligne par série et valeur : « n° de série  valeur  quantité » (cartes : « n° de série  0  quantité »)."
        ),
    )
    counted_by = forms.CharField(label=_("Recensé par"), max_length=300)
    account_balance = forms.DecimalField(
        label=_("Solde créditeur du compte « plaques, jetons et cartes de paiement » (€)"),
        decimal_places=2,
        max_digits=14,
    )

    def clean_counted(self):
        lines = []
        for raw in self.cleaned_data["counted"].splitlines():
            parts = raw.split()
            if not parts:
                continue
            if len(parts) != 3 or not parts[0].isdigit() or not parts[2].isdigit():
                raise forms.ValidationError(_("Ligne illisible : « %(line)s ».") % {"line": raw.strip()})
            lines.append({"series": int(parts[0]), "value": parts[1].replace(",", "."), "quantity": int(parts[2])})
        return lines
