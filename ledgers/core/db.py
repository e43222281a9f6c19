"""Append-only tables, enforced by the database.

``AppendOnly`` is a migration operation that installs triggers refusing UPDATE and DELETE on a
model's table (PostgreSQL and SQLite) and TRUNCATE (PostgreSQL). Corrections are new rows.

The triggers stop the application and anyone who does not own the tables; the owner and
superusers can still disable them, which is why tamper *evidence* is the hash chain
(docs/operations.md). Django's test flush truncates tables: only when the test settings set
``LEDGERS_TEST_FLUSH_ESCAPE`` do the migrations install a TRUNCATE guard that yields to
connections flagged ``ledgers.test_flush=on``. Real deployments get no such escape.
"""

from django.conf import settings
from django.db.migrations.operations.base import Operation

PG_REFUSE_CHANGE = """
CREATE OR REPLACE FUNCTION ledgers_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'append-only table %: % refused', TG_TABLE_NAME, TG_OP
        USING HINT = 'Ledger rows are never changed: append a correction instead.';
END $$;
"""

PG_REFUSE_TRUNCATE = """
CREATE OR REPLACE FUNCTION ledgers_refuse_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    {escape}
    RAISE EXCEPTION 'append-only table %: TRUNCATE refused', TG_TABLE_NAME;
END $$;
"""
PG_TEST_ESCAPE = "IF current_setting('ledgers.test_flush', true) = 'on' THEN RETURN NULL; END IF;"


def truncate_function_sql(*, test_escape: bool) -> str:
    return PG_REFUSE_TRUNCATE.format(escape=PG_TEST_ESCAPE if test_escape else "")


class AppendOnly(Operation):
    reversible = True
    reduces_to_sql = True

    def __init__(self, model_name: str) -> None:
        self.model_name = model_name

    def deconstruct(self):
        return (self.__class__.__qualname__, [self.model_name], {})

    def state_forwards(self, app_label, state):
        pass

    def describe(self):
        return f"Make {self.model_name} append-only"

    @property
    def migration_name_fragment(self):
        return f"{self.model_name.lower()}_append_only"

    def _table(self, app_label, state):
        return state.apps.get_model(app_label, self.model_name)._meta.db_table

    def database_forwards(self, app_label, schema_editor, from_state, to_state):
        table = self._table(app_label, to_state)
        vendor = schema_editor.connection.vendor
        if vendor == "postgresql":
            escape = getattr(settings, "LEDGERS_TEST_FLUSH_ESCAPE", False)
            # params=None: the PL/pgSQL bodies contain "%" that must not be read as placeholders.
            schema_editor.execute(PG_REFUSE_CHANGE, params=None)
            schema_editor.execute(truncate_function_sql(test_escape=escape), params=None)
            schema_editor.execute(
                f'CREATE TRIGGER "{table}_append_only" BEFORE UPDATE OR DELETE ON "{table}" '
                "FOR EACH ROW EXECUTE FUNCTION ledgers_refuse_change()"
            )
            schema_editor.execute(
                f'CREATE TRIGGER "{table}_no_truncate" BEFORE TRUNCATE ON "{table}" '
                "FOR EACH STATEMENT EXECUTE FUNCTION ledgers_refuse_truncate()"
            )
        elif vendor == "sqlite":
            for op in ("UPDATE", "DELETE"):
                schema_editor.execute(
                    f'CREATE TRIGGER "{table}_no_{op.lower()}" BEFORE {op} ON "{table}" '
                    f"BEGIN SELECT RAISE(ABORT, 'append-only table {table}: {op} refused'); END"
                )
        else:  # pragma: no cover - only PostgreSQL and SQLite are supported
            raise NotImplementedError(f"append-only triggers are not written for {vendor}")

    def database_backwards(self, app_label, schema_editor, from_state, to_state):
        table = self._table(app_label, from_state)
        if schema_editor.connection.vendor == "postgresql":
            schema_editor.execute(f'DROP TRIGGER IF EXISTS "{table}_append_only" ON "{table}"')
            schema_editor.execute(f'DROP TRIGGER IF EXISTS "{table}_no_truncate" ON "{table}"')
        else:
            for op in ("update", "delete"):
                schema_editor.execute(f'DROP TRIGGER IF EXISTS "{table}_no_{op}"')
