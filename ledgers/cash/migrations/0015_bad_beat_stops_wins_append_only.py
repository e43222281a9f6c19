from django.db import migrations

from ledgers.core.db import AppendOnly


class Migration(migrations.Migration):
    dependencies = [("cash", "0014_bad_beat_stops_wins")]

    operations = [AppendOnly("BadBeatConfig"), AppendOnly("BadBeatWin")]
