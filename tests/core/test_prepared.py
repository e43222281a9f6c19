"""A prepared query, compiled once, reads what its queryset would with each read's values."""

import pytest
from django.contrib.contenttypes.models import ContentType
from django.db.models import CharField, Count, F

from ledgers.cards.models import CardUnit
from ledgers.cards.selectors import card_incidents
from ledgers.core.models import GamingTable, Seance
from ledgers.core.prepared import Bound, Prepared, PreparedCounts
from ledgers.dice.models import Die
from ledgers.dice.selectors import destruction_queue
from tests.factories import EstablishmentFactory, GamingTableFactory

pytestmark = pytest.mark.django_db


def test_each_read_gets_the_rows_of_its_values_with_their_annotations_and_related_objects(
    django_assert_num_queries,
):
    monaco, nice = EstablishmentFactory(), EstablishmentFactory(jurisdiction="FR")
    tables = {est: [GamingTableFactory(establishment=est, number=f"{n}") for n in (1, 2)] for est in (monaco, nice)}
    prepared = Prepared(
        GamingTable.objects.select_related("room")
        .annotate(house=F("establishment__code"))
        .filter(establishment=Bound("house"), number__gt=Bound("after", CharField()))
        .order_by("number")
    )
    for est in (monaco, nice, monaco):
        with django_assert_num_queries(1):
            found = prepared.read(house=est.pk, after="1")
            assert [(t.pk, t.house, t.room.pk) for t in found] == [(t.pk, est.code, t.room.pk) for t in tables[est][1:]]


def test_a_values_query_reads_its_rows():
    est = EstablishmentFactory()
    GamingTableFactory(establishment=est)
    prepared = Prepared(
        GamingTable.objects.values("establishment").annotate(n=Count("pk")).filter(establishment=Bound("e"))
    )
    assert prepared.read(e=est.pk) == [{"establishment": est.pk, "n": 1}]
    assert prepared.read(e=est.pk + 1000) == []


def test_a_day_written_into_the_query_is_refused():
    """What every read would share must not be a day: it is given at each read instead."""
    est = EstablishmentFactory()
    prepared = Prepared(Seance.objects.filter(establishment=Bound("e"), date__gte=est.localtime().date()))
    with pytest.raises(ValueError, match="Bound"):
        prepared.read(e=est.pk)


@pytest.mark.parametrize("counted", ["cards", "dice"])
def test_a_prepared_count_names_content_types_by_app_and_model(counted):
    """A content type's id may change under a query compiled once (a test database's flush gives
    new ones): the homes' prepared counts name it by its app and model."""
    model, queryset = {"cards": (CardUnit, card_incidents), "dice": (Die, destruction_queue)}[counted]
    prepared = PreparedCounts(n=queryset(Bound("house")))
    assert prepared.read(house=EstablishmentFactory().pk) == {"n": 0}
    _sql, params = prepared._compiled
    assert ContentType.objects.get_for_model(model).pk not in params
    assert model._meta.model_name in params
