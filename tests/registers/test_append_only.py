"""The database refuses to change ledger rows: entries and every simple-history table of the
project (found through the app registry, so the tables of future apps are covered too)."""

import datetime
import decimal
import uuid

import psycopg
import pytest
from django.db import DatabaseError, connection, models, transaction
from django.utils import timezone

from ledgers.core.db import PG_TEST_ESCAPE, truncate_function_sql
from ledgers.registers.models import Entry
from ledgers.registers.services import entry_append
from tests.registers.conftest import HISTORY_MODELS, LEDGER_MODELS

# One plausible value per column type, for a row the test can then try to change.
DUMMIES = {
    "AutoField": None,
    "BigAutoField": None,
    "SmallAutoField": None,
    "CharField": "x",
    "SlugField": "x",
    "TextField": "x",
    "EmailField": "x@example.org",
    "URLField": "https://example.org",
    "GenericIPAddressField": "127.0.0.1",
    "FilePathField": "x",
    "FileField": "x",
    "ImageField": "x",
    "BooleanField": False,
    "JSONField": {},
    "IntegerField": 1,
    "BigIntegerField": 1,
    "SmallIntegerField": 1,
    "PositiveIntegerField": 1,
    "PositiveBigIntegerField": 1,
    "PositiveSmallIntegerField": 1,
    "DecimalField": decimal.Decimal("1"),
    "FloatField": 1.0,
    "DurationField": datetime.timedelta(1),
    "DateField": datetime.date(2026, 1, 1),
    "TimeField": datetime.time(12),
    "UUIDField": uuid.uuid4(),
}


def dummy_row(model, **known) -> models.Model:
    """A row of ``model``; ``known`` gives the values that must be real (constrained keys)."""
    values = {}
    for field in model._meta.concrete_fields:
        if field.primary_key or field.null or field.has_default():
            continue
        kind = field.get_internal_type()
        if field.attname in known:
            values[field.attname] = known[field.attname]
        elif isinstance(field, models.ForeignKey):
            # History tables keep the ids of related rows without a database constraint.
            values[field.attname] = 1
        elif kind == "DateTimeField":
            values[field.attname] = timezone.now()
        else:
            assert kind in DUMMIES, f"{model._meta.label}.{field.name}: add a dummy value for {kind}"
            values[field.attname] = DUMMIES[kind]
    return model.objects.create(**values)


@pytest.fixture
def entry(mc_register, mc_staff):
    return entry_append(register=mc_register, actor=mc_staff.writer, role=mc_staff.writer_role, payload={"a": 1})


def test_every_history_model_is_covered():
    assert {"HistoricalEstablishment", "HistoricalMembership", "HistoricalRegister"} <= {
        m.__name__ for m in HISTORY_MODELS
    }


@pytest.mark.django_db
@pytest.mark.parametrize("model", LEDGER_MODELS, ids=lambda m: m._meta.db_table)
def test_reg_20_update_and_delete_refused(model, entry):
    row = entry if model is Entry else dummy_row(model, register_id=entry.register_id)
    table = model._meta.db_table
    pk = model._meta.pk.column
    for sql in (f'UPDATE "{table}" SET "{pk}" = "{pk}" WHERE "{pk}" = %s', f'DELETE FROM "{table}" WHERE "{pk}" = %s'):
        with pytest.raises(DatabaseError, match="append-only"), transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(sql, [row.pk])
    assert model.objects.filter(pk=row.pk).exists()


@pytest.mark.django_db
def test_reg_20_orm_update_and_delete_of_an_entry_refused(entry):
    with pytest.raises(DatabaseError), transaction.atomic():
        Entry.objects.filter(pk=entry.pk).update(payload={"a": 2})
    with pytest.raises(DatabaseError), transaction.atomic():
        Entry.objects.filter(pk=entry.pk)._raw_delete(connection.alias)
    entry.refresh_from_db()
    assert entry.payload == {"a": 1}


@pytest.mark.postgresql
@pytest.mark.django_db
@pytest.mark.parametrize("model", LEDGER_MODELS, ids=lambda m: m._meta.db_table)
def test_reg_20_truncate_refused_on_postgresql(model):
    """Through a connection of its own, without the ``ledgers.test_flush`` flag that the test
    settings give Django's connections (see ledgers/core/db.py)."""
    settings = connection.settings_dict
    params = {
        "dbname": settings["NAME"],
        "user": settings["USER"],
        "host": settings["HOST"] or None,
        "port": settings["PORT"] or None,
        "password": settings["PASSWORD"] or None,
    }
    with psycopg.connect(**{k: v for k, v in params.items() if v is not None}) as raw:
        raw.execute("SET lock_timeout = '5s'")
        assert raw.execute("SELECT current_setting('ledgers.test_flush', true)").fetchone()[0] in (None, "")
        with pytest.raises(psycopg.errors.RaiseException, match="TRUNCATE refused"):
            # CASCADE: a table that other tables reference reaches its trigger instead of the
            # foreign-key check; the whole statement is refused all the same.
            raw.execute(f'TRUNCATE "{model._meta.db_table}" CASCADE')
        raw.rollback()


def test_reg_20_production_truncate_guard_has_no_escape():
    production = truncate_function_sql(test_escape=False)
    assert "TRUNCATE refused" in production
    assert PG_TEST_ESCAPE not in production
    assert "test_flush" not in production and "current_setting" not in production
    assert PG_TEST_ESCAPE in truncate_function_sql(test_escape=True)
