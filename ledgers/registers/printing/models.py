"""The print history of register volumes and the authority's paraphe of a volume (REG-21).

Both tables are append-only (triggers installed by the migrations): a print or a paraphe, once
recorded, stays as it was.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ledgers.registers.models import Register


class VolumeState(models.Model):
    """A volume of a register as printed: which one, up to which entry, in which language, on
    how many pages."""

    register = models.ForeignKey(
        Register, on_delete=models.PROTECT, related_name="%(class)ss", verbose_name=_("registre")
    )
    volume = models.PositiveIntegerField(_("tome"))
    last_seq = models.PositiveIntegerField(_("dernière entrée"))
    lang = models.CharField(_("langue"), max_length=8)
    pages = models.PositiveIntegerField(_("pages"))

    class Meta:
        abstract = True


class VolumePrint(VolumeState):
    """One print of a register volume. The first print of a volume's state (its last entry, in a
    language) is the original; any later print of that state is a duplicate, watermarked
    "DUPLICATA". ``digest``: SHA-256 of the file printed, so that a copy can be checked."""

    duplicate = models.BooleanField(_("duplicata"), default=False)
    digest = models.CharField(_("empreinte du fichier"), max_length=64)
    printed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("imprimé par"),
    )
    printed_at = models.DateTimeField(_("imprimé le"), default=timezone.now)

    class Meta:
        verbose_name = _("impression de tome")
        verbose_name_plural = _("impressions de tomes")
        ordering = ["register", "volume", "printed_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["register", "volume", "last_seq", "lang"],
                condition=Q(duplicate=False),
                name="volume_print_one_original",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.register_id} t. {self.volume} ({self.last_seq}, {self.lang})"


class VolumeParaphe(VolumeState):
    """The authority's paraphe of a volume whose pages are all written: its page count and the
    digest of each of its pages are frozen; a later print that differs is refused (REG-21)."""

    page_digests = models.JSONField(_("empreintes des pages"))
    authority = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("autorité")
    )
    role = models.CharField(_("qualité"), max_length=40)
    paraphe = models.CharField(_("paraphe"), max_length=20)
    paraphed_at = models.DateTimeField(_("paraphé le"), default=timezone.now)

    class Meta:
        verbose_name = _("paraphe de tome")
        verbose_name_plural = _("paraphes de tomes")
        constraints = [models.UniqueConstraint(fields=["register", "volume"], name="volume_paraphe_once")]

    def __str__(self) -> str:
        return f"{self.register_id} t. {self.volume} : {self.pages} p."


class VolumeBoundary(models.Model):
    """Where a complete volume of a register's layout ends, stored the first time a layout
    completes it: its entries (first to last, with the last one's hash), its page count, and how
    many blocks of the next entry it already printed (a tall entry may run over the cut). The
    next volume is laid out from there, without the entries before it, so that printing the
    volume in use costs that volume whatever the register's history. A complete volume's cut is
    final: it is stored once and never moves."""

    register = models.ForeignKey(
        Register, on_delete=models.PROTECT, related_name="volume_boundaries", verbose_name=_("registre")
    )
    lang = models.CharField(_("langue"), max_length=8)
    volume = models.PositiveIntegerField(_("tome"))
    first_seq = models.PositiveBigIntegerField(_("première entrée"))
    last_seq = models.PositiveBigIntegerField(_("dernière entrée"))
    last_hash = models.CharField(_("empreinte de la dernière entrée"), max_length=64)
    pages = models.PositiveIntegerField(_("pages"))
    carried = models.PositiveIntegerField(_("blocs de l'entrée suivante déjà imprimés"), default=0)

    class Meta:
        verbose_name = _("limites de tome")
        verbose_name_plural = _("limites de tomes")
        ordering = ["register", "lang", "volume"]
        constraints = [models.UniqueConstraint(fields=["register", "lang", "volume"], name="volume_boundary_once")]

    def __str__(self) -> str:
        return f"{self.register_id} t. {self.volume} ({self.first_seq}–{self.last_seq}, {self.lang})"
