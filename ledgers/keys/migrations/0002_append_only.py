from django.db import migrations

from ledgers.core.db import AppendOnly


class Migration(migrations.Migration):
    dependencies = [("keys", "0001_initial")]

    operations = [
        AppendOnly("HistoricalKey"),
        AppendOnly("HistoricalKeyIssue"),
        AppendOnly("KeySignature"),
        AppendOnly("SocleKeySurrender"),
        AppendOnly("KeyInventory"),
    ]
