"""Forms of the key pages. The logged-in user's password confirms what they sign; every other
person (the taker, a second or third releaser, a witness) signs with their own credentials at this
terminal (ledgers.core.countersign)."""

from django import forms
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from ledgers.core.countersign import CountersignMixin, ReauthMixin
from ledgers.core.forms import EstablishmentForm
from ledgers.core.models import Location
from ledgers.core.roles import Role

from .models import Key, KeyIssue
from .policy import LockType, rule_for
from .purposes import purpose_types
from .services import issue_signers, return_co_receivers

DATETIME = forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M")


def _members(est):
    return get_user_model().objects.filter(memberships__establishment=est).distinct().order_by("username")


class KeyForm(EstablishmentForm):
    code = forms.CharField(label=_("Identifiant de la clé"), max_length=40)
    lock_type = forms.ChoiceField(label=_("Type de serrure"), choices=LockType.choices)
    opens = forms.CharField(label=_("Ce qu'elle ouvre"), max_length=200)
    asset_ref = forms.CharField(label=_("Matériel (référence)"), max_length=400, required=False)
    copies = forms.IntegerField(label=_("Nombre d'exemplaires"), min_value=1, initial=1)
    home = forms.ModelChoiceField(label=_("Lieu de garde"), queryset=Location.objects.none(), required=False)
    custodian = forms.ModelChoiceField(label=_("Gardien"), queryset=get_user_model().objects.none(), required=False)
    holder_organisation = forms.CharField(
        label=_("Organisme détenteur (carte logique : SFM et agrément, police)"), max_length=200, required=False
    )

    def setup(self) -> None:
        self.fields["home"].queryset = Location.objects.filter(establishment=self.establishment, active=True)
        self.fields["custodian"].queryset = _members(self.establishment)


class PurposeField(forms.ChoiceField):
    """An open purpose of any declared type, as "type:id"."""

    def __init__(self, est, **kwargs):
        choices = [("", "—")]
        for kind in purpose_types():
            choices += [
                (f"{kind.code}:{obj.pk}", f"{kind.label} — {kind.describe(obj)}")
                for obj in kind.open_objects(est)[:200]
            ]
        super().__init__(choices=choices, **kwargs)

    def clean(self, value):
        value = super().clean(value)
        code, _sep, pk = value.rpartition(":")
        if not code or not pk.isdigit():
            raise ValidationError(_("Choisissez l'objet de la sortie."))
        return code, int(pk)


class KeyChoiceForm(EstablishmentForm):
    """The first step of a hand-over: the key, which says who else must sign."""

    key = forms.ModelChoiceField(label=_("Clé"), queryset=Key.objects.none())

    def setup(self) -> None:
        self.fields["key"].queryset = Key.objects.filter(establishment=self.establishment, status=Key.Status.IN_SERVICE)


# The people besides the actor who release a key or take it back (dual control: up to three in all).
CO_RELEASERS = (
    ("co1", _("Deuxième personne remettant la clé")),
    ("co2", _("Troisième personne remettant la clé")),
)
CO_RECEIVERS = (
    ("co1", _("Deuxième personne recevant la clé")),
    ("co2", _("Troisième personne recevant la clé")),
)


class IssueForm(ReauthMixin, CountersignMixin, KeyChoiceForm):
    """The hand-over of the chosen ``key``: only the signers that key's rules ask for."""

    due_at = forms.DateTimeField(label=_("À rendre le"), widget=DATETIME)
    note = forms.CharField(label=_("Observations"), max_length=300, required=False)

    def __init__(self, *args, key: Key, **kwargs):
        self.key = key
        super().__init__(*args, **kwargs)

    def setup(self) -> None:
        super().setup()
        self.fields["key"].widget = forms.HiddenInput()
        self.fields["purpose"] = PurposeField(self.establishment, label=_("Pour (objet ouvert)"))
        rule = rule_for(self.establishment, self.key.lock_type)
        self.add_countersignature("holder", _("Détenteur (prend la clé)"), roles=rule.holders or tuple(Role))
        more, witness = issue_signers(self.key)
        for prefix, label in CO_RELEASERS[:more]:
            self.add_countersignature(prefix, label, roles=rule.givers)
        if witness is not None:
            self.add_countersignature(
                "witness",
                _("Mécanicien ou employé présent (ouverture de la partie supérieure)"),
                roles=witness or tuple(Role),
            )


class ReturnForm(ReauthMixin, CountersignMixin, EstablishmentForm):
    """The return of ``issue``: the holder, and the other people the key comes back to."""

    note = forms.CharField(label=_("Observations"), max_length=300, required=False)

    def __init__(self, *args, issue: KeyIssue, **kwargs):
        self.issue = issue
        super().__init__(*args, **kwargs)

    def setup(self) -> None:
        self.add_countersignature("holder", _("Détenteur (rend la clé)"), roles=tuple(Role))
        holder = self.issue.holder
        self.fields["holder_username"].choices = [
            (
                holder.get_username(),
                f"{holder.get_full_name() or holder.get_username()} — {Role(self.issue.holder_role).label}",
            )
        ]
        rule = rule_for(self.establishment, self.issue.key.lock_type)
        for prefix, label in CO_RECEIVERS[: return_co_receivers(self.issue)]:
            self.add_countersignature(prefix, label, roles=rule.givers)


class SurrenderForm(ReauthMixin, CountersignMixin, EstablishmentForm):
    key = forms.ModelChoiceField(label=_("Clé du socle"), queryset=Key.objects.none())
    socle_ref = forms.CharField(label=_("Socle"), max_length=60)
    lock_ref = forms.CharField(label=_("Serrure"), max_length=60)
    reason = forms.CharField(label=_("Motif technique"), max_length=300)

    def setup(self) -> None:
        self.fields["key"].queryset = Key.objects.filter(
            establishment=self.establishment, lock_type=LockType.SOCLE, status=Key.Status.IN_SERVICE
        )
        self.add_countersignature("receiver", _("Caissier principal (reçoit la serrure et la clé)"))


class InventoryForm(ReauthMixin, EstablishmentForm):
    """Blind: one field per key, with nothing said about how many copies should be there."""

    def setup(self) -> None:
        self.keys = list(
            Key.objects.filter(establishment=self.establishment)
            .exclude(status=Key.Status.RETIRED)
            .order_by("code", "lock_type")
        )
        for key in self.keys:
            self.fields[f"key_{key.pk}"] = forms.IntegerField(label=str(key), min_value=0)

    def counted(self) -> dict[int, int]:
        return {key.pk: self.cleaned_data[f"key_{key.pk}"] for key in self.keys}


class HoldingsForm(EstablishmentForm):
    start = forms.DateTimeField(label=_("Du"), widget=DATETIME)
    end = forms.DateTimeField(label=_("Au"), widget=DATETIME)
    key = forms.ModelChoiceField(label=_("Clé"), queryset=Key.objects.none(), required=False)
    asset_ref = forms.CharField(label=_("Matériel (référence)"), max_length=60, required=False)

    def setup(self) -> None:
        self.fields["key"].queryset = Key.objects.filter(establishment=self.establishment)
