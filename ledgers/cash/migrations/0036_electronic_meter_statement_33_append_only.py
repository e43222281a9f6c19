from django.db import migrations

from ledgers.core.db import AppendOnly


class Migration(migrations.Migration):
    dependencies = [("cash", "0035_electronic_meter_statement_33")]

    operations = [AppendOnly("ElectronicMeterStatement")]
