"""The certified monthly statement the domain apps keep, each in its own table."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from .models import Establishment


class CertifiedMonthlyStatement(models.Model):
    """A month's statement of the fleet, one line per machine, certified by two persons of whom a
    comité member; written once per establishment and month, with its register entry."""

    establishment = models.ForeignKey(Establishment, on_delete=models.PROTECT, related_name="+")
    year = models.PositiveSmallIntegerField(_("année"))
    month = models.PositiveSmallIntegerField(_("mois"))
    lines = models.JSONField(_("lignes"))
    comite = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("membre du comité de direction"),
    )
    certified_at = models.DateTimeField(_("certifié le"))
    entry = models.ForeignKey("registers.Entry", on_delete=models.PROTECT, related_name="+")

    class Meta:
        abstract = True
        ordering = ["establishment", "-year", "-month"]

    def __str__(self) -> str:
        return f"{self.month:02d}/{self.year}"
