from django.db import migrations

from ledgers.core.db import AppendOnly


class Migration(migrations.Migration):
    dependencies = [("cash", "0001_initial")]

    operations = [
        AppendOnly("TableFloat"),
        AppendOnly("HistoricalSlipBook"),
        AppendOnly("HistoricalSlip"),
        AppendOnly("HistoricalTableCount"),
        AppendOnly("HistoricalControlDay"),
    ]
