"""Forms for the bad beat jackpot."""

from django import forms
from django.utils.translation import gettext_lazy as _

from ledgers.core import amounts
from ledgers.incidents.models import IncidentNotice

from ..models import BadBeatConfig
from .common import DATETIME, CashForm


class BadBeatForm(CashForm):
    counted = forms.DecimalField(label=_("Cagnotte du bad beat jackpot comptée (€)"), min_value=0, decimal_places=2)
    statement = forms.DecimalField(label=_("Relevé informatique (€)"), min_value=0, decimal_places=2)
    displayed = forms.DecimalField(label=_("Montant affiché en fin de séance (€)"), min_value=0, decimal_places=2)
    present = forms.CharField(
        label=_("Employés de la table présents (un par ligne)"), widget=forms.Textarea(attrs={"rows": 3})
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.add_countersignature("comite", _("Membre du comité de direction"))


class BadBeatLogForm(CashForm):
    file = forms.FileField(label=_("Historique de la machine agréée (export CSV)"))

    def clean_file(self) -> str:
        try:
            return self.cleaned_data["file"].read().decode("utf-8")
        except UnicodeDecodeError as exc:
            raise forms.ValidationError(_("Le fichier doit être encodé en UTF-8.")) from exc


class BadBeatConfigForm(CashForm):
    starting_value = forms.DecimalField(label=_("Valeur de départ (€)"), min_value=0, decimal_places=2)
    increment_kind = forms.ChoiceField(label=_("Incrément"), choices=BadBeatConfig.Increment.choices)
    increment_value = forms.DecimalField(label=_("Montant ou taux de l'incrément"), min_value=0, decimal_places=2)
    rounding = forms.CharField(label=_("Mode d'arrondi"), max_length=200)
    side_pot_rule = forms.CharField(label=_("Retenue en cas de pots extérieurs"), max_length=250)
    minimum_pot = forms.DecimalField(label=_("Pot minimum du règlement intérieur (€)"), min_value=0, decimal_places=2)
    restart = forms.ChoiceField(label=_("Redémarrage après un gain"), choices=BadBeatConfig.Restart.choices)
    reassign = forms.BooleanField(label=_("Réaffecter l'incrément du bad beat jackpot arrêté"), required=False)


class BadBeatStopNoticeForm(CashForm):
    channel = forms.ChoiceField(label=_("Moyen"), choices=IncidentNotice.Channel.choices)
    reference = forms.CharField(label=_("Référence de l'information du ministre"), max_length=120)


class BadBeatBreakdownForm(CashForm):
    down_at = forms.DateTimeField(label=_("Heure de la panne"), widget=DATETIME)
    police_informed_at = forms.DateTimeField(label=_("Police judiciaire informée le"), widget=DATETIME, required=False)
    police_service = forms.CharField(label=_("Service de police informé"), max_length=150, required=False)


class BadBeatRestoreForm(CashForm):
    restored_at = forms.DateTimeField(label=_("Rétabli le"), widget=DATETIME)


class BadBeatWinForm(CashForm):
    combination = forms.CharField(label=_("Combinaison"), max_length=200)
    pot = forms.DecimalField(label=_("Pot (€)"), min_value=0, decimal_places=2)
    amount = forms.DecimalField(label=_("Montant du bad beat jackpot (€)"), min_value=0, decimal_places=2)
    players_present = forms.IntegerField(label=_("Joueurs présents à la table"), min_value=1, max_value=20)
    winner_name = forms.CharField(label=_("Gagnant du lot principal (nom et prénom)"), max_length=200)
    bons = forms.CharField(
        label=_("Bons de paiement (€), un par ligne, celui du gagnant en premier"),
        widget=forms.Textarea(attrs={"rows": 5}),
    )
    restart_value = forms.DecimalField(label=_("Valeur de redémarrage (€)"), min_value=0, decimal_places=2)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.add_countersignature("comite", _("Membre du comité de direction"))

    def clean_bons(self):
        return [
            amounts.money(line.strip().replace(",", "."))
            for line in self.cleaned_data["bons"].splitlines()
            if line.strip()
        ]
