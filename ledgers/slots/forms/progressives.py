"""Forms of FR progressive jackpots, JPM, TITO tickets and modèle 31. Meter lists are typed one
machine a line ("casino number value", or "casino number electronic electromechanical" for a
win); the comité member countersigns at this terminal where a bon or a modèle 29 line needs it."""

import datetime
from decimal import Decimal, InvalidOperation

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from ledgers.core.countersign import AuthorPasskeyMixin
from ledgers.core.exports import neutralise
from ledgers.core.forms import EstablishmentForm
from ledgers.incidents.models import IncidentNotice

from ..models import Machine, Progressive, ProgressiveStop
from ..services.progressives import TechnicalNature, active_progressives
from ..services.unclaimed import TicketRow
from .accounting import AMOUNT, VisaForm
from .common import LOCAL_DATETIME
from .machines import move_countersignature_fields, split_move_countersignatures

DATE = forms.DateInput(attrs={"type": "date"})
LINES = forms.Textarea(attrs={"rows": 4, "class": "mono"})


def _progressives(form: EstablishmentForm, *, multisite: bool | None = None):
    qs = Progressive.objects.filter(establishment=form.establishment, status=Progressive.Status.ACTIVE)
    return qs if multisite is None else qs.filter(multisite=multisite)


def parse_lines(text: str, width: int) -> dict[str, list[int]]:
    """ "number v1 [v2]" lines → {number: [v1, v2]}."""
    values = {}
    for line in text.splitlines():
        if not line.strip():
            continue
        parts = line.split()
        try:
            if len(parts) != width + 1:
                raise ValueError
            values[parts[0]] = [int(v) for v in parts[1:]]
        except ValueError as exc:  # the line echoed back as a spreadsheet will not run it
            raise ValidationError(_("Ligne illisible : %(l)s") % {"l": neutralise(line)}) from exc
    return values


class ProgressiveForm(AuthorPasskeyMixin, EstablishmentForm):
    """A JPM's modèle 26 is opened with it, signed by its keeper (SLOT-38, SLOT-51)."""

    code = forms.CharField(label=_("Identifiant du jackpot"), max_length=30)
    name = forms.CharField(label=_("Nom"), max_length=100)
    start_amount = forms.DecimalField(label=_("Montant de départ (€)"), **AMOUNT)
    machines = forms.ModelMultipleChoiceField(label=_("Machines"), queryset=Machine.objects.none())
    multisite = forms.BooleanField(label=_("Jackpot progressif multisites (JPM)"), required=False)
    increment_percent = forms.DecimalField(
        label=_("Taux d'incrémentation (%)"), max_digits=6, decimal_places=3, initial=0
    )
    maker = forms.CharField(label=_("Fabricant"), max_length=100, required=False)
    machine_type = forms.CharField(label=_("Type de machine"), max_length=100, required=False)
    game_name = forms.CharField(label=_("Nom du jeu"), max_length=100, required=False)
    payment_programme = forms.CharField(label=_("Programme de paiement"), max_length=100, required=False)
    members = forms.CharField(label=_("Casinos membres (un par ligne)"), required=False, widget=LINES)

    def setup(self) -> None:
        self.fields["machines"].queryset = Machine.objects.filter(establishment=self.establishment)

    def author_signs(self, cleaned: dict) -> bool:
        return bool(cleaned.get("multisite"))

    def clean_members(self) -> list[str]:
        return [m.strip() for m in self.cleaned_data["members"].splitlines() if m.strip()]


class ProgressiveReadingForm(EstablishmentForm):
    progressive = forms.ModelChoiceField(label=_("Jackpot progressif"), queryset=Progressive.objects.none())
    displayed = forms.DecimalField(label=_("Montant affiché (€)"), **AMOUNT)
    day = forms.DateField(label=_("Journée"), widget=DATE, required=False)

    def setup(self) -> None:
        self.fields["progressive"].queryset = active_progressives(self.establishment, multisite=False)


