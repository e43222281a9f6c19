from django.db import migrations

from ledgers.core.db import AppendOnly


class Migration(migrations.Migration):
    dependencies = [("cash", "0021_changeur_floats")]

    operations = [AppendOnly("ChangeurFloatFix"), AppendOnly("ChangeurFloat")]
