from django.db import migrations

from ledgers.core.db import AppendOnly


class Migration(migrations.Migration):
    dependencies = [("cash", "0003_cagnottes")]

    operations = [
        AppendOnly("HistoricalTicketBook"),
        AppendOnly("HistoricalCagnotteCount"),
    ]
