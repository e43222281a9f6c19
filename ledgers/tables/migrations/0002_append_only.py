from django.db import migrations

from ledgers.core.db import AppendOnly


class Migration(migrations.Migration):
    dependencies = [("tables", "0001_initial")]

    operations = [
        AppendOnly("HistoricalStaffAssignment"),
        AppendOnly("TableLimits"),
    ]
