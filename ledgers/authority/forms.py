from decimal import Decimal

from django import forms
from django.contrib.auth import get_user_model
from django.utils.translation import gettext_lazy as _

from ledgers.core.games import games_for
from ledgers.core.models import GamingTable, Seance, TableSession
from ledgers.core.roles import Role

from . import displays
from .models import Declaration, DisplayItem, HouseOption, Observation, ProgressiveReading

DATETIME = forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M")
TEXT = forms.Textarea(attrs={"rows": 4})


class ObservationForm(forms.Form):
    visited_at = forms.DateTimeField(label=_("Jour et heure de la visite"), widget=DATETIME)
    agents = forms.CharField(label=_("Agents"), max_length=300)
    operations = forms.CharField(label=_("Nature des opérations effectuées"), widget=TEXT)
    nature = forms.ChoiceField(label=_("Nature"), choices=Observation.Nature.choices)
    text = forms.CharField(label=_("Observations, instructions ou injonctions"), widget=TEXT, required=False)


class FollowUpForm(forms.Form):
    text = forms.CharField(label=_("Suite réservée"), widget=TEXT)


class QuestionForm(forms.Form):
    subject = forms.CharField(label=_("Objet"), max_length=250)
    question = forms.CharField(label=_("Question"), widget=TEXT)


class AnswerForm(forms.Form):
    answer = forms.CharField(label=_("Réponse"), widget=TEXT)


class ArchiveForm(forms.Form):
    season = forms.IntegerField(label=_("Saison (année de début)"), min_value=2000, max_value=2100)


class PurgeForm(forms.Form):
    number = forms.CharField(label=_("Registre n°"), max_length=60)


DATE = forms.DateInput(attrs={"type": "date"})


class DeclarationForm(forms.Form):
    operation = forms.ChoiceField(label=_("Opération"), choices=Declaration.Operation.choices)
    details = forms.CharField(label=_("Détail de l'opération"), widget=TEXT)
    sent_on = forms.DateField(label=_("Envoyée le"), widget=DATE)
    recipients = forms.MultipleChoiceField(
        label=_("Destinataires"), choices=Declaration.Recipient.choices, widget=forms.CheckboxSelectMultiple
    )
    proof = forms.CharField(label=_("Preuve de l'envoi"), max_length=250)
    implementation_date = forms.DateField(label=_("Mise en œuvre le"), widget=DATE)
    tournament_until = forms.DateField(label=_("Fin du tournoi (7°)"), widget=DATE, required=False)


def _cell(label) -> dict:
    """A field laid out in a table's cell: its label read by assistive technologies."""
    return {"aria-label": label, "class": "form-control form-control-sm"}


