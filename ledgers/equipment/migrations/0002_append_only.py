from django.db import migrations

from ledgers.core.db import AppendOnly


class Migration(migrations.Migration):
    dependencies = [("equipment", "0001_initial")]

    operations = [
        AppendOnly("HistoricalApprovedModel"),
        AppendOnly("HistoricalShoe"),
        AppendOnly("HistoricalSocle"),
        AppendOnly("HistoricalShuffler"),
        AppendOnly("HistoricalShufflerUse"),
        AppendOnly("HistoricalWheel"),
        AppendOnly("ShoeAllocation"),
        AppendOnly("WheelCheck"),
        AppendOnly("LidLock"),
    ]
