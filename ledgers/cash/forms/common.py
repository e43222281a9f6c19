"""What the table cash forms share: the breakdown field and the establishment-bound base form."""

from django import forms
from django.utils.translation import gettext_lazy as _

from ledgers.core.countersign import CountersignMixin

from .. import breakdowns

BREAKDOWN_HELP = _("Une ligne par valeur : « valeur x quantité [jeton|plaque|billet] », par ex. « 1000 x 20 plaque ».")


class BreakdownField(forms.CharField):
    widget = forms.Textarea(attrs={"rows": 5})

    def __init__(self, **kwargs):
        kwargs.setdefault("help_text", BREAKDOWN_HELP)
        super().__init__(**kwargs)

    def clean(self, value):
        return breakdowns.parse_breakdown(super().clean(value))


class CashForm(CountersignMixin, forms.Form):
    def __init__(self, *args, establishment, request, **kwargs):
        self.establishment, self.request = establishment, request
        super().__init__(*args, **kwargs)


DATETIME = forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M")
