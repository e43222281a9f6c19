from django.db import migrations

from ledgers.core.db import AppendOnly


def create_role_groups(apps, schema_editor):
    from ledgers.core.roles import Role

    Group = apps.get_model("auth", "Group")
    for role in Role:
        Group.objects.get_or_create(name=role.value)


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
        migrations.RunPython(create_role_groups, migrations.RunPython.noop),
    ]
