"""The operation that makes the squashed migrations fast on a new database.

Django keeps a rendered copy of every model while it migrates, and each ``CreateModel`` re-renders
every model related to the new one, recursively: through the user and establishment foreign keys
that is nearly all of them, so creating N models one by one costs about N²/2 model renders.
``CreateModels`` applies a list of ``CreateModel`` operations as one: their model states go in
together and the related models are re-rendered once. The schema it creates is the one the
``CreateModel`` operations create one by one (scripts/squash_migrations.py, docs/operations.md).
"""

from django.db.migrations.operations import CreateModel
from django.db.migrations.operations.base import Operation


class CreateModels(Operation):
    reversible = True
    reduces_to_sql = True

    def __init__(self, operations: list[CreateModel]) -> None:
        self.operations = operations

    def deconstruct(self):
        return (self.__class__.__qualname__, [self.operations], {})

    def state_forwards(self, app_label, state):
        # ProjectState caches its rendered models in __dict__["apps"] and re-renders on each
        # add_model only while they are there (state.py checks exactly that): set them aside for
        # the additions, then reload all the new models in one pass.
        rendered = state.__dict__.pop("apps", None)
        for operation in self.operations:
            operation.state_forwards(app_label, state)
        if rendered is not None:
            state.apps = rendered
            state.reload_models([(app_label, op.name_lower) for op in self.operations], delay=False)

    def database_forwards(self, app_label, schema_editor, from_state, to_state):
        # Foreign keys between the new tables are added after all of them (PostgreSQL: deferred
        # SQL; SQLite: references to tables created later are allowed), so the order is free.
        for operation in self.operations:
            operation.database_forwards(app_label, schema_editor, from_state, to_state)

    def database_backwards(self, app_label, schema_editor, from_state, to_state):
        for operation in reversed(self.operations):
            operation.database_backwards(app_label, schema_editor, from_state, to_state)

    def references_model(self, name, app_label):
        return any(operation.references_model(name, app_label) for operation in self.operations)

    def describe(self):
        return f"Create {len(self.operations)} models"

    @property
    def migration_name_fragment(self):
        return "models"
