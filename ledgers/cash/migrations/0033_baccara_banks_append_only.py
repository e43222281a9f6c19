from django.db import migrations

from ledgers.core.db import AppendOnly


class Migration(migrations.Migration):
    dependencies = [("cash", "0032_baccara_banks")]

    operations = [AppendOnly("BaccaraBank"), AppendOnly("BankerSegment")]
