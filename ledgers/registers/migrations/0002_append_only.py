from django.db import migrations

from ledgers.core.db import AppendOnly


class Migration(migrations.Migration):
    dependencies = [("registers", "0001_initial")]

    operations = [AppendOnly("Entry"), AppendOnly("HistoricalRegister")]
