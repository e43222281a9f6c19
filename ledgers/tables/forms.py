from django import forms
from django.contrib.auth import get_user_model
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from ledgers.authority.models import ApprovedBanker
from ledgers.core.models import Establishment, TableSession

from . import rules
from .models import StaffAssignment
from .rules import Position


def staff_choices(establishment: Establishment):
    return (
        get_user_model()
        .objects.filter(memberships__establishment=establishment)
        .distinct()
        .order_by("last_name", "first_name", "username")
    )


class PersonField(forms.ModelChoiceField):
    def label_from_instance(self, obj) -> str:
        return obj.get_full_name() or obj.get_username()


class AssignForm(forms.Form):
    position = forms.ChoiceField(label=pgettext_lazy("staff position", "Poste"), choices=Position.choices)
    person = PersonField(label=_("Personne"), queryset=get_user_model().objects.none())

    def __init__(self, *args, establishment: Establishment, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["person"].queryset = staff_choices(establishment)


class ReliefForm(forms.Form):
    assignment = forms.ModelChoiceField(label=_("Poste relevé"), queryset=StaffAssignment.objects.none())
    person = PersonField(label=_("Relevé par"), queryset=get_user_model().objects.none())
    at_break = forms.BooleanField(label=_("En fin de paquet ou entre deux coups"), required=False, initial=True)

    def __init__(self, *args, establishment: Establishment, session: TableSession, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["assignment"].queryset = StaffAssignment.objects.filter(
            table_session=session, ended_at__isnull=True
        ).select_related("person")
        self.fields["person"].queryset = staff_choices(establishment)


class LimitsForm(forms.Form):
    seats = forms.IntegerField(label=_("Places"), min_value=1, max_value=99)
    players = forms.IntegerField(label=_("Joueurs assis à l'ouverture"), min_value=0, max_value=99, required=False)
    minimum_stake = forms.DecimalField(label=_("Mise minimale (€)"), min_value=0, max_digits=12, decimal_places=2)
    maximum_stake = forms.DecimalField(
        label=_("Mise maximale (€)"), min_value=0, max_digits=12, decimal_places=2, required=False
    )
    agreement_reference = forms.CharField(
        label=_("Référence de l'accord de l'Administration"), required=False, max_length=200
    )
    display_updated = forms.BooleanField(label=_("Affichage de la table mis à jour"), required=False)

    def __init__(self, *args, session: TableSession, **kwargs) -> None:
        kwargs.setdefault(
            "initial",
            {
                "seats": session.table.seats,
                "minimum_stake": session.minimum_stake,
                "maximum_stake": session.maximum_stake,
            },
        )
        super().__init__(*args, **kwargs)
        limits = rules.LIMITS.get((session.seance.establishment.jurisdiction, session.table.game))
        self.bets = list(limits.bets) if limits else []
        for bet in self.bets:
            self.fields[f"bet_{bet}"] = forms.DecimalField(
                label=_("Mise « %(bet)s » (€)") % {"bet": rules.BET_LABELS[bet]},
                min_value=0,
                max_digits=12,
                decimal_places=2,
                required=False,
            )
        if (session.seance.establishment.jurisdiction, session.table.game) not in rules.MIN_PLAYERS:
            del self.fields["players"]
        if not (limits and (limits.agreement or limits.notified)):
            del self.fields["agreement_reference"]
        elif limits.notified:
            self.fields["agreement_reference"].label = _("Référence de l'information donnée à l'autorité concédante")
        if limits and limits.pay_tables:
            self.fields["pay_table"] = forms.ChoiceField(
                label=_("Table de paiement"), required=False, choices=[("", "—"), *((t, t) for t in limits.pay_tables)]
            )

    def service_kwargs(self) -> dict:
        data = dict(self.cleaned_data)
        data["bet_maximums"] = {bet: data.pop(f"bet_{bet}") for bet in self.bets if data.get(f"bet_{bet}") is not None}
        for bet in self.bets:
            data.pop(f"bet_{bet}", None)
        data.setdefault("agreement_reference", "")
        return data


class ExtensionForm(forms.Form):
    """GAME-29: chemin de fer going on past the closing time."""

    new_end = forms.DateTimeField(
        label=_("Nouvelle heure de fin"),
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
    )
    reason = forms.CharField(label=_("Joueurs présents et activité"), max_length=300)


class BankerForm(forms.Form):
    """GAME-31: the approved banker of a banque à tout va table-partie."""

    banker = forms.ModelChoiceField(label=_("Banquier agréé"), queryset=ApprovedBanker.objects.none())

    def __init__(self, *args, session: TableSession, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        # Every banker of the register: one whose approval does not hold is refused by the service (GAME-31).
        self.fields["banker"].queryset = ApprovedBanker.objects.filter(establishment=session.seance.establishment)
