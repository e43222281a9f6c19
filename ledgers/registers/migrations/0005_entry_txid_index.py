from django.db import migrations

from ledgers.registers.migrations import create_entry_txid_index, drop_entry_txid_index


class Migration(migrations.Migration):
    dependencies = [("registers", "0004_checkpoint")]

    operations = [migrations.RunPython(create_entry_txid_index, drop_entry_txid_index, elidable=False)]
