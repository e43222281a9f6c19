"""Forms for the monitoring system's records."""

from zoneinfo import ZoneInfo

from django import forms
from django.utils.translation import gettext_lazy as _

from ledgers.core.countersign import CountersignMixin
from ledgers.core.forms import EstablishmentForm
from ledgers.core.roles import Role

from ..imports import decode, parse_events_csv
from ..models import (
    Orphan,
)
from .payments import MachineChoiceForm


class OrphanForm(MachineChoiceForm):
    kind = forms.ChoiceField(label=_("Nature"), choices=Orphan.Kind.choices)
    place = forms.CharField(label=_("Lieu"), max_length=200, required=False)
    amount = forms.DecimalField(label=_("Montant (€)"), max_digits=14, decimal_places=2)
    disposal = forms.CharField(label=_("Suite donnée"), widget=forms.Textarea(attrs={"rows": 2}))
    taken_by = forms.CharField(label=_("Pris par un client (exclu de la salle)"), max_length=200, required=False)

    def setup(self) -> None:
        super().setup()
        self.fields["machine"].required = False


class FilesCopyForm(CountersignMixin, EstablishmentForm):
    """The copy deposited at the Secrétariat Général, who signs its receipt (SLOT-08)."""

    def setup(self) -> None:
        self.add_countersignature(
            "received_by", _("Reçue par (Secrétariat Général)"), roles=(Role.SECRETARIAT_GENERAL,)
        )


class EventsForm(EstablishmentForm):
    file = forms.FileField(label=_("Export du système de surveillance (CSV)"))

    def clean_file(self):
        return parse_events_csv(decode(self.cleaned_data["file"]), ZoneInfo(self.establishment.timezone))
