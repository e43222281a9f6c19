from django.db import migrations

from ledgers.core.db import AppendOnly


class Migration(migrations.Migration):
    dependencies = [("slots", "0018_progressives_tickets_reconciliation")]

    operations = [
        AppendOnly(name)
        for name in (
            "HistoricalProgressive",
            "HistoricalProgressiveStop",
            "HistoricalTicket",
            "ProgressiveReading",
            "JpmReading",
            "JpmWin",
            "IncrementBon",
            "JpmTransmission",
            "Reconciliation",
            "ReconciliationLine",
        )
    ]
