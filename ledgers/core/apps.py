from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CoreConfig(AppConfig):
    name = "ledgers.core"
    label = "core"
    verbose_name = _("Établissements et organisation")

    def ready(self) -> None:
        # The séance closing check of the table-parties (REG-25), the open séances panel, the set-up imports.
        from . import dashboard, hooks, imports  # noqa: F401
        from .history import build_history_managers_once

        build_history_managers_once()
