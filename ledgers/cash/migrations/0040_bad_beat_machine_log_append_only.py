from django.db import migrations

from ledgers.core.db import AppendOnly


class Migration(migrations.Migration):
    dependencies = [("cash", "0039_bad_beat_machine_log")]

    operations = [AppendOnly("BadBeatLog")]
