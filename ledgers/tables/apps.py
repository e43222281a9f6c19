from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TablesConfig(AppConfig):
    name = "ledgers.tables"
    label = "tables"
    verbose_name = _("Personnel et limites des parties de table")

    def ready(self) -> None:
        # The register kind, the table opening check, the sections of the table-partie page.
        from . import hooks, registers  # noqa: F401
