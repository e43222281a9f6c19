"""A new database migrates through each app's squashed migration; an older one through the history
it replaces. Both must leave the same models, columns in the same order, and the same append-only
tables. (The schemas themselves were compared with pg_dump: docs/operations.md, "Migrations".)"""

import pytest
from django.db.migrations.loader import MigrationLoader

from ledgers.core.db import AppendOnly


@pytest.fixture(scope="module")
def loader():
    return MigrationLoader(None, ignore_no_migrations=True)  # each history replaced by its squash


@pytest.fixture(scope="module")
def squashed(loader):
    return {key: migration for key, migration in loader.disk_migrations.items() if migration.replaces}


def test_every_squash_replaces_a_whole_history_and_is_its_app_s_first_migration(loader, squashed):
    assert len(squashed) >= 16
    for (app_label, name), migration in squashed.items():
        assert [key for key in loader.graph.forwards_plan((app_label, name)) if key[0] == app_label] == [
            (app_label, name)
        ]
        assert min(key[1] for key in migration.replaces).startswith("0001_"), app_label


def test_the_squashed_migrations_leave_the_models_their_histories_leave(loader, squashed):
    replaced = {key for migration in squashed.values() for key in migration.replaces}
    leaves = [key for key in replaced if not any(key in loader.disk_migrations[k].dependencies for k in replaced)]
    history = MigrationLoader(None, ignore_no_migrations=True, replace_migrations=False).project_state(leaves)
    state = loader.project_state()
    apps = {key[0] for key in squashed}
    keys = {key for key in [*state.models, *history.models] if key[0] in apps}
    assert len(keys) > 200
    for key in sorted(keys):
        assert key in state.models and key in history.models, key
        assert state.models[key] == history.models[key], key
        assert list(state.models[key].fields) == list(history.models[key].fields), key  # column order


def test_the_squashed_migrations_make_the_tables_their_histories_make_append_only(loader, squashed):
    for (app_label, _), migration in squashed.items():
        made = [op.model_name for op in migration.operations if isinstance(op, AppendOnly)]
        replaced = [loader.disk_migrations[key] for key in migration.replaces]
        wanted = [op.model_name for m in replaced for op in m.operations if isinstance(op, AppendOnly)]
        assert made == wanted, app_label
