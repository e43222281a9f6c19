from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SignaturesConfig(AppConfig):
    name = "ledgers.signatures"
    verbose_name = _("Signatures")
    default_auto_field = "django.db.models.BigAutoField"
