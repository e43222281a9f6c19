import django_filters
from django.utils.translation import gettext_lazy as _

from ledgers.custody.models import ItemStatus

from .models import AssetStatus, MachineType, Shoe, Shuffler, Wheel, WheelKind


class ShoeFilter(django_filters.FilterSet):
    serial = django_filters.CharFilter(label=_("Numéro"), lookup_expr="icontains")
    status = django_filters.ChoiceFilter(label=_("Statut"), choices=ItemStatus.choices)

    class Meta:
        model = Shoe
        fields = ("serial", "status")


class ShufflerFilter(django_filters.FilterSet):
    status = django_filters.ChoiceFilter(label=_("Statut"), choices=AssetStatus.choices)
    machine_type = django_filters.ChoiceFilter(label=_("Type"), choices=MachineType.choices)

    class Meta:
        model = Shuffler
        fields = ("status", "machine_type")


class WheelFilter(django_filters.FilterSet):
    kind = django_filters.ChoiceFilter(label=_("Appareil"), choices=WheelKind.choices)
    status = django_filters.ChoiceFilter(label=_("Statut"), choices=AssetStatus.choices)

    class Meta:
        model = Wheel
        fields = ("kind", "status")
