from django.db import migrations

from ledgers.core.db import AppendOnly


class Migration(migrations.Migration):
    dependencies = [("cash", "0024_box_holders_append_only")]

    operations = [AppendOnly("HistoricalBadBeatStop")]
