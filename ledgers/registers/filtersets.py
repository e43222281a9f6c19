import django_filters
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from .kinds import kind_choices
from .models import Register


class RegisterFilter(django_filters.FilterSet):
    kind = django_filters.ChoiceFilter(label=_("Type"), choices=kind_choices)
    status = django_filters.ChoiceFilter(label=_("Statut"), choices=Register.Status.choices)
    q = django_filters.CharFilter(label=_("Recherche"), method="search")

    class Meta:
        model = Register
        fields = ["kind", "status"]

    def search(self, queryset, name, value):
        return queryset.filter(Q(number__icontains=value) | Q(title__icontains=value) | Q(qualifier__icontains=value))
