"""Forms of the slot pages. They parse input; the services apply the rules."""

from zoneinfo import ZoneInfo

from django import forms
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from ledgers.core.countersign import CountersignMixin, ReauthMixin, countersignature_fields, countersigner_from
from ledgers.core.forms import EstablishmentForm
from ledgers.core.models import Membership, Room
from ledgers.core.roles import Role
from ledgers.keys.models import Key
from ledgers.keys.policy import LockType

from .imports import decode, parse_csv, parse_events_csv
from .models import (
    BoxExchange,
    Machine,
    MachineMove,
    Medium,
    Meter,
    Orphan,
    PaymentMethod,
    Place,
    Socle,
    StaffApproval,
)
from .rules import VARIANCE_PRESET_LABELS, required_meters
from .services import MachineInput, MeterSpec

LOCAL_DATETIME = forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M")
DATE = forms.DateInput(attrs={"type": "date"})


def people(est, *roles: str):
    ids = Membership.objects.filter(establishment=est, role__in=roles).values_list("user_id", flat=True)
    return get_user_model().objects.filter(pk__in=ids).order_by("last_name", "first_name")


class SocleForm(EstablishmentForm):
    number = forms.CharField(label=_("Numéro du socle"), max_length=20)
    room = forms.ModelChoiceField(label=_("Salle"), queryset=Room.objects.none())
    position = forms.CharField(label=_("Emplacement"), max_length=100, required=False)

    def setup(self) -> None:
        self.fields["room"].queryset = Room.objects.filter(establishment=self.establishment)


class MachineForm(EstablishmentForm):
    machine_type = forms.CharField(label=_("Type de machine"), max_length=100)
    technology = forms.ChoiceField(label=_("Technologie"), choices=Machine.Technology.choices)
    maker = forms.CharField(label=_("Fabricant"), max_length=100)
    maker_serial = forms.CharField(label=_("Numéro de série du fabricant"), max_length=60)
    sbm_number = forms.CharField(label=_("Numéro SBM"), max_length=30, required=False)
    casino_number = forms.CharField(label=_("Numéro casino"), max_length=30, required=False)
    maker_number = forms.CharField(label=_("Numéro fabricant"), max_length=60, required=False)
    location_number = forms.CharField(label=_("Numéro d'emplacement"), max_length=30, required=False)
    media = forms.MultipleChoiceField(
        label=_("Moyens de paiement acceptés"),
        choices=Medium.choices,
        widget=forms.CheckboxSelectMultiple,
        required=False,
    )
    stations = forms.IntegerField(label=_("Postes de jeu"), min_value=1, initial=1)
    rtp_percent = forms.DecimalField(
        label=_("Taux de redistribution certifié (%)"), required=False, max_digits=5, decimal_places=2
    )
    levy_percent = forms.DecimalField(
        label=_("Pourcentage de prélèvement (%)"), required=False, max_digits=5, decimal_places=2
    )
    rate_date = forms.DateField(label=_("Date de mise à jour du taux"), widget=DATE)
    credit_value = forms.DecimalField(label=_("Valeur du crédit (€)"), initial="0.01", max_digits=10, decimal_places=2)
    hopper = forms.BooleanField(label=_("Trémie"), required=False)
    bill_box = forms.CharField(label=_("Boîte à billets (n°)"), max_length=30, required=False)
    drop_type = forms.ChoiceField(
        label=_("Évacuation des pièces et jetons"), required=False, choices=[("", "—"), *Machine.DropType.choices]
    )
    approved_system = forms.CharField(label=_("Système informatique agréé (référence)"), max_length=100, required=False)
    game_name = forms.CharField(label=_("Nom du jeu"), max_length=100, required=False)
    payment_programme = forms.CharField(label=_("Programme de paiement"), max_length=100, required=False)
    insertion_limit = forms.DecimalField(label=_("Limite d'insertion (€)"), required=False)
    payment_limit = forms.DecimalField(label=_("Limite de paiement automatique (€)"), required=False)
    digits = forms.IntegerField(label=_("Chiffres des compteurs"), min_value=1, max_value=15, initial=8)
    other_meters = forms.CharField(
        label=_("Autres compteurs (un par ligne : code[:em][:libellé] chiffres)"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 2, "class": "mono"}),
    )
    characteristics = forms.CharField(
        label=_("Fiche technique : caractéristiques"), widget=forms.Textarea(attrs={"rows": 3})
    )
    photo = forms.ImageField(label=_("Photographie"), required=False)

    def clean_other_meters(self) -> list[MeterSpec]:
        specs = []
        for line in (self.cleaned_data["other_meters"] or "").splitlines():
            if not line.strip():
                continue
            try:
                key, digits = line.split()
                code, *rest = key.split(":")
                nature = Meter.Nature.ELECTROMECHANICAL if rest[:1] == ["em"] else Meter.Nature.ELECTRONIC
                label = rest[-1] if rest and rest[-1] != "em" else ""
                specs.append(MeterSpec(code, int(digits), nature, label))
            except ValueError as exc:
                raise ValidationError(_("Ligne illisible : %(l)s") % {"l": line}) from exc
        return specs

    def machine_input(self) -> MachineInput:
        data = dict(self.cleaned_data)
        specs = [
            MeterSpec(code, data["digits"], nature)
            for code, nature in required_meters(self.jurisdiction, data["media"], hopper=data["hopper"])
        ]
        specs += data.pop("other_meters")
        for name in ("digits", "photo"):
            data.pop(name)
        return MachineInput(meters=specs, **data)


