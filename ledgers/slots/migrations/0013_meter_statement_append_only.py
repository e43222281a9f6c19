from django.db import migrations

from ledgers.core.db import AppendOnly


class Migration(migrations.Migration):
    dependencies = [("slots", "0012_meter_statement_32")]

    operations = [AppendOnly("MeterStatement")]
