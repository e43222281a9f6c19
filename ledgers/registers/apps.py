from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RegistersConfig(AppConfig):
    name = "ledgers.registers"
    label = "registers"
    verbose_name = _("Registres")

    def ready(self) -> None:
        from . import dashboard, kinds  # noqa: F401  (declare the generic kinds and the dashboard panels)
