"""Write, for each of the given apps, one migration that replaces its whole migration history.

Usage: python scripts/squash_migrations.py APP [APP ...]

Django's ``squashmigrations`` cannot fold these histories: its optimizer moves nothing across an
index or constraint operation, nor across a custom operation, so it keeps nearly every operation.
This writes the squash from the project state at the end of the history instead:

- one ``CreateModels`` (ledgers.core.squash) with every model of the app, its fields in the order
  of the columns the history leaves (``ModelState.fields`` is in the order fields were added), its
  indexes and constraints in its options;
- the ``AppendOnly`` operations in their original order, then the fields the history added to an
  append-only model after its ``AppendOnly`` (they come after the ``ledgers_txid`` column that
  ``AppendOnly`` adds), with that model's indexes and constraints after them;
- the history's ``RunPython`` operations that are not elidable, after the ``AppendOnly`` ones.
  ``StampTransactions`` is left out: on a new database each ``AppendOnly`` stamps its own table.

The dependencies are those of the history on other apps, the latest one per app. The file is
``<app>/migrations/0001_squashed_<last>.py`` with ``replaces`` naming the whole history.
"""

import os
import sys
from pathlib import Path

import django

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino_compliance.settings")
django.setup()

from django.apps import apps  # noqa: E402
from django.conf import settings  # noqa: E402
from django.db import migrations  # noqa: E402
from django.db.migrations.loader import MigrationLoader  # noqa: E402
from django.db.migrations.migration import SwappableTuple  # noqa: E402
from django.db.migrations.writer import MigrationWriter  # noqa: E402

from ledgers.core.db import AppendOnly, StampTransactions  # noqa: E402
from ledgers.core.squash import CreateModels  # noqa: E402

STATE_OPERATIONS = (
    migrations.CreateModel,
    migrations.AddField,
    migrations.AlterField,
    migrations.AddIndex,
    migrations.AddConstraint,
    migrations.RemoveConstraint,
    migrations.AlterModelOptions,
)


def squash(loader: MigrationLoader, app_label: str) -> Path:
    (leaf,) = loader.graph.leaf_nodes(app_label)
    history = [key for key in loader.graph.forwards_plan(leaf) if key[0] == app_label]
    state = loader.project_state(leaf)

    created: list[str] = []  # model names in the order the history creates them
    append_only: list[AppendOnly] = []
    late: list[tuple[str, str]] = []  # (model, field) added after the model's AppendOnly
    run_python: list[migrations.RunPython] = []
    external: dict[str, list[tuple[str, str]]] = {}  # app: the history's dependencies on it
    for key in history:
        migration = loader.graph.nodes[key]
        for dependency in migration.dependencies:
            if dependency[0] != app_label:
                external.setdefault(dependency[0], []).append(dependency)
        for operation in migration.operations:
            if isinstance(operation, migrations.CreateModel):
                created.append(operation.name_lower)
            elif isinstance(operation, AppendOnly):
                append_only.append(operation)
            elif isinstance(operation, migrations.AddField):
                if any(op.model_name.lower() == operation.model_name_lower for op in append_only):
                    late.append((operation.model_name_lower, operation.name))
            elif isinstance(operation, migrations.RunPython):
                if not operation.elidable:
                    run_python.append(operation)
            elif not isinstance(operation, (*STATE_OPERATIONS, StampTransactions)):
                raise ValueError(f"{key}: no rule to squash {operation.describe()}")

    creates, trailing = [], []
    late_models = {model for model, _ in late}
    for name in created:
        model = state.models[app_label, name]
        options = {key: value for key, value in model.options.items() if value != []}
        if name in late_models:  # created once its late columns exist
            trailing += [migrations.AddIndex(model.name, index) for index in options.pop("indexes", [])]
            trailing += [
                migrations.AddConstraint(model.name, constraint) for constraint in options.pop("constraints", [])
            ]
        fields = [(field_name, field) for field_name, field in model.fields.items() if (name, field_name) not in late]
        creates.append(
            migrations.CreateModel(model.name, fields, options=options, bases=model.bases, managers=model.managers)
        )
    added = [
        migrations.AddField(state.models[app_label, model].name, field, state.models[app_label, model].fields[field])
        for model, field in late
    ]

    # The latest dependency on each app (the others precede it); a swappable one stays swappable.
    dependencies = []
    for dep_app, deps in sorted(external.items()):
        (dep_leaf,) = loader.graph.leaf_nodes(dep_app)
        order = ["__first__"] + [key[1] for key in loader.graph.forwards_plan(dep_leaf) if key[0] == dep_app]
        latest = max(deps, key=lambda dependency: order.index(dependency[1]))
        if isinstance(latest, SwappableTuple):  # its setting holds the model, not the setting's name
            assert latest.setting == settings.AUTH_USER_MODEL, latest
            latest = ("__setting__", "AUTH_USER_MODEL")
        dependencies.append(latest)

    migration = migrations.Migration(f"0001_squashed_{leaf[1]}", app_label)
    migration.initial = True
    migration.replaces = history
    migration.dependencies = dependencies
    migration.operations = [CreateModels(creates), *append_only, *added, *trailing, *run_python]
    writer = MigrationWriter(migration)
    Path(writer.path).write_text(writer.as_string())
    return Path(writer.path)


def main(app_labels: list[str]) -> None:
    loader = MigrationLoader(None, ignore_no_migrations=True)
    for app_label in app_labels:
        apps.get_app_config(app_label)
        print(squash(loader, app_label))


if __name__ == "__main__":
    main(sys.argv[1:])
