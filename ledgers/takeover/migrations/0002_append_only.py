from django.db import migrations

from ledgers.core.db import AppendOnly


class Migration(migrations.Migration):
    dependencies = [("takeover", "0001_initial")]

    operations = [
        AppendOnly("HistoricalInventory"),
    ]
