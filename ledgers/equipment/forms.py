"""Forms of the equipment flows. They only shape input for the services; choices are limited to
the current establishment. A countersignature (the inspecteur with the maintenance technician,
the key holder, the police officer at a destruction) is the other person's username and password,
checked with ``authenticate()`` at this terminal."""

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from ledgers.core.countersign import CountersignMixin
from ledgers.core.forms import EstablishmentForm
from ledgers.core.models import Establishment, GamingTable, Location, TableSession
from ledgers.core.selectors import depots
from ledgers.custody.models import WITHDRAWN_STATUSES, DestructionSession
from ledgers.incidents.models import IncidentNotice
from ledgers.registers.services import display_name

from . import selectors
from .domains import SHOES
from .models import ApprovedModel, MachineType, Shoe, Shuffler, Socle, WheelKind
from .specs import (
    CHECK_RULES,
    KINDS_BY_JURISDICTION,
    LAUNCH_STAFF,
    LID_GAMES,
    ROSTER_MEMBERS,
    ROTATION_GAMES,
    SPEC_LABELS,
    TEXT_SPECS,
    WHEEL_FOR_GAME,
)


def _session_choice(session: TableSession) -> str:
    return f"{session.table} — {session.seance} ({session.get_status_display().lower()})"


class SessionField(forms.ModelChoiceField):
    def label_from_instance(self, obj: TableSession) -> str:
        return _session_choice(obj)


# --- Models and sabots ---------------------------------------------------------------------------


