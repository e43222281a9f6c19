from django.db import migrations

from ledgers.core.db import AppendOnly
from ledgers.core.migrations import create_role_groups


class Migration(migrations.Migration):
    dependencies = [("core", "0001_initial"), ("auth", "0012_alter_user_first_name_max_length")]

    operations = [
        AppendOnly("HistoricalEstablishment"),
        AppendOnly("HistoricalRoom"),
        AppendOnly("HistoricalLocation"),
        AppendOnly("HistoricalGamingTable"),
        AppendOnly("HistoricalSeance"),
        AppendOnly("HistoricalTableSession"),
        AppendOnly("HistoricalMembership"),
        # Elidable: 0003 creates the same groups again.
        migrations.RunPython(create_role_groups, migrations.RunPython.noop, elidable=True),
    ]
