from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from ledgers.core.models import Establishment, Seance


class RegisterPrintForm(forms.Form):
    lang = forms.ChoiceField(label=_("Langue"), choices=settings.LANGUAGES)
    sealed = forms.BooleanField(label=_("Scellé (signature électronique PAdES de l'établissement)"), required=False)


class DailyReportForm(forms.Form):
    seance = forms.ModelChoiceField(label=_("Séance clôturée"), queryset=Seance.objects.none())
    lang = forms.ChoiceField(label=_("Langue"), choices=settings.LANGUAGES)

    def __init__(self, *args, establishment: Establishment | None, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        if establishment is not None:
            self.fields["seance"].queryset = Seance.objects.filter(
                establishment=establishment, status=Seance.Status.CLOSED
            ).order_by("-date", "-opened_at")