class ApprovedModelForm(EstablishmentForm):
    kind = forms.ChoiceField(label=_("Matériel"), choices=ApprovedModel.Kind.choices)
    manufacturer = forms.CharField(label=_("Fabricant"), max_length=200)
    name = forms.CharField(label=_("Modèle"), max_length=200)
    approval_reference = forms.CharField(label=_("Référence de l'agrément"), max_length=200, required=False)
    approval_issuer = forms.CharField(label=_("Autorité d'agrément"), max_length=200, required=False)
    approved_on = forms.DateField(label=_("Agréé le"), required=False, widget=forms.DateInput(attrs={"type": "date"}))
    approved_until = forms.DateField(
        label=_("Agréé jusqu'au"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )


class ShoeReceiveForm(EstablishmentForm):
    model = forms.ModelChoiceField(label=_("Modèle"), queryset=ApprovedModel.objects.none())
    location = forms.ModelChoiceField(label=_("Rangé dans"), queryset=Location.objects.none())
    numbers = forms.CharField(
        label=_("Sabots reçus"),
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text=_("Un sabot par ligne : numéro donné par l'établissement ; numéro de série du fabricant."),
    )
    delivery_note = forms.CharField(label=_("Bon de livraison"), required=False, max_length=200)

    def setup(self) -> None:
        self.fields["model"].queryset = ApprovedModel.objects.filter(
            establishment=self.establishment, kind=ApprovedModel.Kind.SHOE
        )
        self.fields["location"].queryset = depots(self.establishment, SHOES.depot_kinds)

    def clean_numbers(self) -> list[tuple[str, str]]:
        rows = []
        for line in self.cleaned_data["numbers"].splitlines():
            if line.strip():
                number, _sep, serial = line.partition(";")
                rows.append((number.strip(), serial.strip()))
        if not rows:
            raise ValidationError(_("Indiquez au moins un sabot."))
        return rows


class ShoeUpdateForm(EstablishmentForm):
    number = forms.CharField(label=_("Numéro du sabot"), max_length=60)
    model = forms.ModelChoiceField(label=_("Modèle"), queryset=ApprovedModel.objects.none())
    maker_serial = forms.CharField(label=_("Numéro de série du fabricant"), max_length=100, required=False)

    def setup(self) -> None:
        self.fields["model"].queryset = ApprovedModel.objects.filter(
            establishment=self.establishment, kind=ApprovedModel.Kind.SHOE
        )


class ShoeWithdrawForm(EstablishmentForm):
    reason = forms.CharField(label=_("Motif"), max_length=300)
    to_location = forms.ModelChoiceField(
        label=_("Rangé dans"),
        queryset=Location.objects.none(),
        required=False,
        help_text=_("Monaco : le dépôt principal."),
    )

    def setup(self) -> None:
        self.fields["to_location"].queryset = depots(self.establishment, SHOES.depot_kinds)


class ShoeAllocateForm(EstablishmentForm):
    session = SessionField(label=_("Table et séance"), queryset=TableSession.objects.none())
    shoe = forms.ModelChoiceField(label=_("Sabot"), queryset=Shoe.objects.none())
    received_by = forms.CharField(label=_("Reçu à la table par"), max_length=200, required=False)

    def setup(self) -> None:
        self.fields["session"].queryset = selectors.live_sessions(self.establishment)
        self.fields["shoe"].queryset = selectors.shoes_in_stock(self.establishment)


class ShoeReturnForm(EstablishmentForm):
    shoes = forms.ModelMultipleChoiceField(
        label=_("Sabots rentrés"), queryset=Shoe.objects.none(), widget=forms.CheckboxSelectMultiple
    )
    to_location = forms.ModelChoiceField(label=_("Rangés dans"), queryset=Location.objects.none())
    returned_by = forms.CharField(label=_("Rangés par (employés)"), max_length=200, required=False)

    def setup(self) -> None:
        self.fields["shoes"].queryset = Shoe.objects.filter(
            establishment=self.establishment, table_session__isnull=False
        ).select_related("table_session__table")
        self.fields["shoes"].label_from_instance = lambda shoe: f"{shoe} — {shoe.table_session.table}"
        self.fields["to_location"].queryset = depots(self.establishment, SHOES.depot_kinds)


class DestructionPlanForm(EstablishmentForm):
    method = forms.ChoiceField(label=_("Mode"), choices=DestructionSession.Method.choices)
    planned_at = forms.DateTimeField(label=_("Prévue le"), widget=forms.DateTimeInput(attrs={"type": "datetime-local"}))
    shoes = forms.ModelMultipleChoiceField(
        label=_("Sabots hors d'usage"), queryset=Shoe.objects.none(), widget=forms.CheckboxSelectMultiple
    )

    def setup(self) -> None:
        self.fields["shoes"].queryset = Shoe.objects.filter(
            establishment=self.establishment, status__in=WITHDRAWN_STATUSES
        )


class DestructionNotifyForm(EstablishmentForm):
    channel = forms.ChoiceField(label=_("Moyen"), choices=IncidentNotice.Channel.choices)
    reference = forms.CharField(label=_("Référence"), max_length=200, required=False)


class DestructionCompleteForm(CountersignMixin, EstablishmentForm):
    observations = forms.CharField(label=_("Observations"), required=False, widget=forms.Textarea(attrs={"rows": 3}))

    def setup(self) -> None:
        self.add_countersignature("witness", _("Témoin (autorité)"), required=False)


# --- Shufflers ---------------------------------------------------------------------------------


class ShufflerRegisterForm(EstablishmentForm):
    number = forms.CharField(label=_("Numéro d'inventaire"), max_length=40)
    serial = forms.CharField(label=_("Numéro de série"), max_length=100)
    model = forms.ModelChoiceField(label=_("Modèle"), queryset=ApprovedModel.objects.none())
    machine_type = forms.ChoiceField(label=_("Type"), choices=MachineType.choices)
    embout = forms.BooleanField(label=_("Muni de l'embout distributeur de black jack"), required=False)

    def setup(self) -> None:
        self.fields["model"].queryset = ApprovedModel.objects.filter(
            establishment=self.establishment, kind=ApprovedModel.Kind.SHUFFLER
        )


class ShufflerCommissionForm(EstablishmentForm):
    card_access_protection = forms.BooleanField(
        label=_("Protection empêchant l'accès aux cartes pendant les cycles de mélange vérifiée"), required=False
    )
    malfunction_signal = forms.BooleanField(
        label=_("Dispositif lumineux ou sonore de dysfonctionnement vérifié"), required=False
    )
    observations = forms.CharField(label=_("Observations"), required=False, widget=forms.Textarea(attrs={"rows": 2}))


class SocleForm(EstablishmentForm):
    table = forms.ModelChoiceField(label=_("Table"), queryset=GamingTable.objects.none())
    code = forms.CharField(label=_("Repère du socle"), max_length=30)

    def setup(self) -> None:
        self.fields["table"].queryset = GamingTable.objects.filter(establishment=self.establishment, active=True)


class ShufflerMountForm(EstablishmentForm):
    socle = forms.ModelChoiceField(label=_("Socle"), queryset=Socle.objects.none())

    def setup(self) -> None:
        self.fields["socle"].queryset = Socle.objects.filter(
            table__establishment=self.establishment, shuffler__isnull=True
        ).select_related("table")


class ConfirmForm(EstablishmentForm):
    confirm = forms.BooleanField(label=_("Je confirme"), required=True)


class ShufflerMalfunctionForm(EstablishmentForm):
    description = forms.CharField(label=_("Dysfonctionnement signalé"), widget=forms.Textarea(attrs={"rows": 2}))
    action_taken = forms.CharField(
        label=_("Mesures prises (cartes récupérées et contrôlées, machine retirée…)"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
    )
    session = SessionField(label=_("À la table"), queryset=TableSession.objects.none(), required=False)

    def setup(self) -> None:
        self.fields["session"].queryset = selectors.live_sessions(self.establishment)


class ShufflerUseStartForm(EstablishmentForm):
    session = SessionField(label=_("Table et séance"), queryset=TableSession.objects.none())
    shuffler = forms.ModelChoiceField(label=_("Mélangeur"), queryset=Shuffler.objects.none())
    embout = forms.BooleanField(label=_("Embout distributeur en place"), required=False)
    display = forms.CharField(
        label=_("Affichage de l'écran"),
        max_length=60,
        required=False,
        help_text=_("France : « black jack 6 jeux » ou « 6 jeux »."),
    )
    decks_counted = forms.IntegerField(label=_("Jeux comptés et vérifiés"), min_value=0, required=False)
    observations = forms.CharField(label=_("Observations"), required=False)

    def setup(self) -> None:
        self.fields["session"].queryset = selectors.live_sessions(self.establishment)
        self.fields["shuffler"].queryset = Shuffler.objects.filter(
            establishment=self.establishment, socle__isnull=False
        ).select_related("socle__table")


class ShufflerUseEndForm(EstablishmentForm):
    hood_opened = forms.BooleanField(label=_("Capot ouvert devant les joueurs"), required=False)
    empty = forms.BooleanField(label=_("Aucune carte dans le mélangeur"), required=False)
    cards_removed = forms.BooleanField(label=_("Cartes retirées à la main"), required=False)
    disconnected = forms.BooleanField(label=_("Mélangeur déconnecté"), required=False)
    observations = forms.CharField(label=_("Observations (carte trouvée…)"), required=False)


# --- Wheels ---------------------------------------------------------------------------------


def _pairs(text: str, field: str) -> dict[str, str]:
    pairs = {}
    for chunk in text.replace("\n", ",").split(","):
        if chunk.strip():
            key, sep, value = chunk.partition("=")
            if not sep:
                raise ValidationError({field: _("Écrivez « libellé = valeur », séparés par des virgules.")})
            pairs[key.strip()] = value.strip()
    return pairs


class WheelRegisterForm(EstablishmentForm):
    number = forms.CharField(label=_("Numéro d'inventaire"), max_length=40)
    serial = forms.CharField(label=_("Numéro de série"), max_length=100, required=False)
    kind = forms.ChoiceField(label=_("Appareil"), choices=WheelKind.choices)
    pockets = forms.IntegerField(label=SPEC_LABELS["pockets"], required=False)
    zeros = forms.CharField(label=SPEC_LABELS["zeros"], required=False, help_text=_("0 ou 0, 00"))
    obstacles = forms.IntegerField(label=SPEC_LABELS["obstacles"], required=False)
    numbers = forms.IntegerField(label=SPEC_LABELS["numbers"], required=False)
    rows = forms.IntegerField(label=SPEC_LABELS["rows"], required=False)
    colours = forms.CharField(label=SPEC_LABELS["colours"], required=False, help_text=_("1 = noir, 2 = rouge…"))
    segments = forms.CharField(
        label=SPEC_LABELS["segments"],
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text=_("orange = 24, vert = 12…"),
    )

    def setup(self) -> None:
        kinds = KINDS_BY_JURISDICTION[self.establishment.jurisdiction]
        self.fields["kind"].choices = [(k, label) for k, label in WheelKind.choices if k in kinds]

    @staticmethod
    def initial_for(kind: str) -> dict:
        """The text's specification, as the starting point of the form."""
        spec = TEXT_SPECS.get(kind, {})
        initial = {"kind": kind, **{k: spec[k] for k in ("pockets", "obstacles", "numbers", "rows") if k in spec}}
        if "zeros" in spec:
            initial["zeros"] = ", ".join(spec["zeros"])
        if "colours" in spec:
            initial["colours"] = ", ".join(f"{k} = {v}" for k, v in spec["colours"].items())
        if "segments" in spec:
            initial["segments"] = ", ".join(f"{k} = {v}" for k, v in spec["segments"].items())
        return initial

    def clean(self):
        data = super().clean()
        kind = data.get("kind")
        if kind in (WheelKind.ROULETTE_EUROPEENNE, WheelKind.ROULETTE_AMERICAINE):
            data["spec"] = {
                "pockets": data.get("pockets"),
                "obstacles": data.get("obstacles"),
                "zeros": [z.strip() for z in (data.get("zeros") or "").split(",") if z.strip()],
            }
        elif kind == WheelKind.BOULE:
            data["spec"] = {
                "numbers": data.get("numbers"),
                "rows": data.get("rows"),
                "colours": _pairs(data.get("colours") or "", "colours"),
            }
        elif kind:
            counts = {}
            for label, value in _pairs(data.get("segments") or "", "segments").items():
                if not value.isdigit():
                    raise ValidationError({"segments": _("« %(label)s » : nombre entier attendu.") % {"label": label}})
                counts[label] = int(value)
            data["spec"] = {"segments": counts}
        return data


class WheelInstallForm(EstablishmentForm):
    table = forms.ModelChoiceField(label=_("Table"), queryset=GamingTable.objects.none())

    def __init__(self, *args, kind: str, **kwargs) -> None:
        self.kind = kind
        super().__init__(*args, **kwargs)

    def setup(self) -> None:
        games = [game for game, kind in WHEEL_FOR_GAME.items() if kind == self.kind]
        self.fields["table"].queryset = GamingTable.objects.filter(
            establishment=self.establishment, game__in=games, active=True
        )


class WheelCheckForm(CountersignMixin, EstablishmentForm):
    session = SessionField(label=_("Table et séance"), queryset=TableSession.objects.none())
    points = forms.CharField(
        label=_("Points vérifiés"), widget=forms.Textarea(attrs={"rows": 3}), help_text=_("Un point par ligne.")
    )
    passed = forms.TypedChoiceField(
        label=_("Résultat"), coerce=lambda v: v == "1", choices=[("1", _("Conforme")), ("0", _("Non conforme"))]
    )
    observations = forms.CharField(label=_("Observations"), required=False, widget=forms.Textarea(attrs={"rows": 2}))

    def setup(self) -> None:
        games = CHECK_RULES[self.establishment.jurisdiction]
        self.fields["session"].queryset = selectors.live_sessions(self.establishment).filter(
            table__game__in=games, status=TableSession.Status.PREPARING
        )
        self.add_countersignature("cosigner", _("Cosignataire"))

    def clean(self):
        data = super().clean()
        data["points_list"] = [line.strip() for line in (data.get("points") or "").splitlines() if line.strip()]
        return data


class LidLockForm(CountersignMixin, EstablishmentForm):
    session = SessionField(label=_("Table et séance"), queryset=TableSession.objects.none())

    def setup(self) -> None:
        games = LID_GAMES[self.establishment.jurisdiction]
        self.fields["session"].queryset = selectors.live_sessions(self.establishment).filter(
            table__game__in=games, status=TableSession.Status.OPEN
        )
        self.add_countersignature("key_holder", _("Détenteur de la clé (laisser vide si c'est vous)"), required=False)


# --- Launchers at roulette and boule (WHEEL-09) -----------------------------------------------------


class StaffField(forms.ModelChoiceField):
    def label_from_instance(self, obj: AbstractBaseUser) -> str:
        return display_name(obj)


def _rotation_sessions(establishment: Establishment):
    return selectors.live_sessions(establishment).filter(table__game__in=ROTATION_GAMES[establishment.jurisdiction])


class LaunchRosterForm(EstablishmentForm):
    """The ordre de roulement: the croupiers in the order in which they launch; empty places are
    left out."""

    PLACES = 8

    session = SessionField(label=_("Table et séance"), queryset=TableSession.objects.none())
    note = forms.CharField(label=_("Observations"), required=False, widget=forms.Textarea(attrs={"rows": 2}))

    def setup(self) -> None:
        self.fields["session"].queryset = _rotation_sessions(self.establishment)
        croupiers = selectors.launch_staff(self.establishment, ROSTER_MEMBERS)
        for position in range(1, self.PLACES + 1):
            self.fields[f"place_{position}"] = StaffField(
                label=_("%(n)s. croupier") % {"n": position}, queryset=croupiers, required=False
            )
        self.order_fields(["session", *(f"place_{n}" for n in range(1, self.PLACES + 1)), "note"])

    def clean(self):
        data = super().clean()
        data["croupiers"] = [data[f"place_{n}"] for n in range(1, self.PLACES + 1) if data.get(f"place_{n}")]
        return data


class LaunchTurnForm(EstablishmentForm):
    session = SessionField(label=_("Table et séance"), queryset=TableSession.objects.none())
    launcher = StaffField(label=_("Lanceur"), queryset=get_user_model().objects.none())
    started_at = forms.DateTimeField(
        label=_("Lance depuis"),
        required=False,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
        help_text=_("Laissez vide pour maintenant."),
    )
    observations = forms.CharField(label=_("Observations"), max_length=300, required=False)

    def setup(self) -> None:
        self.fields["session"].queryset = _rotation_sessions(self.establishment).filter(status=TableSession.Status.OPEN)
        self.fields["launcher"].queryset = selectors.launch_staff(self.establishment, LAUNCH_STAFF)


class RepeatedPairsForm(forms.Form):
    date_from = forms.DateField(label=_("Du"), widget=forms.DateInput(attrs={"type": "date"}))
    date_to = forms.DateField(label=_("Au"), widget=forms.DateInput(attrs={"type": "date"}))
    minimum = forms.IntegerField(label=_("Au moins"), min_value=2, initial=2)
