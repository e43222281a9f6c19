from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RegistersConfig(AppConfig):
    name = "ledgers.registers"
    label = "registers"
    verbose_name = _("Registres")

    def ready(self) -> None:
        # The deploy check, the generic kinds and the séance acts' main courante lines.
        from django.db.models.signals import post_save

        from . import checks, hooks, kinds, written  # noqa: F401
        from .models import Register
        from .selectors import registers_forget

        written.connect()  # every history row noted, for the next entry of its transaction to name
        post_save.connect(registers_forget, sender=Register, dispatch_uid="ledgers.registers.forget")
