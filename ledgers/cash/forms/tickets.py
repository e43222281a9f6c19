"""Forms for ticket books, their stamps and the levy machines."""

from django import forms
from django.utils.translation import gettext_lazy as _

from ..services.tickets import CARD_CERCLE_GAMES, CERCLE_GAMES
from .common import CashForm


class TicketBookForm(CashForm):
    table = forms.ModelChoiceField(label=_("Table"), queryset=None)
    cover_number = forms.CharField(label=_("Numéro de couverture"), max_length=30)
    ticket_value = forms.DecimalField(label=_("Valeur du ticket (€)"), min_value=0, decimal_places=2)
    first_number = forms.IntegerField(label=_("Premier ticket"), min_value=1)
    last_number = forms.IntegerField(label=_("Dernier ticket"), min_value=1)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["table"].queryset = self.establishment.tables.filter(active=True)


class CardTableNumberForm(CashForm):
    table = forms.ModelChoiceField(label=_("Table"), queryset=None)
    serial = forms.IntegerField(label=_("Numéro d'ordre"), min_value=1, max_value=10_000)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["table"].queryset = self.establishment.tables.filter(active=True, game__in=CARD_CERCLE_GAMES)


class TicketStampForm(CashForm):
    blue_line = forms.BooleanField(
        label=_("Trait au crayon bleu tracé après les tickets de la séance précédente"), required=False
    )


class LevyMachineForm(CashForm):
    table = forms.ModelChoiceField(label=_("Table"), queryset=None)
    approval_reference = forms.CharField(label=_("Agrément de la machine"), max_length=80, required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["table"].queryset = self.establishment.tables.filter(active=True, game__in=CERCLE_GAMES)


class MachineHistoryForm(CashForm):
    history_total = forms.DecimalField(
        label=_("Total de l'historique édité (€)"), min_value=0, decimal_places=2, max_digits=14
    )
    printout_reference = forms.CharField(label=_("Référence de l'historique"), max_length=120, required=False)
