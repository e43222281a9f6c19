from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ReportsConfig(AppConfig):
    name = "ledgers.reports"
    label = "reports"
    verbose_name = _("Rapports")

    def ready(self) -> None:
        from . import sections  # noqa: F401  (the daily report's own sections)
