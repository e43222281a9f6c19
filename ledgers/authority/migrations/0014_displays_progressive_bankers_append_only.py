from django.db import migrations

from ledgers.core.db import AppendOnly


class Migration(migrations.Migration):
    dependencies = [("authority", "0013_displays_progressive_bankers")]

    operations = [AppendOnly("RulesDisplay"), AppendOnly("ProgressiveConfig"), AppendOnly("ProgressiveReading"),
                  AppendOnly("ProgressivePayout"), AppendOnly("HistoricalApprovedBanker")]
