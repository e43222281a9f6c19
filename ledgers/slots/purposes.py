"""What the slot keys leave their home for, declared to the keys app: a relève (socle
and bill-box release keys, KEY-02; machine keys, KEY-05) and an intervention (machine keys,
KEY-05; FR upper and lower parts, KEY-13, KEY-17); and how many machines the establishment runs
(the upper-part opening rule, KEY-17, SET-43, AMB-51). The slots app depends on the keys app,
never the other way."""

from operator import attrgetter

from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _

from ledgers.core.models import Establishment
from ledgers.keys.purposes import PurposeKind, PurposeType, fleet_size_counter, purpose_type

from .models import Intervention, Machine, Releve, SlotCount


def _open_releves(est: Establishment) -> QuerySet[Releve]:
    return Releve.objects.filter(establishment=est, status=Releve.Status.OPEN).select_related("room")


def _open_interventions(est: Establishment) -> QuerySet[Intervention]:
    return Intervention.objects.filter(machine__establishment=est, status=Intervention.Status.OPEN).select_related(
        "machine"
    )


RELEVE = PurposeType(
    code="slots.releve",
    kind=PurposeKind.RELEVE,
    label=_("Relève"),
    model="slots.Releve",
    is_open=lambda releve: releve.status == Releve.Status.OPEN,
    establishment=attrgetter("establishment"),
    describe=str,
    open_objects=_open_releves,
)
INTERVENTION = PurposeType(
    code="slots.intervention",
    kind=PurposeKind.INTERVENTION,
    label=_("Intervention"),
    model="slots.Intervention",
    is_open=lambda sheet: sheet.status == Intervention.Status.OPEN,
    establishment=attrgetter("machine.establishment"),
    describe=str,
    open_objects=_open_interventions,
)


# The slot count session (SLOT-46): the bill-box content keys leave comptabilité générale (MC,
# KEY-03) or the cashier (FR, KEY-14) only for a count.
SLOT_COUNT = PurposeType(
    code="slots.count",
    kind=PurposeKind.COUNT,
    label=_("Comptée des machines à sous"),
    model="slots.SlotCount",
    is_open=lambda count: count.status == SlotCount.Status.OPEN,
    establishment=attrgetter("establishment"),
    describe=str,
    open_objects=lambda est: SlotCount.objects.filter(establishment=est, status=SlotCount.Status.OPEN),
)


def fleet(est: Establishment) -> int:
    """The machines of the establishment's fleet: every machine not taken out of the park."""
    return Machine.objects.filter(establishment=est).exclude(status=Machine.Status.RETIRED).count()


purpose_type(RELEVE)
purpose_type(INTERVENTION)
purpose_type(SLOT_COUNT)
fleet_size_counter(fleet)
