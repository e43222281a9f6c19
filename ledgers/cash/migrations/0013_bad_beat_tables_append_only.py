from django.db import migrations

from ledgers.core.db import AppendOnly


class Migration(migrations.Migration):
    dependencies = [("cash", "0012_bad_beat_tables")]

    operations = [AppendOnly("BadBeatTable")]
