from django import forms
from django.utils.translation import gettext_lazy as _

from ledgers.core.roles import Role

from .models import IncidentNotice

DATETIME = forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M")


class NoticeForm(forms.Form):
    recipient_role = forms.ChoiceField(label=_("Personne ou autorité informée"), choices=Role.choices)
    recipient_name = forms.CharField(label=_("Nom"), max_length=200)
    notified_at = forms.DateTimeField(label=_("Informé le"), widget=DATETIME)
    channel = forms.ChoiceField(label=_("Moyen"), choices=IncidentNotice.Channel.choices)


class DecisionForm(forms.Form):
    decision = forms.CharField(label=_("Décision de la Direction"), widget=forms.Textarea(attrs={"rows": 3}))


class CloseForm(forms.Form):
    confirm = forms.BooleanField(label=_("Je clos l'incident : la décision devient définitive."))
