import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    """The author's own index goes: entry_actor_recent_idx (actor_user, -recorded_at, -id) leads
    with the same column and serves every lookup by author. Only the index is dropped: altering
    the field would drop and re-add its foreign key, which checks every entry again."""

    dependencies = [
        ("registers", "0014_tree_head_checkpoint_signatures"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="entry",
                    name="actor_user",
                    field=models.ForeignKey(
                        db_index=False,
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="ledger_entries",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            database_operations=[
                migrations.RunSQL(
                    'DROP INDEX IF EXISTS "registers_entry_actor_user_id_733b3b2e"',
                    reverse_sql='CREATE INDEX "registers_entry_actor_user_id_733b3b2e" '
                    'ON "registers_entry" ("actor_user_id")',
                ),
            ],
        ),
    ]