class ConfirmForm(EstablishmentForm):
    """A confirmation with no input: the signed-in user attests what the page states."""


class SheetForm(EstablishmentForm):
    characteristics = forms.CharField(label=_("Caractéristiques"), widget=forms.Textarea(attrs={"rows": 4}))
    rtp_percent = forms.DecimalField(label=_("Taux de gain théorique (%)"), required=False)
    levy_percent = forms.DecimalField(label=_("Pourcentage de prélèvement (%)"), required=False)


MOVE_COUNTERSIGNERS = ("comite", "technicien", "sfm")  # SLOT-34, FR repair moves


def move_countersignature_fields() -> dict[str, forms.Field]:
    """The optional SLOT-34 countersignatures: comité member, mechanic or employee, SFM technician."""
    labels = (_("Membre du comité"), _("Mécanicien ou employé chargé"), _("Technicien de la SFM"))
    return {
        name: field
        for prefix, label in zip(MOVE_COUNTERSIGNERS, labels, strict=True)
        for name, field in countersignature_fields(prefix, label, required=False).items()
    }


def split_move_countersignatures(request, data: dict) -> tuple[list, dict]:
    """(the countersigners who typed their password at this terminal, the move's other inputs)."""
    found = (countersigner_from(request, data, prefix) for prefix in MOVE_COUNTERSIGNERS)
    rest = {k: v for k, v in data.items() if v not in (None, "") and not k.startswith(MOVE_COUNTERSIGNERS)}
    return [user for user in found if user is not None], rest


class MoveForm(EstablishmentForm):
    to_place = forms.ChoiceField(label=_("Vers"), choices=Place.choices)
    to_socle = forms.ModelChoiceField(label=_("Socle"), queryset=Socle.objects.none(), required=False)
    reason = forms.ChoiceField(
        label=_("Motif"), choices=[c for c in MachineMove.Reason.choices if c[0] != MachineMove.Reason.REPLACEMENT]
    )
    replaced_by = forms.ModelChoiceField(
        label=_("Remplacée par la machine de réserve"), required=False, queryset=Machine.objects.none()
    )
    moved_at = forms.DateTimeField(label=_("Heure du déplacement"), widget=LOCAL_DATETIME, required=False)
    police_informed_at = forms.DateTimeField(label=_("Police informée le"), widget=LOCAL_DATETIME, required=False)
    police_reference = forms.CharField(label=_("Référence de l'information"), max_length=100, required=False)
    observations = forms.CharField(label=_("Observations"), widget=forms.Textarea(attrs={"rows": 2}), required=False)

    def setup(self) -> None:
        self.fields["to_socle"].queryset = Socle.objects.filter(
            establishment=self.establishment, active=True, machine__isnull=True
        )
        self.fields["replaced_by"].queryset = (
            Machine.objects.filter(establishment=self.establishment)
            .exclude(place=Place.FLOOR)
            .exclude(status=Machine.Status.RETIRED)
        )
        if self.jurisdiction == "FR":
            self.fields.update(move_countersignature_fields())

    def move(self) -> tuple[list, dict]:
        return split_move_countersignatures(self.request, self.cleaned_data)


