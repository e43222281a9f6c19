from django.db import migrations

from ledgers.core.db import AppendOnly


class Migration(migrations.Migration):
    dependencies = [("tables", "0003_extensions_bankers")]

    operations = [AppendOnly("ClosingExtension"), AppendOnly("PartieBanker")]
