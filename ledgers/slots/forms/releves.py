"""Forms for relèves."""

from django import forms
from django.utils.translation import gettext_lazy as _

from ledgers.core.countersign import CountersignMixin
from ledgers.core.forms import EstablishmentForm
from ledgers.core.models import Room
from ledgers.core.roles import Role

from ..imports import decode, parse_csv
from ..models import BoxExchange, Machine
from ..rules import VARIANCE_PRESET_LABELS


class SwornAgentMixin(CountersignMixin):
    """The sworn agent who secures a relève run while the room operates signs it at this terminal
    (SLOT-23): his password, not a name picked from a list."""

    def add_sworn_agent(self) -> None:
        self.add_countersignature(
            "sworn_agent", _("Agent assermenté"), required=False, roles=(Role.AGENT_SURVEILLANCE,)
        )


class ReleveForm(SwornAgentMixin, EstablishmentForm):
    room = forms.ModelChoiceField(label=_("Salle"), queryset=Room.objects.none())
    during_operation = forms.BooleanField(label=_("Salle en exploitation"), required=False)
    staff = forms.CharField(label=_("Personnel présent"), required=False)

    def setup(self) -> None:
        self.fields["room"].queryset = Room.objects.filter(establishment=self.establishment)
        self.add_sworn_agent()


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


class CloseReleveForm(SwornAgentMixin, EstablishmentForm):
    def setup(self) -> None:
        self.add_sworn_agent()


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
