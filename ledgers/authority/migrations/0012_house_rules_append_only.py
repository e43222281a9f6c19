from django.db import migrations

from ledgers.core.db import AppendOnly


class Migration(migrations.Migration):
    dependencies = [("authority", "0011_house_rules")]

    operations = [AppendOnly("HouseRulesVersion"), AppendOnly("TableOptionChange")]