class RamClearForm(EstablishmentForm):
    reset_key = forms.CharField(label=_("Clé de remise à zéro"), max_length=60)
    reason = forms.CharField(label=_("Motif"), widget=forms.Textarea(attrs={"rows": 2}))
    before = forms.CharField(
        label=_("Compteurs avant (poste:compteur valeur, un par ligne)"),
        widget=forms.Textarea(attrs={"rows": 6, "class": "mono"}),
    )
    after = forms.CharField(
        label=_("Compteurs après (poste:compteur valeur, un par ligne)"),
        widget=forms.Textarea(attrs={"rows": 6, "class": "mono"}),
    )

    @staticmethod
    def _values(text: str) -> dict[str, int]:
        try:
            return {
                key: int(value) for key, value in (line.rsplit(None, 1) for line in text.splitlines() if line.strip())
            }
        except ValueError as exc:
            raise ValidationError(_("Une ligne par compteur : « poste:compteur valeur ».")) from exc

    def clean_before(self) -> dict[str, int]:
        return self._values(self.cleaned_data["before"])

    def clean_after(self) -> dict[str, int]:
        return self._values(self.cleaned_data["after"])


class ReleveForm(EstablishmentForm):
    room = forms.ModelChoiceField(label=_("Salle"), queryset=Room.objects.none())
    during_operation = forms.BooleanField(label=_("Salle en exploitation"), required=False)
    sworn_agent = forms.ModelChoiceField(label=_("Agent assermenté"), queryset=Room.objects.none(), required=False)
    staff = forms.CharField(label=_("Personnel présent"), required=False)

    def setup(self) -> None:
        self.fields["room"].queryset = Room.objects.filter(establishment=self.establishment)
        self.fields["sworn_agent"].queryset = people(self.establishment, Role.AGENT_SURVEILLANCE)


class ImportForm(EstablishmentForm):
    file = forms.FileField(label=_("Fichier de relève (CSV)"))

    def clean_file(self):
        return parse_csv(decode(self.cleaned_data["file"]))


class BoxForm(EstablishmentForm):
    machine = forms.ModelChoiceField(label=_("Machine"), queryset=Machine.objects.none())
    box = forms.ChoiceField(label=_("Boîte"), choices=BoxExchange.Box.choices)
    removed = forms.CharField(label=_("Boîte retirée (n°)"), max_length=30)
    replaced_by = forms.CharField(label=_("Boîte mise en place (n°)"), max_length=30)

    def setup(self) -> None:
        self.fields["machine"].queryset = Machine.objects.filter(
            establishment=self.establishment, status=Machine.Status.IN_SERVICE
        )


class CountForm(BoxForm):
    counted = forms.DecimalField(label=_("Montant compté (€)"), max_digits=14, decimal_places=2)

    def setup(self) -> None:
        super().setup()
        for name in ("box", "removed", "replaced_by"):
            del self.fields[name]


class CloseReleveForm(EstablishmentForm):
    sworn_agent = forms.ModelChoiceField(label=_("Agent assermenté"), queryset=Room.objects.none(), required=False)

    def setup(self) -> None:
        self.fields["sworn_agent"].queryset = people(self.establishment, Role.AGENT_SURVEILLANCE)


class InterventionForm(EstablishmentForm):
    reason = forms.CharField(label=_("Motif de l'arrêt"), widget=forms.Textarea(attrs={"rows": 2}))
    stopped_at = forms.DateTimeField(label=_("Machine arrêtée à"), widget=LOCAL_DATETIME, required=False)


class InterventionCloseForm(EstablishmentForm):
    work_done = forms.CharField(label=_("Travaux effectués"), widget=forms.Textarea(attrs={"rows": 3}))


