"""Floats (avances) of the tables, their cash boxes and who holds them."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from ledgers.core.models import GamingTable, TableSession

MONEY = {"max_digits": 14, "decimal_places": 2}


class TableFloat(models.Model):
    """A float given to a table-partie: MC the somme mise en banque (COUNT-01), FR the avance and
    its top-ups (COUNT-12, COUNT-33, COUNT-34). Append-only: a float is never changed."""

    class Kind(models.TextChoices):
        INITIAL = "initial", _("Avance initiale")
        TOP_UP = "top_up", _("Avance complémentaire")

    table_session = models.ForeignKey(TableSession, on_delete=models.PROTECT, related_name="floats")
    kind = models.CharField(_("nature"), max_length=10, choices=Kind.choices)
    amount = models.DecimalField(_("montant"), **MONEY)
    breakdown = models.JSONField(_("nomenclature"))
    # FR: multiple × minimum stake practised (COUNT-12); MC: the amount fixed by the Direction (COUNT-01).
    required = models.DecimalField(_("montant requis"), **MONEY)
    box_number = models.CharField(_("caisse n°"), max_length=20)
    transport_box = models.CharField(_("boîte de transport"), max_length=40, blank=True)
    counted_by = models.CharField(_("compté par (croupier)"), max_length=150, blank=True)
    called_aloud = models.BooleanField(_("annoncé à haute voix"), default=False)
    carry_note = models.TextField(_("écart avec la comptée précédente"), blank=True)
    recorded_at = models.DateTimeField(_("inscrit le"))
    signed_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    signed_role = models.CharField(_("qualité"), max_length=30)
    received_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    flags = models.JSONField(_("signalements"), default=list, blank=True)
    # FR boule, vingt-trois, roue de la chance: the carnet stays on the table (art. 43, COUNT-14)
    carnet_on_table = models.BooleanField(_("carnet posé sur la table"), default=False)

    class Meta:
        verbose_name = _("avance de table")
        verbose_name_plural = _("avances de table")
        ordering = ["recorded_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["table_session"], condition=models.Q(kind="initial"), name="one_initial_float_per_session"
            )
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} — {self.table_session}"


class TableBox(models.Model):
    """FR art. 49: the metal chip-and-banknote box built into a contrepartie table, closed by a
    shutter that locks with a key, and the locking banknote coffret inside it when the table
    accepts banknotes (COUNT-37). Append-only: a replaced box is a new record, the latest counts."""

    table = models.ForeignKey(GamingTable, on_delete=models.PROTECT, related_name="cash_boxes")
    box_id = models.CharField(_("caisse incorporée n°"), max_length=40)
    key_reference = models.CharField(_("clé du volet"), max_length=40)
    banknotes_accepted = models.BooleanField(_("billets acceptés à la table"), default=False)
    coffret_id = models.CharField(_("coffret à billets n°"), max_length=40, blank=True)
    coffret_key_reference = models.CharField(_("clé du coffret"), max_length=40, blank=True)
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField(_("inscrite le"))

    class Meta:
        verbose_name = _("caisse incorporée à la table")
        verbose_name_plural = _("caisses incorporées aux tables")
        ordering = ["table", "-recorded_at"]

    def __str__(self) -> str:
        return f"{self.table.number} — {self.box_id}"


class BoxHolderDesignation(models.Model):
    """FR art. 42 as amended: where a contrepartie table has no chef de table, the gaming employee
    in charge of its cash box, designated for the table-partie, acts for the box and its carnet
    d'avances (COUNT-13). Append-only."""

    table_session = models.ForeignKey(TableSession, on_delete=models.PROTECT, related_name="box_holders")
    employee = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    designated_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    designated_at = models.DateTimeField(_("désigné le"))

    class Meta:
        verbose_name = _("désignation de l'employé chargé de la caisse")
        verbose_name_plural = _("désignations des employés chargés de la caisse")
        constraints = [models.UniqueConstraint(fields=["table_session"], name="one_box_holder_per_session")]

    def __str__(self) -> str:
        return str(self.table_session)
