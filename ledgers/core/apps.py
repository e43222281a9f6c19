from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CoreConfig(AppConfig):
    name = "ledgers.core"
    label = "core"
    verbose_name = _("Établissements et organisation")

    def ready(self) -> None:
        # The séance closing check of the table-parties (REG-25), the set-up imports.
        from django.contrib.auth.signals import user_logged_in

        from . import hooks, imports  # noqa: F401
        from .history import build_history_managers_once
        from .signin import note_password_to_set

        # An account whose password is still to be chosen by its owner is held on that page.
        user_logged_in.connect(note_password_to_set, dispatch_uid="ledgers.core.signin")

        build_history_managers_once()
