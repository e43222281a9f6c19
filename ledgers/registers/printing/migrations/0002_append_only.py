from django.db import migrations

from ledgers.core.db import AppendOnly


class Migration(migrations.Migration):
    dependencies = [("printing", "0001_initial")]

    operations = [AppendOnly("VolumePrint"), AppendOnly("VolumeParaphe")]
