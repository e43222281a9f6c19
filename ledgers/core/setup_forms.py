"""Forms of the set-up: the establishment created by the administrator with its first director,
its rooms and places, and the spreadsheets that fill them."""

import json
import zoneinfo

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from .forms import EstablishmentForm
from .imports import FORMATS
from .jurisdictions import Jurisdiction
from .models import LocationKind, Room


def parse_settings(text: str) -> dict:
    """Lines ``CODE=value`` (the value in JSON when it reads as JSON, else as text), e.g.
    ``SET-20=2``: the settings the establishment starts with."""
    options = {}
    for number, line in enumerate((text or "").splitlines(), start=1):
        if not line.strip():
            continue
        code, sep, raw = line.partition("=")
        if not sep or not code.strip():
            raise ValidationError(_("Ligne %(n)s : CODE=valeur attendu.") % {"n": number})
        try:
            value = json.loads(raw)
        except json.JSONDecodeError:
            value = raw.strip()
        options[code.strip()] = value
    return options


class EstablishmentCreateForm(forms.Form):
    code = forms.SlugField(label=_("Code"), max_length=20, help_text=_("Lettres, chiffres et tirets, ex. casino-nice."))
    name = forms.CharField(label=_("Nom"), max_length=200)
    jurisdiction = forms.ChoiceField(label=_("Juridiction"), choices=Jurisdiction.choices)
    timezone_name = forms.CharField(
        label=_("Fuseau horaire"), max_length=64, required=False, help_text=_("Vide : Europe/Monaco ou Europe/Paris.")
    )
    address = forms.CharField(label=_("Adresse"), required=False, widget=forms.Textarea(attrs={"rows": 2}))
    settings = forms.CharField(
        label=_("Réglages de départ"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 2, "class": "mono"}),
        help_text=_("Une ligne par réglage : CODE=valeur (ex. SET-20=2). Vide : ceux de la juridiction."),
    )
    director = forms.CharField(
        label=_("Directeur (identifiant de connexion)"),
        max_length=150,
        help_text=_(
            "Le compte qui reçoit le rôle de directeur responsable (France) ou de directeur des jeux (Monaco)."
        ),
    )

    def clean_timezone_name(self) -> str:
        value = self.cleaned_data["timezone_name"].strip()
        if value and value not in zoneinfo.available_timezones():
            raise ValidationError(_("Fuseau horaire inconnu."))
        return value

    def clean_settings(self) -> dict:
        return parse_settings(self.cleaned_data["settings"])

    def service_arguments(self) -> dict:
        data = dict(self.cleaned_data)
        data["options"] = data.pop("settings")
        return data


class RoomForm(EstablishmentForm):
    code = forms.SlugField(label=_("Code"), max_length=20)
    name = forms.CharField(label=_("Nom"), max_length=200)


class LocationForm(EstablishmentForm):
    code = forms.SlugField(label=_("Code"), max_length=30)
    name = forms.CharField(label=_("Nom"), max_length=200)
    kind = forms.ChoiceField(label=_("Type"), choices=LocationKind.choices)
    room = forms.ModelChoiceField(label=_("Salle"), queryset=Room.objects.none(), required=False)

    def setup(self) -> None:
        self.fields["room"].queryset = self.establishment.rooms.all()


class ImportForm(forms.Form):
    file = forms.FileField(
        label=_("Fichier"), help_text=_("CSV (séparateur point-virgule ou virgule) ou XLSX, en-têtes en ligne 1.")
    )

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if not upload.name.lower().endswith(tuple(f".{fmt}" for fmt in FORMATS)):
            raise ValidationError(_("Fichier CSV ou XLSX attendu."))
        return upload
