from django.db import migrations

from ledgers.core.db import StampTransactions


class Migration(migrations.Migration):
    """Every append-only table's transaction-id column gets its index (tables made append-only
    later get theirs from ``AppendOnly``)."""

    dependencies = [("registers", "0015_entry_actor_user_index_in_recent")]

    operations = [StampTransactions()]
