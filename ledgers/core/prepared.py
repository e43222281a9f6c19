"""Queries compiled once per process, read with the values of each request.

Django compiles a queryset's SQL every time it is read: for the homes' queries, with their
subqueries and a dozen annotations, compiling costs more than running them. A ``Prepared`` query
is a queryset whose values that change from one read to the next (the house, a day) are
``Bound`` parameters: its SQL is compiled once for each database, naming no house or day, and
each read runs that SQL with the values given, making the same model instances (annotations,
``select_related``, ``prefetch_related``) as the queryset would.
"""

import copy
import datetime
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, Generic, TypeVar

from django.core.exceptions import EmptyResultSet
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import Expression, Field, IntegerField, Model, Q, QuerySet
from django.db.models.sql.compiler import SQLCompiler

M = TypeVar("M", bound=Model)


class Bound(Expression):
    """A value given at each read of a ``Prepared`` query, under ``name``: compiled as a
    placeholder whose parameter is the ``Bound`` itself, replaced by the value when read."""

    def __init__(self, name: str, output_field: Field | None = None) -> None:
        super().__init__(output_field=output_field or IntegerField())
        self.name = name

    def as_sql(self, compiler: SQLCompiler, connection: Any) -> tuple[str, tuple]:
        return "%s", (self,)


class Prepared(Generic[M]):
    """``queryset`` compiled once for each database; ``read(**values)`` gives its rows with each
    ``Bound`` parameter's value taken from ``values`` (model instances, or the rows of a ``values()``
    queryset)."""

    def __init__(self, queryset: QuerySet[M]) -> None:
        self.queryset = queryset
        self._compiled: dict[str, tuple[SQLCompiler, str, tuple]] = {}

    def _compiler(self, using: str) -> tuple[SQLCompiler, str, tuple]:
        if using not in self._compiled:
            compiler = self.queryset.query.get_compiler(using=using)
            with _days_as_given(connections[using]):
                sql, params = compiler.as_sql()  # also sets what making the rows reads (select, klass_info…)
            self._compiled[using] = compiler, sql, _shared(params)
        return self._compiled[using]

    def read(self, **values: Any) -> list[M]:
        queryset = self.queryset.all()  # a copy, whose query alone is given the compiled SQL
        compiler, sql, params = self._compiler(queryset.db)
        connection = connections[queryset.db]
        bound = _bound(params, values, connection)
        # The compiled state is shared and only read; the connection (one per thread), the SQL's
        # values and the compiler that runs them are this read's own.
        run = copy.copy(compiler)
        run.connection = connection
        run.as_sql = lambda *args, **kwargs: (sql, bound)
        queryset.query.get_compiler = lambda *args, **kwargs: run
        return list(queryset)


def of_model(model: type[Model], path: str = "content_type") -> Q:
    """The rows whose content type at ``path`` is ``model``'s, named by its app and model rather than
    by its id: a query compiled once holds no id that the content types' table may give another
    model (as a test database's flush does)."""
    return Q(**{f"{path}__app_label": model._meta.app_label, f"{path}__model": model._meta.model_name})


def counts_sql(querysets: dict[str, QuerySet]) -> tuple[str, list]:
    """One query whose columns are the numbers of rows of each of ``querysets``, in their order,
    with its parameters."""
    parts, params = [], []
    for queryset in querysets.values():
        try:
            sql, part_params = queryset.order_by().values("pk").query.sql_with_params()
        except EmptyResultSet:  # a filter that can match nothing
            parts.append("0")
            continue
        parts.append(f"(SELECT COUNT(*) FROM ({sql}) AS counted)")
        params.extend(part_params)
    return f"SELECT {', '.join(parts)}", params


class PreparedCounts:
    """The numbers of rows of ``querysets`` read in one query (as ``counted_together`` reads
    them), its SQL compiled once; ``read(**values)`` gives each count by name, each ``Bound``
    parameter's value taken from ``values``."""

    def __init__(self, **querysets: QuerySet) -> None:
        self.querysets = querysets
        self._compiled: tuple[str, tuple] | None = None

    def read(self, **values: Any) -> dict[str, int]:
        if self._compiled is None:
            with _days_as_given(connections[DEFAULT_DB_ALIAS]):
                sql, params = counts_sql(self.querysets)
            self._compiled = sql, _shared(params)
        sql, params = self._compiled
        connection = connections[DEFAULT_DB_ALIAS]
        with connection.cursor() as cursor:
            cursor.execute(sql, _bound(params, values, connection))
            return dict(zip(self.querysets, cursor.fetchone(), strict=True))


@contextmanager
def _days_as_given(connection: Any) -> Iterator[None]:
    """Compiling a query with the days and times it holds left as they are (SQLite's adapters make
    them text), for ``_shared`` to find them on every database. The connection is the thread's own."""
    adapters = ("adapt_datefield_value", "adapt_datetimefield_value", "adapt_timefield_value")
    for name in adapters:
        setattr(connection.ops, name, lambda value: value)
    try:
        yield
    finally:
        for name in adapters:
            delattr(connection.ops, name)  # the class's adapter again


def _shared(params: Any) -> tuple:
    """The parameters of a query compiled once, which every read shares: refused if they hold a day
    or a time, which every request of the process would read."""
    held = [p for p in params if isinstance(p, datetime.date | datetime.time | datetime.timedelta)]
    if held:
        raise ValueError(f"a prepared query holds {held!r}: give it as a Bound value")
    return tuple(params)


def _bound(params: tuple, values: dict[str, Any], connection: Any) -> tuple:
    """``params`` with each ``Bound`` one replaced by its value in ``values``, as the database takes it."""
    return tuple(
        p.output_field.get_db_prep_value(values[p.name], connection) if isinstance(p, Bound) else p for p in params
    )
