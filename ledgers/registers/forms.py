from django import forms
from django.utils.translation import gettext_lazy as _

from ledgers.core.countersign import ReauthMixin

from .kinds import all_kinds
from .models import Entry


def qualifier_choices(establishment) -> list[tuple[str, str]]:
    """The categories a volume may be for here, each named in the reader's language: those the
    registers to open name, the tables in service, the cash desks, and those of the house's
    volumes. Two that read alike are told apart by the registers they are for."""
    from ledgers.core.games import GAMES
    from ledgers.core.models import LocationKind

    from .kinds import get_kind, qualifier_label
    from .opening import needs, tables_in_service

    labels: dict[str, str] = {}
    kinds: dict[str, set[str]] = {}
    for number, game in tables_in_service(establishment):
        labels[number] = str(_("Table %(number)s (%(game)s)") % {"number": number, "game": GAMES[game].label})
    desks = establishment.locations.filter(kind=LocationKind.CAISSE_CENTRALE).values_list("code", "name")
    labels.update(desks)
    pairs = [(need.kind, need.qualifier) for need in needs(establishment)]
    pairs += list(establishment.registers.exclude(qualifier="").values_list("kind", "qualifier").distinct())
    for kind, qualifier in pairs:
        if qualifier:
            labels.setdefault(qualifier, qualifier_label(qualifier))
            kinds.setdefault(qualifier, set()).add(str(get_kind(kind).title))
    seen: dict[str, int] = {}
    for label in labels.values():
        seen[label] = seen.get(label, 0) + 1
    choices = [
        (code, f"{label} — {', '.join(sorted(kinds.get(code, ())))}" if seen[label] > 1 else label)
        for code, label in labels.items()
    ]
    return [("", _("Aucune (un seul volume pour l'établissement)")), *sorted(choices, key=lambda c: c[1])]


class RegisterCreateForm(forms.Form):
    kind = forms.ChoiceField(label=_("Type de registre"))
    qualifier = forms.ChoiceField(
        label=_("Catégorie"),
        required=False,
        help_text=_("Pour un registre tenu par table, par catégorie ou par caisse : laquelle."),
    )
    title = forms.CharField(
        label=_("Intitulé"), max_length=250, required=False, help_text=_("Laisser vide pour l'intitulé réglementaire.")
    )

    def __init__(self, *args, establishment, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["kind"].choices = sorted(
            ((k.code, k.title) for k in all_kinds() if establishment.jurisdiction in k.jurisdictions),
            key=lambda choice: str(choice[1]),
        )
        self.fields["qualifier"].choices = qualifier_choices(establishment)


class RegisterWithdrawForm(forms.Form):
    reason = forms.CharField(
        label=_("Motif du retrait"),
        max_length=500,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text=_("Par exemple : « créé pour une table qui n'existe pas »."),
    )


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


class KindVisaForm(ReauthForm):
    """The visa of several volumes of one kind in one act: the mention, the signature once, and a
    passkey assertion per volume (each visa is its own entry, signed over its own digest)."""

    statement = VisaForm.base_fields["statement"]
    field_order = ["statement", "password", "otp_token"]

    def __init__(self, *args, numbers: list[str], **kwargs):
        super().__init__(*args, **kwargs)
        del self.fields["passkey"]
        for number in numbers:
            self.fields[self.passkey_field(number)] = forms.CharField(required=False, widget=forms.HiddenInput)
        self.numbers = numbers

    @staticmethod
    def passkey_field(number: str) -> str:
        return f"{number}-passkey"

    def passkeys(self) -> dict[str, str]:
        return {
            n: self.cleaned_data[self.passkey_field(n)]
            for n in self.numbers
            if self.cleaned_data.get(self.passkey_field(n))
        }


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
