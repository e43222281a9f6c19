from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RegistersConfig(AppConfig):
    name = "ledgers.registers"
    label = "registers"
    verbose_name = _("Registres")

    def ready(self) -> None:
        from . import checks, dashboard, kinds, written  # noqa: F401  (the deploy check, the generic kinds, the dashboard panels)

        written.connect()  # every history row noted, for the next entry of its transaction to name
