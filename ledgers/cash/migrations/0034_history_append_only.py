from django.db import migrations

from ledgers.core.db import AppendOnly


class Migration(migrations.Migration):
    dependencies = [("cash", "0033_baccara_banks_append_only")]

    operations = [AppendOnly("HistoricalChipSeries"), AppendOnly("HistoricalCercleDeviceDay")]
