from django.db import migrations

from ledgers.core.db import AppendOnly


class Migration(migrations.Migration):
    dependencies = [("authority", "0005_archives")]

    operations = [
        AppendOnly("HistoricalSeasonArchive"),
        AppendOnly("PurgeClearance"),
    ]
