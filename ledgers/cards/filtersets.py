import django_filters
from django.utils.translation import gettext_lazy as _

from ledgers.custody.models import ItemStatus

from .models import CardUnit, UnitType


class CardUnitFilter(django_filters.FilterSet):
    serial = django_filters.CharFilter(label=_("Numéro d'ordre"), lookup_expr="icontains")
    unit_type = django_filters.ChoiceFilter(label=_("Type"), choices=UnitType.choices)
    status = django_filters.ChoiceFilter(label=_("Statut"), choices=ItemStatus.choices)
    top_only = django_filters.BooleanFilter(
        label=_("Unités de stock seulement"), field_name="parent", lookup_expr="isnull"
    )

    class Meta:
        model = CardUnit
        fields = ["serial", "unit_type", "status", "top_only"]
