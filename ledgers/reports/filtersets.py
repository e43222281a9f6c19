import django_filters

from .models import ReportJob


class ReportJobFilter(django_filters.FilterSet):
    class Meta:
        model = ReportJob
        fields = ["kind", "status"]
