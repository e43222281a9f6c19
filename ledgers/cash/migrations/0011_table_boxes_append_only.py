from django.db import migrations

from ledgers.core.db import AppendOnly


class Migration(migrations.Migration):
    dependencies = [("cash", "0010_table_boxes")]

    operations = [AppendOnly("TableBox")]
