from django.db import migrations

from ledgers.core.db import AppendOnly


class Migration(migrations.Migration):
    dependencies = [("authority", "0003_access_log")]

    operations = [AppendOnly("AccessLog")]
