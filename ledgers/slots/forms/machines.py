"""Forms for socles and machines. They parse input; the services apply the rules."""

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from ledgers.core.countersign import (
    AuthorPasskeyMixin,
    CountersignMixin,
    ReauthMixin,
    countersignature_fields,
    countersigner_from,
)
from ledgers.core.forms import EstablishmentForm
from ledgers.core.models import Room
from ledgers.incidents.models import IncidentNotice
from ledgers.keys.models import Key
from ledgers.keys.policy import LockType

from ..models import Machine, MachineMove, Medium, Meter, Place, Socle
from ..rules import required_meters
from ..services.machines import MachineInput
from ..services.meters import MeterSpec
from .common import DATE, LOCAL_DATETIME


class SocleForm(EstablishmentForm):
    number = forms.CharField(label=_("Numéro du socle"), max_length=20)
    room = forms.ModelChoiceField(label=_("Salle"), queryset=Room.objects.none())
    position = forms.CharField(label=_("Emplacement"), max_length=100, required=False)

    def setup(self) -> None:
        self.fields["room"].queryset = Room.objects.filter(establishment=self.establishment)


class MachineForm(AuthorPasskeyMixin, EstablishmentForm):
    """FR: the fiche modèle 34 opened with the machine is the registrant's signature (SLOT-52)."""

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

    def setup(self) -> None:
        if self.jurisdiction != "FR":
            del self.fields["passkey"]

    def author_signs(self, cleaned: dict) -> bool:
        return self.jurisdiction == "FR"

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


class MoveNoticeForm(EstablishmentForm):
    service = forms.CharField(label=_("Service de police informé"), max_length=100)
    channel = forms.ChoiceField(label=_("Moyen"), choices=IncidentNotice.Channel.choices)
    reference = forms.CharField(label=_("Référence de l'information"), max_length=100)


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
