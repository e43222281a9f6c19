from django.db import migrations

from ledgers.core.db import AppendOnly


class Migration(migrations.Migration):
    dependencies = [("cash", "0029_electronic_10_bis")]

    operations = [AppendOnly("ElectronicDevice"), AppendOnly("StationResult"), AppendOnly("DeviceDay")]
