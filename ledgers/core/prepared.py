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
from typing import Any, Generic, TypeVar

from django.db import connections
from django.db.models import Expression, Field, IntegerField, Model, QuerySet
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
            sql, params = compiler.as_sql()  # also sets what making the rows reads (select, klass_info…)
            # A day or time written into the SQL would be read by every request of the process.
            held = [p for p in params if isinstance(p, datetime.date | datetime.time | datetime.timedelta)]
            if held:
                raise ValueError(f"a prepared query holds {held!r}: give it as a Bound value")
            self._compiled[using] = compiler, sql, tuple(params)
        return self._compiled[using]

    def read(self, **values: Any) -> list[M]:
        queryset = self.queryset.all()  # a copy, whose query alone is given the compiled SQL
        compiler, sql, params = self._compiler(queryset.db)
        connection = connections[queryset.db]
        bound = tuple(
            p.output_field.get_db_prep_value(values[p.name], connection) if isinstance(p, Bound) else p for p in params
        )
        # The compiled state is shared and only read; the connection (one per thread), the SQL's
        # values and the compiler that runs them are this read's own.
        run = copy.copy(compiler)
        run.connection = connection
        run.as_sql = lambda *args, **kwargs: (sql, bound)
        queryset.query.get_compiler = lambda *args, **kwargs: run
        return list(queryset)
