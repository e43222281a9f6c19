"""Append-only tables, enforced by the database.

``AppendOnly`` is a migration operation that installs triggers refusing UPDATE and DELETE on a
model's table (PostgreSQL and SQLite) and TRUNCATE (PostgreSQL). Corrections are new rows.

The triggers stop the application and anyone who does not own the tables; the owner and
superusers can still disable them, which is why tamper *evidence* is the hash chain
(docs/operations.md). Django's test flush truncates tables: only when the test settings set
``LEDGERS_TEST_FLUSH_ESCAPE`` do the migrations install a TRUNCATE guard that yields to
connections flagged ``ledgers.test_flush=on``. Real deployments get no such escape.

On PostgreSQL every append-only table also gets a ``ledgers_txid`` column that a BEFORE INSERT
trigger fills with the inserting transaction's id (``txid_current()``, whatever the client
sent), so verification can tell which history rows were written in the same transaction as a
register entry (ledgers/registers/evidence.py). The column is the database's, not a model field:
it covers the history tables of every app without their models knowing. Rows that existed before
the column read 0 ("before stamping"); NULL means the row went in with the triggers switched off.
The column is indexed, so that the daily verification reads only the rows of the transactions
since the seals, and finds the unstamped ones, whatever the size of the table.
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
PG_STAMP_TXID = """
CREATE OR REPLACE FUNCTION ledgers_stamp_txid() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.ledgers_txid := txid_current();
    RETURN NEW;
END $$;
"""
TXID_COLUMN = "ledgers_txid"
PG_TEST_ESCAPE = "IF current_setting('ledgers.test_flush', true) = 'on' THEN RETURN NULL; END IF;"


def stamp_txid(schema_editor, table: str) -> None:
    """Give ``table`` its transaction-id column and trigger (PostgreSQL; idempotent). The column
    is added with the constant default 0, which PostgreSQL stores once in the catalogue (no table
    rewrite) and which existing rows read; new rows then get no default but the trigger's value.
    Indexed, for the reads of the transactions since a point and of the unstamped rows."""
    schema_editor.execute(PG_STAMP_TXID, params=None)
    schema_editor.execute(f'ALTER TABLE "{table}" ADD COLUMN IF NOT EXISTS "{TXID_COLUMN}" bigint DEFAULT 0')
    schema_editor.execute(f'ALTER TABLE "{table}" ALTER COLUMN "{TXID_COLUMN}" DROP DEFAULT')
    schema_editor.execute(
        f'CREATE OR REPLACE TRIGGER "{table}_txid" BEFORE INSERT ON "{table}" '
        "FOR EACH ROW EXECUTE FUNCTION ledgers_stamp_txid()"
    )
    schema_editor.execute(f'CREATE INDEX IF NOT EXISTS "{table}_txid_idx" ON "{table}" ("{TXID_COLUMN}")')


def append_only_tables(connection) -> list[str]:
    """The tables that carry the append-only trigger (PostgreSQL), as docs/grants.sql finds them."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT to_regprocedure('ledgers_refuse_change()') IS NOT NULL")
        if not cursor.fetchone()[0]:
            return []
        cursor.execute(
            "SELECT DISTINCT c.relname FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid "
            "WHERE t.tgfoid = 'ledgers_refuse_change()'::regprocedure ORDER BY c.relname"
        )
        return [name for (name,) in cursor.fetchall()]


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
            stamp_txid(schema_editor, table)
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
            schema_editor.execute(f'DROP TRIGGER IF EXISTS "{table}_txid" ON "{table}"')
            schema_editor.execute(f'ALTER TABLE "{table}" DROP COLUMN IF EXISTS "{TXID_COLUMN}"')
        else:
            for op in ("update", "delete"):
                schema_editor.execute(f'DROP TRIGGER IF EXISTS "{table}_no_{op}"')


class StampTransactions(Operation):
    """Stamp every append-only table that exists with its transaction-id column, its index and its
    trigger (PostgreSQL): for databases whose AppendOnly operations ran before ``AppendOnly`` stamped.
    Tables made append-only later are stamped by their own ``AppendOnly``."""

    reversible = True
    reduces_to_sql = False

    def deconstruct(self):
        return (self.__class__.__qualname__, [], {})

    def state_forwards(self, app_label, state):
        pass

    def describe(self):
        return "Stamp append-only rows with their transaction id"

    def database_forwards(self, app_label, schema_editor, from_state, to_state):
        if schema_editor.connection.vendor == "postgresql":
            for table in append_only_tables(schema_editor.connection):
                stamp_txid(schema_editor, table)

    def database_backwards(self, app_label, schema_editor, from_state, to_state):
        pass  # the columns stay with their tables; AppendOnly's own reversal drops them
