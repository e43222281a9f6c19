from django.db import migrations

from ledgers.core.db import AppendOnly


class Migration(migrations.Migration):
    dependencies = [("custody", "0002_initial")]

    operations = [
        AppendOnly("HistoricalSupplier"),
        AppendOnly("HistoricalPurchaseOrder"),
        AppendOnly("HistoricalDestructionSession"),
        AppendOnly("DestructionItem"),
        AppendOnly("DepotDay"),
        AppendOnly("StockVerification"),
    ]