class StopNoticeForm(EstablishmentForm):
    progressive = forms.ModelChoiceField(label=_("Jackpot progressif ou JPM"), queryset=Progressive.objects.none())
    kind = forms.ChoiceField(label=_("Arrêt annoncé"), choices=ProgressiveStop.Kind.choices)
    channel = forms.ChoiceField(label=_("Moyen"), choices=IncidentNotice.Channel.choices)
    reference = forms.CharField(label=_("Référence de l'information"), max_length=100)

    def setup(self) -> None:
        self.fields["progressive"].queryset = _progressives(self)


class ProgressiveStopForm(EstablishmentForm):
    progressive = forms.ModelChoiceField(label=_("Jackpot progressif"), queryset=Progressive.objects.none())
    kind = forms.ChoiceField(label=_("Nature"), choices=ProgressiveStop.Kind.choices[:2])
    stop_date = forms.DateField(label=_("Date de l'arrêt"), widget=DATE)
    displayed = forms.DecimalField(label=_("Montant affiché (€)"), **AMOUNT)
    target = forms.ModelChoiceField(
        label=_("Jackpot bénéficiaire"), queryset=Progressive.objects.none(), required=False
    )

    def setup(self) -> None:
        self.fields["progressive"].queryset = self.fields["target"].queryset = _progressives(self)


class RecoverForm(EstablishmentForm):
    stop = forms.ModelChoiceField(label=_("Arrêt définitif"), queryset=ProgressiveStop.objects.none())
    target = forms.ModelChoiceField(label=_("Incrémentation reprise par"), queryset=Progressive.objects.none())

    def setup(self) -> None:
        self.fields["stop"].queryset = ProgressiveStop.objects.filter(
            progressive__establishment=self.establishment, kind=ProgressiveStop.Kind.FINAL, recovered_to__isnull=True
        )
        self.fields["target"].queryset = _progressives(self)


class JpmReadingForm(EstablishmentForm):
    jackpot = forms.ModelChoiceField(label=_("JPM"), queryset=Progressive.objects.none())
    displayed = forms.DecimalField(label=_("Montant affiché du JPM (€)"), **AMOUNT)
    meters = forms.CharField(
        label=_("Compteurs « entrées » électroniques (n° casino valeur, un par ligne)"), widget=LINES
    )

    def setup(self) -> None:
        self.fields["jackpot"].queryset = _progressives(self, multisite=True)

    def clean_meters(self) -> dict[str, int]:
        return {n: v[0] for n, v in parse_lines(self.cleaned_data["meters"], 1).items()}


class JpmConnectForm(EstablishmentForm):
    jackpot = forms.ModelChoiceField(label=_("JPM"), queryset=Progressive.objects.none())
    machine = forms.ModelChoiceField(label=_("Machine"), queryset=Machine.objects.none())

    def setup(self) -> None:
        self.fields["jackpot"].queryset = _progressives(self, multisite=True)
        self.fields["machine"].queryset = Machine.objects.filter(establishment=self.establishment)


class JpmTechnicalForm(EstablishmentForm):
    """A line of the JPM's modèle 26: repairs and SFM interventions countersigned at this terminal."""

    jackpot = forms.ModelChoiceField(label=_("JPM"), queryset=Progressive.objects.none())
    nature = forms.ChoiceField(label=_("Nature"), choices=TechnicalNature.choices)
    description = forms.CharField(label=_("Description, travaux"), widget=forms.Textarea(attrs={"rows": 3}))
    occurred_at = forms.DateTimeField(label=_("Date et heure"), widget=LOCAL_DATETIME, required=False)

    def setup(self) -> None:
        self.fields["jackpot"].queryset = Progressive.objects.filter(establishment=self.establishment, multisite=True)
        self.fields.update(move_countersignature_fields())

    def signed(self) -> tuple[list, dict]:
        return split_move_countersignatures(self.request, self.cleaned_data)