class ArreteForm(forms.Form):
    """AUTH-03: an arrêté d'autorisation, with a line per game the establishment's jurisdiction
    plays: the tables it authorises (empty: the game is not authorised) and the minimum stake it
    fixes (empty: none)."""

    reference = forms.CharField(label=_("Référence de l'arrêté"), max_length=250)
    signed_on = forms.DateField(label=_("Signé le"), widget=DATE)
    effective_from = forms.DateField(label=_("En vigueur le"), widget=DATE)
    total_tables = forms.IntegerField(label=_("Nombre total de tables autorisées"), min_value=1)
    follows = forms.ModelChoiceField(
        label=_("Déclaration préalable suivie (modification de l'arrêté)"),
        queryset=Declaration.objects.none(),
        required=False,
    )

    def __init__(self, *args, establishment, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["follows"].queryset = Declaration.objects.filter(establishment=establishment).order_by("-number")
        self.fields["follows"].label_from_instance = lambda d: f"{d} — {d.get_operation_display()}"
        self.rows = []
        for game in games_for(establishment.jurisdiction):
            tables_label = _("%(game)s : tables autorisées") % {"game": game.label}
            minimum_label = _("%(game)s : mise minimale (€)") % {"game": game.label}
            tables = forms.IntegerField(
                label=tables_label, min_value=1, required=False, widget=forms.NumberInput(attrs=_cell(tables_label))
            )
            minimum = forms.DecimalField(
                label=minimum_label,
                min_value=Decimal("0.01"),
                max_digits=10,
                decimal_places=2,
                required=False,
                widget=forms.NumberInput(attrs={**_cell(minimum_label), "step": "0.01"}),
            )
            self.fields[f"tables_{game.code}"], self.fields[f"minimum_{game.code}"] = tables, minimum
            self.rows.append((game, self[f"tables_{game.code}"], self[f"minimum_{game.code}"]))

    def visible_fields(self):
        """The arrêté's own fields: the games' lines are laid out as a table (``rows``)."""
        return [field for field in super().visible_fields() if field.name in self.declared_fields]

    def clean(self):
        data = super().clean()
        for game, _tables, _minimum in self.rows:
            if data.get(f"minimum_{game.code}") is not None and data.get(f"tables_{game.code}") is None:
                self.add_error(f"tables_{game.code}", _("Indiquez les tables autorisées de ce jeu."))
        return data

    def games(self) -> list[dict]:
        data = self.cleaned_data
        return [
            {"game": game.code, "tables": data[f"tables_{game.code}"], "minimum_stake": data[f"minimum_{game.code}"]}
            for game, _tables, _minimum in self.rows
            if data.get(f"tables_{game.code}") is not None
        ]

    def service_arguments(self) -> dict:
        data = self.cleaned_data
        arguments = {
            name: data[name] for name in ("reference", "signed_on", "effective_from", "total_tables", "follows")
        }
        return {**arguments, "games": self.games()}


class DeclarationFollowUpForm(forms.Form):
    follow_up = forms.ChoiceField(label=_("Suite"), choices=Declaration.FollowUp.choices[1:])
    note = forms.CharField(label=_("Précisions"), widget=TEXT, required=False)


class CalledBetForm(forms.Form):
    session = forms.ModelChoiceField(label=_("Table"), queryset=TableSession.objects.none())
    content = forms.CharField(label=_("Annonce (telle que remise par écrit)"), widget=TEXT)
    player = forms.CharField(label=_("Joueur"), max_length=200, required=False)
    inspecteur = forms.ModelChoiceField(label=_("Inspecteur présent"), queryset=get_user_model().objects.none())

    def __init__(self, *args, establishment, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["session"].queryset = TableSession.objects.filter(
            seance__establishment=establishment, status=TableSession.Status.OPEN
        ).select_related("table", "seance")
        self.fields["inspecteur"].queryset = (
            get_user_model()
            .objects.filter(memberships__establishment=establishment, memberships__role=Role.INSPECTEUR)
            .distinct()
        )


class CalledBetVisaForm(forms.Form):
    """The visa takes nothing typed: the SCJ's information is its own act, timed by the system."""


class CalledBetScjNoticeForm(forms.Form):
    """The SCJ's information is recorded at the time it is given: only how it was given is typed."""

    channel = forms.CharField(label=_("Moyen"), max_length=100)


class HouseRulesForm(forms.Form):
    effective_from = forms.DateField(label=_("En vigueur le"), widget=DATE)
    reference = forms.CharField(label=_("Référence du texte affiché"), max_length=250)
    options = forms.MultipleChoiceField(
        label=_("Options écrites dans le règlement"),
        choices=HouseOption.choices,
        widget=forms.CheckboxSelectMultiple,
        required=False,
    )


class TableOptionForm(forms.Form):
    table = forms.ModelChoiceField(label=_("Table"), queryset=GamingTable.objects.none())
    option = forms.ChoiceField(label=_("Option"), choices=HouseOption.choices)
    enabled = forms.BooleanField(label=_("En vigueur à cette table (décocher pour la retirer)"), required=False)

    def __init__(self, *args, establishment, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["table"].queryset = GamingTable.objects.filter(establishment=establishment, game="blackjack")


class DisplayForm(forms.Form):
    """REG-23: a line of a table's or a machine's display checklist."""

    table = forms.ModelChoiceField(label=_("Table"), queryset=GamingTable.objects.none(), required=False)
    machine = forms.ModelChoiceField(label=_("Machine"), queryset=displays.no_machines(), required=False)
    item = forms.ChoiceField(label=_("Affichage"), choices=DisplayItem.choices)
    posted_on = forms.DateField(label=_("Affiché le"), widget=DATE)

    def __init__(self, *args, establishment, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["table"].queryset = GamingTable.objects.filter(establishment=establishment, active=True)
        self.fields["machine"].queryset = displays.active_machines(establishment)


class ProgressiveConfigForm(forms.Form):
    """GAME-04, SET-22: a version of the Split Aces parameters."""

    effective_from = forms.DateField(label=_("En vigueur le"), widget=DATE)
    combinations = forms.CharField(label=_("Combinaisons gagnantes et gains"), widget=TEXT)
    stake = forms.DecimalField(label=_("Montant de la mise"), max_digits=10, decimal_places=2, min_value=0)
    percentage = forms.DecimalField(
        label=_("Pourcentage des enjeux affecté au progressif"),
        max_digits=5,
        decimal_places=2,
        min_value=0,
        max_value=100,
    )
    tables = forms.CharField(label=_("Tables reliées (numéros séparés par des virgules)"), max_length=500)

    def clean_tables(self):
        return [n.strip() for n in self.cleaned_data["tables"].split(",") if n.strip()]


class ProgressiveReadingForm(forms.Form):
    seance = forms.ModelChoiceField(label=_("Séance"), queryset=Seance.objects.none())
    moment = forms.ChoiceField(label=_("Moment"), choices=ProgressiveReading.Moment.choices)
    amount = forms.DecimalField(label=_("Montant du progressif"), max_digits=14, decimal_places=2, min_value=0)
    stakes = forms.DecimalField(
        label=_("Mises Split Aces de la séance (à la clôture)"),
        max_digits=14,
        decimal_places=2,
        min_value=0,
        required=False,
    )

    def __init__(self, *args, establishment, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["seance"].queryset = Seance.objects.filter(establishment=establishment).order_by("-date", "-pk")


class ProgressivePayoutForm(forms.Form):
    seance = forms.ModelChoiceField(label=_("Séance"), queryset=Seance.objects.none())
    table = forms.ModelChoiceField(label=_("Table"), queryset=GamingTable.objects.none())
    paid_at = forms.DateTimeField(label=_("Payé le"), widget=DATETIME)
    amount = forms.DecimalField(label=_("Montant"), max_digits=14, decimal_places=2, min_value=0)
    winner = forms.CharField(label=_("Gagnant"), max_length=200)

    def __init__(self, *args, establishment, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["seance"].queryset = Seance.objects.filter(establishment=establishment).order_by("-date", "-pk")
        self.fields["table"].queryset = GamingTable.objects.filter(establishment=establishment, game="blackjack")


class BankerApproveForm(forms.Form):
    """GAME-31: a banker approved by the Direction."""

    full_name = forms.CharField(label=_("Nom et prénoms"), max_length=200)
    birth_date = forms.DateField(label=_("Date de naissance"), widget=DATE)
    identity_document = forms.CharField(label=_("Pièce d'identité"), max_length=200)
    approved_on = forms.DateField(label=_("Agréé le"), widget=DATE)


class BankerWithdrawForm(forms.Form):
    on = forms.DateField(label=_("Agrément retiré le"), widget=DATE)
