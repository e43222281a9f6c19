"""Forms of the directorate's staff pages: an account created, a role granted or revoked, an
account deactivated, an outside official invited, a provisional password given; and the questions
of the roles' history."""

from django import forms
from django.contrib.auth import get_user_model
from django.utils.translation import gettext_lazy as _

from .forms import EstablishmentForm
from .roles import Role
from .selectors import staff_of


def role_choices() -> list[tuple[str, str]]:
    return sorted(((str(value), str(label)) for value, label in Role.choices), key=lambda pair: pair[1])


class AccountCreateForm(EstablishmentForm):
    username = forms.CharField(label=_("Identifiant de connexion"), max_length=150)
    first_name = forms.CharField(label=_("Prénom"), max_length=150)
    last_name = forms.CharField(label=_("Nom"), max_length=150)
    email = forms.EmailField(
        label=_("Adresse électronique"),
        required=False,
        help_text=_("Le lien pour choisir son mot de passe y est envoyé."),
    )
    roles = forms.MultipleChoiceField(
        label=_("Rôles"), required=False, widget=forms.SelectMultiple(attrs={"data-searchable": ""})
    )

    def setup(self) -> None:
        self.fields["roles"].choices = role_choices()


class PersonForm(EstablishmentForm):
    """A person of the establishment: one who holds, or has held, a role here. Several of these
    forms share the staff page: each names its fields' ids after its act (``act``), so that every
    label reads its own field."""

    act = "person"
    person = forms.ModelChoiceField(label=_("Personne"), queryset=get_user_model().objects.none(), empty_label="—")

    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("auto_id", f"{self.act}_%s")
        super().__init__(*args, **kwargs)

    def setup(self) -> None:
        people = staff_of(self.establishment)
        self.fields["person"].queryset = people
        self.fields["person"].label_from_instance = lambda user: (
            f"{user.get_full_name() or user.get_username()} ({user.get_username()})"
        )
        self.fields["person"].widget.attrs["data-searchable"] = ""


class RoleGrantForm(PersonForm):
    act = "grant"
    role = forms.ChoiceField(label=_("Rôle"))

    def setup(self) -> None:
        super().setup()
        self.fields["person"].queryset = self.fields["person"].queryset.filter(is_active=True)
        self.fields["role"].choices = role_choices()


class RoleRevokeForm(RoleGrantForm):
    act = "revoke"
    reason = forms.CharField(label=_("Motif"), required=False, max_length=200)


class DeactivateForm(PersonForm):
    act = "deactivate"
    reason = forms.CharField(label=_("Motif"), required=False, max_length=200)

    def setup(self) -> None:
        super().setup()
        self.fields["person"].queryset = self.fields["person"].queryset.filter(is_active=True)


class HistoryForm(EstablishmentForm):
    """Either a person (every role they held here, when), or a role and a day (who held it then)."""

    person = forms.ModelChoiceField(
        label=_("Personne"), queryset=get_user_model().objects.none(), required=False, empty_label="—"
    )
    role = forms.ChoiceField(label=_("Rôle"), required=False)
    day = forms.DateField(label=_("Jour"), required=False, widget=forms.DateInput(attrs={"type": "date"}))

    def setup(self) -> None:
        self.fields["person"].queryset = staff_of(self.establishment)
        self.fields["person"].label_from_instance = lambda user: (
            f"{user.get_full_name() or user.get_username()} ({user.get_username()})"
        )
        self.fields["role"].choices = [("", "—"), *role_choices()]

    def clean(self):
        data = super().clean()
        if not data.get("person") and not (data.get("role") and data.get("day")):
            raise forms.ValidationError(_("Choisissez une personne, ou un rôle et un jour."))
        return data


class InviteForm(PersonForm):
    act = "invite"

    def setup(self) -> None:
        super().setup()
        self.fields["person"].queryset = self.fields["person"].queryset.filter(is_active=True).exclude(email="")


class ProvisionalPasswordForm(PersonForm):
    act = "provisional"
    password = forms.CharField(
        label=_("Mot de passe provisoire"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
        help_text=_(
            "Le titulaire devra le remplacer à sa prochaine connexion. Jamais pour un fonctionnaire de l'autorité."
        ),
    )

    def setup(self) -> None:
        super().setup()
        self.fields["person"].queryset = self.fields["person"].queryset.filter(is_active=True)