class TransmittalForm(EstablishmentForm):
    date = forms.DateField(label=_("Journée"), widget=DATE)
    received_by = forms.ModelChoiceField(label=_("Reçue par"), queryset=Room.objects.none())

    def setup(self) -> None:
        self.fields["received_by"].queryset = people(self.establishment, Role.DIRECTEUR_EXPLOITATION)


class ApprovalForm(EstablishmentForm):
    user = forms.ModelChoiceField(label=_("Personne"), queryset=Room.objects.none())
    kind = forms.ChoiceField(label=_("Nature"), choices=StaffApproval.Kind.choices)
    reference = forms.CharField(label=_("Référence"), max_length=100)
    issuer = forms.CharField(label=_("Délivré par"), max_length=200)
    valid_from = forms.DateField(label=_("Valable du"), widget=DATE)
    valid_until = forms.DateField(label=_("Valable jusqu'au"), widget=DATE, required=False)

    def setup(self) -> None:
        self.fields["user"].queryset = people(
            self.establishment,
            Role.MECANICIEN,
            Role.TECHNICIEN_SFM,
            Role.CAISSIER,
            Role.EMPLOYE_JEUX,
            Role.COMITE,
            Role.SUPERVISEUR,
        )


class SfmVisitForm(EstablishmentForm):
    machines = forms.ModelMultipleChoiceField(label=_("Machines visitées"), queryset=Machine.objects.none())
    limits = forms.CharField(
        label=_("Limites contrôlées (une ligne par machine : numéro limite_d'insertion limite_de_paiement)"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 4, "class": "mono"}),
    )
    remarks = forms.CharField(label=_("Remarques et conclusions"), widget=forms.Textarea(attrs={"rows": 3}))

    def setup(self) -> None:
        self.fields["machines"].queryset = Machine.objects.filter(
            establishment=self.establishment, status=Machine.Status.IN_SERVICE
        )

    def clean_limits(self) -> dict[str, dict[str, str]]:
        try:
            return {
                number: {"insertion_limit": insertion, "payment_limit": payment}
                for number, insertion, payment in (
                    line.split() for line in self.cleaned_data["limits"].splitlines() if line.strip()
                )
            }
        except ValueError as exc:
            raise ValidationError(_("Une ligne par machine : numéro, limite d'insertion, limite de paiement.")) from exc


class MachineChoiceForm(EstablishmentForm):
    machine = forms.ModelChoiceField(label=_("Machine"), queryset=Machine.objects.none())

    def setup(self) -> None:
        self.fields["machine"].queryset = Machine.objects.filter(establishment=self.establishment)


class JackpotForm(CountersignMixin, MachineChoiceForm):
    station = forms.IntegerField(label=_("Poste"), min_value=1, initial=1)
    amount = forms.DecimalField(label=_("Montant (€)"), max_digits=14, decimal_places=2)
    combination = forms.CharField(label=_("Combinaison gagnante"), max_length=200, required=False)
    method = forms.ChoiceField(label=_("Mode de paiement"), choices=PaymentMethod.choices)
    id_type = forms.CharField(label=_("Pièce d'identité"), max_length=60, required=False)
    id_number = forms.CharField(label=_("Numéro de la pièce"), max_length=60, required=False)
    pre_check = forms.CharField(
        label=_("Contrôle préalable de la machine"), required=False, widget=forms.Textarea(attrs={"rows": 2})
    )

    def setup(self) -> None:
        super().setup()
        # FR SLOT-35: the comité member who controls the payment signs it here, password again.
        self.add_countersignature("controller", _("Contrôlé par (membre du comité)"), required=False)

    def payment(self) -> dict:
        """The payment's inputs, the controller authenticated (his typed credentials left out)."""
        return {k: v for k, v in self.cleaned_data.items() if not k.startswith("controller_")}


class DisputeForm(MachineChoiceForm):
    claim = forms.CharField(label=_("Réclamation du client"), widget=forms.Textarea(attrs={"rows": 2}))
    mechanic = forms.ModelChoiceField(label=_("Mécanicien entendu"), queryset=Room.objects.none())
    mechanic_statement = forms.CharField(label=_("Avis du mécanicien"), widget=forms.Textarea(attrs={"rows": 2}))
    decision = forms.CharField(label=_("Décision"), widget=forms.Textarea(attrs={"rows": 2}))
    amount_paid = forms.DecimalField(label=_("Montant payé (€)"), initial=0, max_digits=14, decimal_places=2)

    def setup(self) -> None:
        super().setup()
        self.fields["mechanic"].queryset = people(self.establishment, Role.MECANICIEN)


