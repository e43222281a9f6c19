from django.db import migrations

from ledgers.core.db import AppendOnly


class Migration(migrations.Migration):
    dependencies = [("cards", "0001_initial")]

    operations = [
        AppendOnly("HistoricalCardUnit"),
        AppendOnly("HistoricalCardExchange"),
        AppendOnly("CardEvent"),
        AppendOnly("ReplacementSixain"),
    ]
