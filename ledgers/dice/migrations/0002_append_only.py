from django.db import migrations

from ledgers.core.db import AppendOnly


class Migration(migrations.Migration):
    dependencies = [("dice", "0001_initial")]

    operations = [
        AppendOnly("HistoricalDie"),
        AppendOnly("DicePair"),
        AppendOnly("DiceAllocation"),
        AppendOnly("AllocatedDie"),
        AppendOnly("DiceSwap"),
        AppendOnly("DiceCheck"),
    ]
