"""The slot room's panel reads its counts in one query, each the count its queryset gives."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from ledgers.core.models import Establishment
from ledgers.slots.dashboard import counted_together


@pytest.mark.django_db
def test_counts_read_together_are_each_querysets_count(mc, fr):
    querysets = {
        "all": Establishment.objects.all(),
        "monaco": Establishment.objects.filter(jurisdiction="MC").distinct(),
        "named": Establishment.objects.filter(code__in=[mc.code, fr.code]).order_by("-code"),
        "nothing": Establishment.objects.filter(pk__in=[]),
    }
    with CaptureQueriesContext(connection) as captured:
        counted = counted_together(**querysets)
    assert len(captured) == 1
    assert counted == {name: queryset.count() for name, queryset in querysets.items()}
    assert counted["named"] == 2 and counted["nothing"] == 0
