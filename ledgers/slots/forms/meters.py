"""Forms for meters."""

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from ledgers.core.forms import EstablishmentForm


class RamClearForm(EstablishmentForm):
    reset_key = forms.CharField(label=_("Clé de remise à zéro"), max_length=60)
    reason = forms.CharField(label=_("Motif"), widget=forms.Textarea(attrs={"rows": 2}))
    before = forms.CharField(
        label=_("Compteurs avant (poste:compteur valeur, un par ligne)"),
        widget=forms.Textarea(attrs={"rows": 6, "class": "mono"}),
    )
    after = forms.CharField(
        label=_("Compteurs après (poste:compteur valeur, un par ligne)"),
        widget=forms.Textarea(attrs={"rows": 6, "class": "mono"}),
    )

    @staticmethod
    def _values(text: str) -> dict[str, int]:
        try:
            return {
                key: int(value) for key, value in (line.rsplit(None, 1) for line in text.splitlines() if line.strip())
            }
        except ValueError as exc:
            raise ValidationError(_("Une ligne par compteur : « poste:compteur valeur ».")) from exc

    def clean_before(self) -> dict[str, int]:
        return self._values(self.cleaned_data["before"])

    def clean_after(self) -> dict[str, int]:
        return self._values(self.cleaned_data["after"])
