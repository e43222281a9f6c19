from django import forms
from django.utils.translation import gettext_lazy as _

from ledgers.core.models import TableSession
from ledgers.core.roles import Role

from .models import IncidentNotice

DATETIME = forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M")


class NoticeForm(forms.Form):
    recipient_role = forms.ChoiceField(label=_("Personne ou autorité informée"), choices=Role.choices)
    recipient_name = forms.CharField(label=_("Nom"), max_length=200)
    notified_at = forms.DateTimeField(label=_("Informé le"), widget=DATETIME)
    channel = forms.ChoiceField(label=_("Moyen"), choices=IncidentNotice.Channel.choices)


class DeclareForm(forms.Form):
    """An incident of play seen at a table or in a room (INC-01): what, when, where."""

    found_at = forms.DateTimeField(label=_("Constaté le"), widget=DATETIME)
    table_session = forms.ModelChoiceField(label=_("Table (partie en cours)"), queryset=None, required=False)
    description = forms.CharField(label=_("Ce qui s'est passé"), widget=forms.Textarea(attrs={"rows": 3}))
    circumstances = forms.CharField(label=_("Circonstances"), required=False, widget=forms.Textarea(attrs={"rows": 2}))

    def __init__(self, *args, establishment, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["table_session"].queryset = (
            TableSession.objects.filter(seance__establishment=establishment)
            .exclude(status=TableSession.Status.CLOSED)
            .select_related("table", "seance")
            .order_by("table__number")
        )


class DecisionForm(forms.Form):
    decision = forms.CharField(label=_("Décision de la Direction"), widget=forms.Textarea(attrs={"rows": 3}))


class CloseForm(forms.Form):
    confirm = forms.BooleanField(label=_("Je clos l'incident : la décision devient définitive."))