class TopUpForm(MachineChoiceForm):
    combination = forms.CharField(label=_("Combinaison"), max_length=200)
    amount_due = forms.DecimalField(label=_("Montant dû (€)"), max_digits=14, decimal_places=2)
    paid_by_machine = forms.DecimalField(label=_("Payé par la machine (€)"), max_digits=14, decimal_places=2)
    difference = forms.DecimalField(label=_("Complément payé (€)"), max_digits=14, decimal_places=2)
    customer = forms.CharField(label=_("Client"), max_length=200)
    mechanic_opinion = forms.CharField(label=_("Avis du mécanicien"), widget=forms.Textarea(attrs={"rows": 2}))


class OrphanForm(MachineChoiceForm):
    kind = forms.ChoiceField(label=_("Nature"), choices=Orphan.Kind.choices)
    place = forms.CharField(label=_("Lieu"), max_length=200, required=False)
    amount = forms.DecimalField(label=_("Montant (€)"), max_digits=14, decimal_places=2)
    disposal = forms.CharField(label=_("Suite donnée"), widget=forms.Textarea(attrs={"rows": 2}))
    taken_by = forms.CharField(label=_("Pris par un client (exclu de la salle)"), max_length=200, required=False)

    def setup(self) -> None:
        super().setup()
        self.fields["machine"].required = False


class FilesCopyForm(EstablishmentForm):
    received_by = forms.ModelChoiceField(label=_("Reçue par"), queryset=Room.objects.none())

    def setup(self) -> None:
        self.fields["received_by"].queryset = people(self.establishment, Role.SECRETARIAT_GENERAL)


class EventsForm(EstablishmentForm):
    file = forms.FileField(label=_("Export du système de surveillance (CSV)"))

    def clean_file(self):
        return parse_events_csv(decode(self.cleaned_data["file"]), ZoneInfo(self.establishment.timezone))


class SocleWithdrawForm(ReauthMixin, CountersignMixin, EstablishmentForm):
    """A socle out of operation for technical reasons: its lock and key go to the caissier
    principal, who signs with their password here (KEY-07)."""

    socle = forms.ModelChoiceField(label=_("Socle"), queryset=Socle.objects.none())
    reason = forms.CharField(label=_("Motif technique"), max_length=300)
    lock_ref = forms.CharField(label=_("Serrure"), max_length=60, required=False)
    key = forms.ModelChoiceField(label=_("Clé du socle"), queryset=Key.objects.none(), required=False)

    def setup(self) -> None:
        self.fields["socle"].queryset = Socle.objects.filter(establishment=self.establishment, active=True)
        self.fields["key"].queryset = Key.objects.filter(
            establishment=self.establishment, lock_type=LockType.SOCLE, status=Key.Status.IN_SERVICE
        )
        self.add_countersignature("receiver", _("Caissier principal (reçoit la serrure et la clé)"), required=False)


class VarianceThresholdForm(EstablishmentForm):
    """The reconciliation threshold (SLOT-11): a preset, or the establishment's own figures."""

    preset = forms.ChoiceField(
        label=_("Réglage"),
        required=False,
        choices=[("", _("Seuil propre à l'établissement (ci-dessous)")), *VARIANCE_PRESET_LABELS.items()],
    )
    amount = forms.DecimalField(
        label=_("Écart signalé au-delà de (€)"), max_digits=12, decimal_places=2, required=False
    )
    percent = forms.DecimalField(
        label=_("Écart signalé au-delà de (%)"), max_digits=5, decimal_places=2, required=False
    )


class JackpotThresholdForm(EstablishmentForm):
    """MC: the amount above which a win is paid only on an identity document, from its date (SLOT-16)."""

    amount = forms.DecimalField(label=_("Montant (€)"), max_digits=12, decimal_places=2)
    effective_from = forms.DateTimeField(label=_("En vigueur le"), widget=LOCAL_DATETIME)
