from django.db import migrations

from ledgers.core.db import AppendOnly


class Migration(migrations.Migration):
    dependencies = [("slots", "0008_accounting_29")]

    operations = [
        AppendOnly("AccountingLine"),
        AppendOnly("MachineAvance"),
    ]
