"""Forms for the tables' counts, their certification and the rake."""

from django import forms
from django.utils.translation import gettext_lazy as _

from ledgers.core.countersign import ReauthMixin
from ledgers.core.forms import staff_choices
from ledgers.core.roles import Role

from ..selectors import RAKE_GAMES
from .common import BreakdownField, CashForm

TABLE_PEOPLE = (Role.CROUPIER, Role.CHEF_TABLE, Role.CHEF_PARTIE, Role.EMPLOYE_RESPONSABLE, Role.INSPECTEUR)


class CountForm(CashForm):
    breakdown = BreakdownField(label=_("Encaisse comptée"))
    tips = forms.DecimalField(label=_("Pourboires (€)"), min_value=0, decimal_places=2, required=False)
    present = forms.MultipleChoiceField(label=_("Employés de la table présents"), required=False)
    called_aloud = forms.BooleanField(label=_("Encaisse annoncée à haute voix"), required=False)
    count_room = forms.BooleanField(label=_("Comptée en salle de comptage"), required=False)
    cctv_reference = forms.CharField(
        label=_("Caméra et enregistrement de vidéoprotection"), max_length=120, required=False
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # The people of the table picked by name (searchable), written in the count as their names.
        self.fields["present"].choices = staff_choices(self.establishment, TABLE_PEOPLE, value="name")[1:]


class CertifyForm(ReauthMixin, CashForm):
    words = forms.CharField(label=_("Mention"), max_length=40, initial="exact")
    encaisse = forms.DecimalField(label=_("Encaisse retenue après recomptage (€)"), decimal_places=2, required=False)
    resolution = forms.CharField(
        label=_("Explication de l'écart"), widget=forms.Textarea(attrs={"rows": 2}), required=False
    )
    insurance_premiums = forms.DecimalField(
        label=_("Primes d'assurance refait (€)"), min_value=0, decimal_places=2, required=False
    )

    def __init__(self, *args, session=None, **kwargs):
        super().__init__(*args, **kwargs)
        # Only MC trente et quarante takes refait insurance premiums (COUNT-10).
        if session is None or session.table.game != "trente_quarante" or self.establishment.jurisdiction != "MC":
            del self.fields["insurance_premiums"]


class RakeForm(forms.Form):
    game = forms.ChoiceField(label=_("Jeu"), choices=[(g, g.replace("_", " ").title()) for g in RAKE_GAMES])
    cave = forms.DecimalField(label=_("Cave initiale (€)"), min_value=0, decimal_places=2)
    pot = forms.DecimalField(label=_("Montant effectif du pot (€)"), min_value=0, decimal_places=2)
    recorded = forms.DecimalField(
        label=_("Cagnotte prélevée (€, facultatif)"), min_value=0, decimal_places=2, required=False
    )


class PotRakeForm(CashForm):
    """Quick entry at the table: the pot, the rest defaults to the partie's buy-in and the rake due."""

    pot = forms.DecimalField(
        label=_("Montant effectif du pot (€)"),
        min_value=0,
        decimal_places=2,
        widget=forms.NumberInput(attrs={"autofocus": True, "inputmode": "decimal", "step": "0.01"}),
    )
    cave = forms.DecimalField(
        label=_("Cave initiale (€, au premier pot)"), min_value=0, decimal_places=2, required=False
    )
    taken = forms.DecimalField(
        label=_("Retenue opérée (€, si elle diffère de la retenue due)"),
        min_value=0,
        decimal_places=2,
        required=False,
    )

    def __init__(self, *args, session, **kwargs):
        super().__init__(*args, **kwargs)
        if session.pot_rakes.exists():  # the buy-in is the partie's, given with its first pot
            del self.fields["cave"]
