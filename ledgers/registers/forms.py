from django import forms
from django.utils.translation import gettext_lazy as _

from ledgers.core.countersign import ReauthMixin

from .kinds import all_kinds
from .models import Entry


class RegisterCreateForm(forms.Form):
    kind = forms.ChoiceField(label=_("Type de registre"))
    qualifier = forms.CharField(
        label=_("Catégorie"),
        max_length=100,
        required=False,
        help_text=_("Par exemple la catégorie de cartes d'un registre de prise en charge."),
    )
    title = forms.CharField(
        label=_("Intitulé"), max_length=250, required=False, help_text=_("Laisser vide pour l'intitulé réglementaire.")
    )

    def __init__(self, *args, establishment, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["kind"].choices = [
            (k.code, k.title) for k in all_kinds() if establishment.jurisdiction in k.jurisdictions
        ]


class MainCouranteForm(forms.Form):
    event_at = forms.DateTimeField(
        label=_("Date et heure du fait"),
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
    )
    subject = forms.CharField(label=_("Objet"), max_length=200)
    text = forms.CharField(label=_("Relation des faits"), widget=forms.Textarea(attrs={"rows": 5}))


class ReauthForm(ReauthMixin):
    """A signature: the signer types their password again (and their authenticator code), and
    signs with their passkey when they have one."""

    def __init__(self, *args, request, **kwargs):
        self.request = request
        super().__init__(*args, **kwargs)


class RegisterOpenForm(ReauthForm):
    paraphe = forms.CharField(label=_("Paraphe"), max_length=20, help_text=_("Vos initiales, portées sur chaque page."))
    statement = forms.CharField(
        label=_("Mention de cote et paraphe"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text=_("Laisser vide pour la mention réglementaire « Le présent registre … coté et paraphé par … »."),
    )
    field_order = ["paraphe", "statement", "password", "otp_token"]


class VisaForm(ReauthForm):
    up_to_seq = forms.IntegerField(label=_("Viser jusqu'à l'entrée n°"), min_value=1)
    statement = forms.CharField(
        label=_("Mention du visa"),
        required=False,
        initial=_("Vu et vérifié."),
        widget=forms.Textarea(attrs={"rows": 2}),
    )
    field_order = ["up_to_seq", "statement", "password", "otp_token"]


class CorrectionForm(forms.Form):
    """A counter-entry: motive, approval in words, and the corrected values of the kind's columns."""

    reason = forms.CharField(label=_("Motif de la correction"), widget=forms.Textarea(attrs={"rows": 2}))
    approval = forms.CharField(
        label=_("Approbation en toutes lettres"),
        help_text=_("Par exemple : « Approuvé la correction de l'entrée numéro douze »."),
    )

    def __init__(self, *args, entry: Entry, **kwargs):
        super().__init__(*args, **kwargs)
        current = entry.payload.get("corrected", entry.payload) if entry.kind == "correction" else entry.payload
        self.columns = entry.register.kind_info.columns
        for column in self.columns:
            self.fields[self.field_name(column.key)] = forms.CharField(
                label=column.label,
                required=False,
                initial=column.value(current),
                widget=forms.Textarea(attrs={"rows": 2}) if column.width >= 3 else forms.TextInput(),
            )

    @staticmethod
    def field_name(key: str) -> str:
        return "col__" + key.replace(".", "__")

    def corrected_payload(self) -> dict:
        payload: dict = {}
        for column in self.columns:
            *parents, leaf = column.key.split(".")
            node = payload
            for part in parents:
                node = node.setdefault(part, {})
            node[leaf] = self.cleaned_data[self.field_name(column.key)]
        return payload


class RegisterCloseForm(forms.Form):
    statement = forms.CharField(
        label=_("Mention de clôture"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text=_("Laisser vide pour « Arrêté et clos le présent registre à l'entrée n° … »."),
    )
    confirm = forms.BooleanField(label=_("Je confirme la clôture définitive de ce registre."))
