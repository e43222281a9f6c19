"""Data-migration functions shared by the original migrations and the squashed one."""


def create_role_groups(apps, schema_editor):
    """One auth group per role (idempotent)."""
    from ledgers.core.roles import Role

    Group = apps.get_model("auth", "Group")
    for role in Role:
        Group.objects.get_or_create(name=role.value)
