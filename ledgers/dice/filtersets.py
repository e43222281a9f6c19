import django_filters
from django.utils.translation import gettext_lazy as _

from ledgers.core.models import Location
from ledgers.custody.models import ItemStatus

from .models import Die


class DieFilter(django_filters.FilterSet):
    serial = django_filters.CharFilter(label=_("Numéro d'ordre"), lookup_expr="icontains")
    status = django_filters.ChoiceFilter(label=_("Statut"), choices=ItemStatus.choices)
    new = django_filters.BooleanFilter(label=_("Neuf (jamais alloué)"), method="filter_new")

    class Meta:
        model = Die
        fields = ("serial", "status", "location")

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        est = getattr(self.request, "establishment", None)
        self.filters["location"].queryset = est.locations.all() if est is not None else Location.objects.none()

    def filter_new(self, queryset, name, value):
        if value is None:
            return queryset
        return queryset.filter(services=0) if value else queryset.filter(services__gt=0)
