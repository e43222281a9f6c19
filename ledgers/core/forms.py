"""Form pieces shared by the ledgers' pages."""

from django import forms
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from .models import Establishment, GamingTable, Seance, SeancePeriod
from .selectors import unprepared_tables


class EstablishmentForm(forms.Form):
    """A form whose choices are those of the user's establishment; it knows the request too (a
    countersignature is checked at this terminal)."""

    def __init__(self, *args, establishment: Establishment, request: HttpRequest | None = None, **kwargs) -> None:
        self.establishment, self.request = establishment, request
        super().__init__(*args, **kwargs)
        self.setup()

    @property
    def jurisdiction(self) -> str:
        return self.establishment.jurisdiction

    def setup(self) -> None:
        """Limit the choices to this establishment."""


class SeanceOpenForm(forms.Form):
    date = forms.DateField(label=_("Date"), widget=forms.DateInput(attrs={"type": "date"}))
    period = forms.ChoiceField(label=_("Période"), choices=SeancePeriod.choices)


class TablePrepareForm(forms.Form):
    """The tables of the séance's establishment that have no table-partie in it yet."""

    table = forms.ModelChoiceField(label=_("Table"), queryset=GamingTable.objects.none())

    def __init__(self, *args, seance: Seance, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["table"].queryset = unprepared_tables(seance)
