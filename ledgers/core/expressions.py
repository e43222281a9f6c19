"""Query expressions that read the same on PostgreSQL and SQLite."""

import json
from typing import Any

from django.contrib.postgres.expressions import ArraySubquery as PostgresArraySubquery
from django.db.models import JSONField


class ArraySubquery(PostgresArraySubquery):
    """The values of a one-column subquery as a list, in its order: ``ARRAY(subquery)`` on
    PostgreSQL; on SQLite (the demo's and the tests' other database) the same list gathered as a
    JSON array and decoded."""

    def as_sqlite(self, compiler, connection, **extra_context) -> tuple[str, tuple]:
        query = self.query
        if query.annotation_select:
            name = next(iter(query.annotation_select))
            json_value = isinstance(query.annotation_select[name].output_field, JSONField)
        else:  # values("field"): the derived table names the column after the field's column
            name, json_value = query.model._meta.get_field(query.values_select[0]).column, False
        inner, params = query.as_sql(compiler, connection)
        value = connection.ops.quote_name(name)
        value = f"json({value})" if json_value else value  # a JSON object stays one, not its text
        return f"(SELECT json_group_array({value}) FROM {inner})", tuple(params)

    def get_db_converters(self, connection) -> list:
        if connection.vendor == "sqlite":
            return [_decoded]
        return super().get_db_converters(connection)


def _decoded(value: Any, expression, connection) -> Any:
    return json.loads(value) if isinstance(value, str) else value