class JpmWinForm(VisaForm):
    jackpot = forms.ModelChoiceField(label=_("JPM"), queryset=Progressive.objects.none())
    amount = forms.DecimalField(label=_("Montant gagné (€)"), **AMOUNT)
    winning_machine = forms.ModelChoiceField(
        label=_("Machine gagnante (ici)"), queryset=Machine.objects.none(), required=False
    )
    winning_casino = forms.CharField(label=_("Casino payeur (autre membre)"), max_length=200, required=False)
    combination = forms.CharField(label=_("Combinaison gagnante"), max_length=200, required=False)
    meters = forms.CharField(
        label=_("Compteurs « entrées » (n° casino électronique électromécanique, un par ligne)"), widget=LINES
    )

    def setup(self) -> None:
        self.fields["jackpot"].queryset = _progressives(self, multisite=True)
        self.fields["winning_machine"].queryset = Machine.objects.filter(
            establishment=self.establishment, progressives__multisite=True
        ).distinct()
        super().setup()

    def clean_meters(self) -> dict[str, dict[str, int]]:
        return {
            n: {"electronic": v[0], "electromechanical": v[1]}
            for n, v in parse_lines(self.cleaned_data["meters"], 2).items()
        }


class JpmRestartForm(EstablishmentForm):
    jackpot = forms.ModelChoiceField(label=_("JPM"), queryset=Progressive.objects.none())

    def setup(self) -> None:
        self.fields["jackpot"].queryset = Progressive.objects.filter(
            establishment=self.establishment, status=Progressive.Status.WON
        )


class TransmissionForm(EstablishmentForm):
    jackpot = forms.ModelChoiceField(label=_("JPM"), queryset=Progressive.objects.none())
    reason = forms.ChoiceField(label=_("Motif"), choices=[("month_end", _("Fin de mois")), ("win", _("Gain du JPM"))])
    period_start = forms.DateField(label=_("Du"), widget=DATE)
    period_end = forms.DateField(label=_("Au"), widget=DATE)
    recipient = forms.CharField(label=_("Destinataire"), max_length=200)

    def setup(self) -> None:
        self.fields["jackpot"].queryset = Progressive.objects.filter(establishment=self.establishment, multisite=True)


class WithdrawForm(VisaForm):
    jackpot = forms.ModelChoiceField(label=_("JPM"), queryset=Progressive.objects.none())
    leave_date = forms.DateField(label=_("Date du retrait"), widget=DATE)
    meters = JpmReadingForm.base_fields["meters"]

    def setup(self) -> None:
        self.fields["jackpot"].queryset = _progressives(self, multisite=True)
        super().setup()

    def clean_meters(self) -> dict[str, int]:
        return {n: v[0] for n, v in parse_lines(self.cleaned_data["meters"], 1).items()}


class TicketsImportForm(EstablishmentForm):
    rows = forms.CharField(
        label=_("Tickets (numéro;AAAA-MM-JJ HH:MM;montant;n° casino de la machine ou vide)"), widget=LINES
    )

    def clean_rows(self) -> list[TicketRow]:
        rows = []
        for line in self.cleaned_data["rows"].splitlines():
            if not line.strip():
                continue
            try:
                number, issued, amount, *machine = (part.strip() for part in line.split(";"))
                issued_at = datetime.datetime.strptime(issued, "%Y-%m-%d %H:%M").replace(
                    tzinfo=self.establishment.localtime().tzinfo
                )
                rows.append(TicketRow(number, issued_at, Decimal(amount), machine[0] if machine else ""))
            except (ValueError, InvalidOperation) as exc:
                raise ValidationError(_("Ligne illisible : %(l)s") % {"l": neutralise(line)}) from exc
        return rows


class TicketRedeemForm(EstablishmentForm):
    number = forms.CharField(label=_("Numéro du ticket"), max_length=40)


class TicketsExpireForm(VisaForm):
    pass


class ReconciliationForm(VisaForm):
    pass
