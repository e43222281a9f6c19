from django.db import migrations

from ledgers.core.db import AppendOnly


class Migration(migrations.Migration):
    dependencies = [("cash", "0005_bad_beat")]

    operations = [AppendOnly("BadBeatCount")]
