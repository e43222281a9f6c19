"""Forms of the take-over pages. They only shape the input; the services decide (and refuse)."""

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from ledgers.core.countersign import ReauthMixin
from ledgers.core.forms import EstablishmentForm

from .domains import domain_choices, get_domain
from .spreadsheet import rows_from_file, rows_from_text


class InventoryForm(EstablishmentForm):
    domain = forms.ChoiceField(label=_("Domaine repris"), choices=())
    paper_register = forms.CharField(
        label=_("Registre papier repris"),
        max_length=200,
        help_text=_("Son intitulé et son volume, tels qu'écrits sur la couverture."),
    )
    spreadsheet = forms.FileField(
        label=_("Classeur (CSV ou XLSX)"),
        required=False,
        help_text=_("La première ligne nomme les colonnes ; il remplace les lignes saisies."),
    )
    lines = forms.CharField(
        label=_("Lignes saisies"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 10, "spellcheck": "false", "class": "font-monospace"}),
        help_text=_("Une ligne par objet, colonnes séparées par « ; », la première ligne nommant les colonnes."),
    )

    def setup(self) -> None:
        self.fields["domain"].choices = domain_choices(self.establishment)

    def clean(self):
        cleaned = super().clean()
        if "domain" not in cleaned:
            return cleaned
        domain = get_domain(cleaned["domain"])
        try:
            if cleaned.get("spreadsheet"):
                cleaned["rows"] = rows_from_file(domain, cleaned["spreadsheet"])
            else:
                cleaned["rows"] = rows_from_text(domain, cleaned.get("lines") or "")
        except ValidationError as exc:
            raise ValidationError({"spreadsheet" if cleaned.get("spreadsheet") else "lines": exc.messages}) from exc
        if not cleaned["rows"]:
            raise ValidationError({"lines": _("Saisissez des lignes ou joignez un classeur.")})
        return cleaned


class SignForm(ReauthMixin, EstablishmentForm):
    confirm = forms.BooleanField(label=_("J'ai revu chaque ligne de l'inventaire et je le signe."))
    field_order = ["confirm", "password", "otp_token"]


class VisaForm(ReauthMixin, EstablishmentForm):
    statement = forms.CharField(label=_("Mention du visa"), max_length=300, initial=_("Vu"))
    field_order = ["statement", "password", "otp_token"]


class PostForm(EstablishmentForm):
    confirm = forms.BooleanField(label=_("Je reporte l'inventaire aux registres."))
