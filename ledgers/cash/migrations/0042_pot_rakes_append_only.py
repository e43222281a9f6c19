from django.db import migrations

from ledgers.core.db import AppendOnly


class Migration(migrations.Migration):
    dependencies = [("cash", "0041_pot_rakes")]

    operations = [AppendOnly("PotRake")]
