from django.db import migrations

from ledgers.core.db import AppendOnly


class Migration(migrations.Migration):
    dependencies = [("cash", "0016_table_cagnottes")]

    operations = [AppendOnly("TableCagnotte")]
