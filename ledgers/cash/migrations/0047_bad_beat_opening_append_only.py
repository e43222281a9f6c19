from django.db import migrations

from ledgers.core.db import AppendOnly


class Migration(migrations.Migration):
    dependencies = [("cash", "0046_bad_beat_opening")]

    operations = [AppendOnly("BadBeatOpening")]
