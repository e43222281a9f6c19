from django.db import migrations

from ledgers.core.db import AppendOnly


class Migration(migrations.Migration):
    dependencies = [("printing", "0003_volume_boundary")]

    operations = [AppendOnly("VolumeBoundary")]
