"""The homes' panels read their counts in one query, each the count its queryset gives; compiled
once, with each read's values."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from ledgers.core.models import Establishment
from ledgers.core.prepared import Bound, PreparedCounts
from ledgers.core.selectors import counted_together


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


@pytest.mark.django_db
def test_counts_compiled_once_are_each_reads_counts(mc, fr):
    prepared = PreparedCounts(
        house=Establishment.objects.filter(pk=Bound("house")),
        others=Establishment.objects.exclude(pk=Bound("house")),
        nothing=Establishment.objects.filter(pk__in=[]),
    )
    for est in (mc, fr, mc):
        with CaptureQueriesContext(connection) as captured:
            counted = prepared.read(house=est.pk)
        assert len(captured) == 1
        assert counted == {"house": 1, "others": Establishment.objects.exclude(pk=est.pk).count(), "nothing": 0}
