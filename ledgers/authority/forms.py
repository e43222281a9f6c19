from django import forms
from django.utils.translation import gettext_lazy as _

from .models import Observation

DATETIME = forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M")
TEXT = forms.Textarea(attrs={"rows": 4})


class ObservationForm(forms.Form):
    visited_at = forms.DateTimeField(label=_("Jour et heure de la visite"), widget=DATETIME)
    agents = forms.CharField(label=_("Agents"), max_length=300)
    operations = forms.CharField(label=_("Nature des opérations effectuées"), widget=TEXT)
    nature = forms.ChoiceField(label=_("Nature"), choices=Observation.Nature.choices)
    text = forms.CharField(label=_("Observations, instructions ou injonctions"), widget=TEXT, required=False)


class FollowUpForm(forms.Form):
    text = forms.CharField(label=_("Suite réservée"), widget=TEXT)


class QuestionForm(forms.Form):
    subject = forms.CharField(label=_("Objet"), max_length=250)
    question = forms.CharField(label=_("Question"), widget=TEXT)


class AnswerForm(forms.Form):
    answer = forms.CharField(label=_("Réponse"), widget=TEXT)


class ArchiveForm(forms.Form):
    season = forms.IntegerField(label=_("Saison (année de début)"), min_value=2000, max_value=2100)


class PurgeForm(forms.Form):
    number = forms.CharField(label=_("Registre n°"), max_length=60)
