"""FR baccara à deux tableaux: the bank and its banker segments."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from ledgers.core.models import GamingTable, TableSession

from .floats import MONEY


class BaccaraBank(models.Model):
    """FR baccara à deux tableaux (art. 71, COUNT-54): the mention "Baccara à banque limitée" or
    "Baccara à banque ouverte" the table's carnet modèle 11 bears. Append-only."""

    class Kind(models.TextChoices):
        LIMITED = "limitee", _("Baccara à banque limitée")
        OPEN = "ouverte", _("Baccara à banque ouverte")

    table = models.OneToOneField(GamingTable, on_delete=models.PROTECT, related_name="baccara_bank")
    kind = models.CharField(_("mention"), max_length=10, choices=Kind.choices)
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField(_("inscrite le"))

    class Meta:
        verbose_name = _("mention de la banque de baccara")
        verbose_name_plural = _("mentions des banques de baccara")

    def __str__(self) -> str:
        return f"{self.table.number} — {self.get_kind_display()}"


class BankerSegment(models.Model):
    """FR baccara à deux tableaux (art. 71, COUNT-54): the operations of one banker during a
    table-partie, headed by his name (col. 3; the croupiers and changeurs go to col. 3 bis), with the
    nomenclature of his somme en banque, chips and plaques only (art. 37, COUNT-27).
    Append-only: a segment ends where the next one starts."""

    table_session = models.ForeignKey(TableSession, on_delete=models.PROTECT, related_name="banker_segments")
    banker = models.CharField(_("banquier"), max_length=150)
    # Art. 37 (COUNT-27): the somme en banque of a cercle game holds only chips or plaques.
    bank = models.JSONField(_("somme en banque (nomenclature)"), default=list)
    bank_amount = models.DecimalField(_("somme en banque"), **MONEY, default=0)
    started_at = models.DateTimeField(_("début"))
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")

    class Meta:
        verbose_name = _("banquier de la séance")
        verbose_name_plural = _("banquiers de la séance")
        ordering = ["table_session", "started_at"]

    def __str__(self) -> str:
        return f"{self.table_session} — {self.banker}"
