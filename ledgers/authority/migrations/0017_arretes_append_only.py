from django.db import migrations

from ledgers.core.db import AppendOnly


class Migration(migrations.Migration):
    dependencies = [("authority", "0016_arretes")]

    operations = [AppendOnly("Arrete"), AppendOnly("ArreteGame"), AppendOnly("TableAuthorisation")]
