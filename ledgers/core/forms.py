"""Form pieces shared by the ledgers' pages."""

from decimal import Decimal
from typing import Any

from django import forms
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from . import establishment_settings
from .establishment_settings import Part, Setting
from .games import games_for
from .models import Establishment, GamingTable, Membership, Room, Seance, SeancePeriod
from .roles import Role
from .selectors import unprepared_tables


class EstablishmentForm(forms.Form):
    """A form whose choices are those of the user's establishment; it knows the request too (a
    countersignature is checked at this terminal)."""

    def __init__(self, *args, establishment: Establishment, request: HttpRequest | None = None, **kwargs) -> None:
        self.establishment, self.request = establishment, request
        super().__init__(*args, **kwargs)
        self.setup()

    @property
    def jurisdiction(self) -> str:
        return self.establishment.jurisdiction

    def setup(self) -> None:
        """Limit the choices to this establishment."""


class SeanceOpenForm(forms.Form):
    date = forms.DateField(label=_("Date"), widget=forms.DateInput(attrs={"type": "date"}))
    period = forms.ChoiceField(label=_("Période"), choices=SeancePeriod.choices)


class TablePrepareForm(forms.Form):
    """The tables of the séance's establishment that have no table-partie in it yet."""

    table = forms.ModelChoiceField(label=_("Table"), queryset=GamingTable.objects.none())

    def __init__(self, *args, seance: Seance, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["table"].queryset = unprepared_tables(seance)


def staff_choices(establishment: Establishment, roles, *, value: str = "username") -> list[tuple[str, str]]:
    """The establishment's active staff holding one of ``roles``, as (value, "Name — role") pairs
    sorted by name; ``value`` is "username" (a countersignature) or "name" (the name an entry
    writes, e.g. who received the cards)."""
    labels = dict(Role.choices)
    people: dict[int, tuple[str, str, list[str]]] = {}
    memberships = (
        Membership.objects.filter(establishment=establishment, role__in=[str(r) for r in roles], user__is_active=True)
        .select_related("user")
        .order_by("user__last_name", "user__first_name", "role")
    )
    for membership in memberships:
        user = membership.user
        name = user.get_full_name() or user.get_username()
        key = user.get_username() if value == "username" else name
        people.setdefault(user.pk, (key, name, []))[2].append(str(labels[membership.role]))
    return [("", "—")] + [(key, f"{name} — {', '.join(held)}") for key, name, held in people.values()]


class StaffChoiceField(forms.ChoiceField):
    """One of the people on the floor who hold the roles the act names, chosen by typing their name
    (a searchable select) rather than typed free: the entry then names a real colleague."""

    def __init__(self, *, establishment: Establishment, roles, value: str = "name", **kwargs) -> None:
        kwargs.setdefault("widget", forms.Select(attrs={"data-searchable": ""}))
        super().__init__(choices=staff_choices(establishment, roles, value=value), **kwargs)


class GamingTableForm(EstablishmentForm):
    """A table added: its room, number, game (those of the jurisdiction), seats."""

    room = forms.ModelChoiceField(label=_("Salle"), queryset=Room.objects.none())
    number = forms.CharField(label=_("Numéro"), max_length=20)
    game = forms.ChoiceField(label=_("Jeu"))
    seats = forms.IntegerField(label=_("Places"), min_value=1, max_value=99, initial=7)
    super_prive = forms.BooleanField(label=_("Salon super privé"), required=False)

    def setup(self) -> None:
        self.fields["room"].queryset = self.establishment.rooms.all()
        self.fields["game"].choices = [(g.code, g.label) for g in games_for(self.jurisdiction)]


class GamingTableChangeForm(EstablishmentForm):
    """A table given another game, or put in or out of service (one or both)."""

    STATES = {"": None, "in": True, "out": False}

    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("auto_id", "change_%s")  # beside the form that adds a table, on one page
        super().__init__(*args, **kwargs)

    table = forms.ModelChoiceField(label=_("Table"), queryset=GamingTable.objects.none())
    game = forms.ChoiceField(label=_("Nouveau jeu"), required=False)
    state = forms.ChoiceField(
        label=_("État de la table"),
        required=False,
        choices=[("", _("Inchangé")), ("in", _("En service")), ("out", _("Hors service"))],
    )

    def setup(self) -> None:
        self.fields["table"].queryset = self.establishment.tables.order_by("number")
        self.fields["game"].choices = [("", _("Inchangé"))] + [(g.code, g.label) for g in games_for(self.jurisdiction)]

    def service_arguments(self) -> dict:
        data = self.cleaned_data
        return {"table": data["table"], "game": data["game"] or None, "active": self.STATES[data["state"]]}


class SettingForm(forms.Form):
    """The parts of a setting (``establishment_settings``) as fields, filled with the values in
    force; a part left empty keeps the jurisdiction's default (a setting of one value: the whole)."""

    def __init__(self, *args, setting: Setting, establishment: Establishment, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.setting, self.parts = setting, setting.parts(establishment)
        current = establishment.setting(setting.code)
        held = (current or {}).get(setting.under) if setting.under else current
        for part in self.parts:
            name = part.key or "value"
            given = (held or {}).get(part.key) if setting.keyed else held
            if part.kind == establishment_settings.CLOSING:
                self.fields[name] = forms.TimeField(
                    label=part.label, required=False, widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M")
                )
                self.fields[f"{name}__next_day"] = forms.BooleanField(
                    label=_("%(period)s : le lendemain") % {"period": part.label}, required=False
                )
                self.initial[name], self.initial[f"{name}__next_day"] = given or (None, 0)
            else:
                self.fields[name] = _setting_field(part, part.label or setting.label)
                self.initial[name] = given

    def value(self) -> Any:
        """The value the fields give (None: the jurisdiction's default for the whole setting)."""
        data = self.cleaned_data
        if not self.setting.keyed:
            return None if data["value"] in (None, "") else data["value"]
        mapping = {}
        for part in self.parts:
            given = data[part.key]
            if given in (None, ""):
                continue
            if part.kind == establishment_settings.CLOSING:
                given = [given.strftime("%H:%M"), int(data[f"{part.key}__next_day"])]
            mapping[part.key] = given
        return {self.setting.under: mapping} if self.setting.under else mapping


def _setting_field(part: Part, label) -> forms.Field:
    if part.kind == establishment_settings.WHOLE:
        return forms.IntegerField(label=label, required=False, min_value=part.minimum)
    if part.kind == establishment_settings.AMOUNT:
        return forms.DecimalField(label=label, required=False, min_value=Decimal("0.01"), decimal_places=2)
    return forms.ChoiceField(label=label, required=False, choices=[("", "—"), *part.choices])
