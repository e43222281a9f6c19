"""Schema functions shared by the original migrations and the squashed one."""

from ledgers.core.db import TXID_COLUMN


def create_entry_txid_index(apps, schema_editor):
    # The column exists on PostgreSQL only (ledgers.core.db.stamp_txid): the transaction check
    # looks entries up by it once per history row.
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(
            f'CREATE INDEX IF NOT EXISTS "registers_entry_txid_idx" ON "registers_entry" ("{TXID_COLUMN}")'
        )


def drop_entry_txid_index(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute('DROP INDEX IF EXISTS "registers_entry_txid_idx"')
