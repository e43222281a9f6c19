from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RegistersConfig(AppConfig):
    name = "ledgers.registers"
    label = "registers"
    verbose_name = _("Registres")

    def ready(self) -> None:
        # The deploy check, the dashboard panels, the generic kinds and the séance acts' main courante lines.
        from . import checks, dashboard, hooks, kinds, written  # noqa: F401

        written.connect()  # every history row noted, for the next entry of its transaction to name
