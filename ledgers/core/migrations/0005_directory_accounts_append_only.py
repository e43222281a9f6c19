from django.db import migrations

from ledgers.core.db import AppendOnly


class Migration(migrations.Migration):
    dependencies = [("core", "0004_directory_accounts")]

    operations = [AppendOnly("HistoricalDirectoryAccount")]
