import datetime

from django.conf import settings
from django.contrib.contenttypes.fields import GenericForeignKey
from django.contrib.contenttypes.models import ContentType
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy
from simple_history.models import HistoricalRecords

from ledgers.core.models import Establishment, Location, TableSession


class Supplier(models.Model):
    """A manufacturer or supplier, with its approval where the texts require one
    (FR: cards art. 39, dice 55-22, sabot models art. 58)."""

    establishment = models.ForeignKey(Establishment, on_delete=models.PROTECT, related_name="suppliers")
    domain = models.CharField(_("matériel"), max_length=20)
    name = models.CharField(_("raison sociale"), max_length=200)
    approval_reference = models.CharField(_("référence de l'agrément"), max_length=200, blank=True)
    approval_issuer = models.CharField(_("autorité d'agrément"), max_length=200, blank=True)
    approved_from = models.DateField(_("agréé du"), null=True, blank=True)
    approved_until = models.DateField(_("agréé jusqu'au"), null=True, blank=True)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("fournisseur")
        verbose_name_plural = _("fournisseurs")
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(fields=["establishment", "domain", "name"], name="supplier_unique"),
        ]

    def __str__(self) -> str:
        return self.name

    def approval_valid(self, on: datetime.date) -> bool:
        if not self.approval_reference:
            return False
        if self.approved_from and on < self.approved_from:
            return False
        return not (self.approved_until and on > self.approved_until)


class PurchaseOrder(models.Model):
    """A bon de commande (FR: taken from the carnet modèle 21 and visaed by the police before it
    is sent; MC: kept available for the SCJ visa)."""

    class Status(models.TextChoices):
        ISSUED = "issued", _("Établi")
        VISAED = "visaed", _("Visé")
        SENT = "sent", _("Envoyé")
        RECEIVED = "received", _("Reçu")

    establishment = models.ForeignKey(Establishment, on_delete=models.PROTECT, related_name="purchase_orders")
    domain = models.CharField(_("matériel"), max_length=20)
    supplier = models.ForeignKey(Supplier, on_delete=models.PROTECT, related_name="orders")
    carnet = models.CharField(_("carnet n°"), max_length=40, blank=True)
    number = models.PositiveIntegerField(_("bon n°"))
    # [{"category": str, "quantity": int}]
    lines = models.JSONField(_("lignes"))
    issued_at = models.DateTimeField(_("établi le"))
    issued_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    status = models.CharField(_("statut"), max_length=10, choices=Status.choices, default=Status.ISSUED)
    visa_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    visa_role = models.CharField(_("visé en qualité de"), max_length=30, blank=True)
    visa_at = models.DateTimeField(_("visé le"), null=True, blank=True)
    visa_statement = models.CharField(_("mention du visa"), max_length=300, blank=True)
    sent_at = models.DateTimeField(_("envoyé le"), null=True, blank=True)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("bon de commande")
        verbose_name_plural = _("bons de commande")
        ordering = ["-issued_at"]
        constraints = [
            models.UniqueConstraint(fields=["establishment", "domain", "carnet", "number"], name="order_number_unique"),
        ]

    def __str__(self) -> str:
        carnet = f"{self.carnet}/" if self.carnet else ""
        return f"{_('Bon de commande')} n° {carnet}{self.number}"

    @property
    def is_visaed(self) -> bool:
        return self.visa_at is not None

    def ordered_quantity(self, category: str) -> int:
        return sum(line["quantity"] for line in self.lines if line["category"] == category)


class ItemStatus(models.TextChoices):
    IN_STOCK = "in_stock", _("En dépôt")
    ISSUED = "issued", _("En service à une table")
    AWAITING_CONTROL = "awaiting_control", _("Rentré, en attente de contrôle")
    OUT_OF_USE = "out_of_use", _("Hors d'usage")
    MARKED = "marked", _("Marqué")
    DAMAGED = "damaged", _("Détérioré")
    DESTROYED = "destroyed", _("Détruit")
    NEUTRALISED = "neutralised", _("Neutralisé")
    RETURNED_TO_SUPPLIER = "returned_to_supplier", _("Retourné au fournisseur")


# Statuses of objects that await destruction; they may not be issued and (MC) not sit in annexes.
WITHDRAWN_STATUSES = frozenset({ItemStatus.OUT_OF_USE, ItemStatus.MARKED, ItemStatus.DAMAGED})
# Statuses after a definitive exit (an OUT entry of the intake register).
GONE_STATUSES = frozenset({ItemStatus.DESTROYED, ItemStatus.NEUTRALISED, ItemStatus.RETURNED_TO_SUPPLIER})


class TrackedItem(models.Model):
    """Base of every object kept in custody (card unit, die, shoe): one current place — a depot,
    a table session, or gone after a definitive exit."""

    establishment = models.ForeignKey(Establishment, on_delete=models.PROTECT, related_name="+")
    serial = models.CharField(_("numéro d'ordre"), max_length=60)
    supplier = models.ForeignKey(
        Supplier,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("fabricant / fournisseur"),
    )
    category = models.CharField(_("catégorie"), max_length=60)
    status = models.CharField(_("statut"), max_length=24, choices=ItemStatus.choices, default=ItemStatus.IN_STOCK)
    location = models.ForeignKey(
        Location, on_delete=models.PROTECT, null=True, blank=True, related_name="+", verbose_name=_("emplacement")
    )
    table_session = models.ForeignKey(
        TableSession,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("partie de table"),
    )
    purchase_order = models.ForeignKey(
        PurchaseOrder,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("bon de commande"),
    )
    received_at = models.DateTimeField(_("reçu le"))

    class Meta:
        abstract = True

    @property
    def place(self) -> str:
        if self.table_session_id:
            return str(self.table_session.table)
        return str(self.location) if self.location_id else str(self.get_status_display())


class DepotDay(models.Model):
    """The daily closing of the annex ledger for one depot (MC comptabilité annexe)."""

    establishment = models.ForeignKey(Establishment, on_delete=models.PROTECT, related_name="+")
    domain = models.CharField(_("matériel"), max_length=20)
    location = models.ForeignKey(Location, on_delete=models.PROTECT, related_name="depot_days")
    date = models.DateField(_("journée"))
    # {category: count}
    opening = models.JSONField(_("stock d'ouverture"))
    transfers_in = models.JSONField(pgettext_lazy("mouvements de stock", "entrées"))
    transfers_out = models.JSONField(_("sorties"))
    closing = models.JSONField(_("stock de clôture"))
    closed_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    closed_at = models.DateTimeField(_("arrêtée le"))

    class Meta:
        verbose_name = _("journée de dépôt")
        verbose_name_plural = _("journées de dépôt")
        ordering = ["-date"]
        constraints = [
            models.UniqueConstraint(fields=["domain", "location", "date"], name="depot_day_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.location} — {self.date:%d/%m/%Y}"


class DestructionSession(models.Model):
    """A destruction or neutralisation operation (REG-24): planned, notified to the authority
    beforehand where required, performed, and written as OUT entries of the intake registers."""

    class Method(models.TextChoices):
        DESTRUCTION = "destruction", _("Destruction")
        NEUTRALISATION = "neutralisation", _("Neutralisation")

    class Status(models.TextChoices):
        PLANNED = "planned", _("Prévue")
        COMPLETED = "completed", _("Effectuée")

    establishment = models.ForeignKey(Establishment, on_delete=models.PROTECT, related_name="destructions")
    domain = models.CharField(_("matériel"), max_length=20)
    method = models.CharField(_("mode"), max_length=16, choices=Method.choices)
    planned_at = models.DateTimeField(_("prévue le"))
    officer = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("responsable de la Direction"),
    )
    status = models.CharField(_("statut"), max_length=10, choices=Status.choices, default=Status.PLANNED)
    # Prior information of the authority (MC: SCJ, CARD-11 / DICE-07)
    notified_at = models.DateTimeField(_("autorité informée le"), null=True, blank=True)
    notice_channel = models.CharField(_("moyen d'information"), max_length=40, blank=True)
    notice_reference = models.CharField(_("référence de l'information"), max_length=200, blank=True)
    performed_at = models.DateTimeField(_("effectuée le"), null=True, blank=True)
    witness = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("en présence de"),
    )
    witness_role = models.CharField(_("qualité du témoin"), max_length=30, blank=True)
    # MC dice: the inspecteur in whose presence the operation takes place, who signs it (DICE-07)
    inspector = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("inspecteur présent"),
    )
    # Domain checks (completeness, marks, loaded or tampered dice…): {name: bool | str}
    checks = models.JSONField(_("constatations"), default=dict, blank=True)
    observations = models.TextField(_("observations"), blank=True)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("séance de destruction")
        verbose_name_plural = _("séances de destruction")
        ordering = ["-planned_at"]

    def __str__(self) -> str:
        return f"{self.get_method_display()} du {self.planned_at:%d/%m/%Y}"


class DestructionItem(models.Model):
    session = models.ForeignKey(DestructionSession, on_delete=models.PROTECT, related_name="items")
    content_type = models.ForeignKey(ContentType, on_delete=models.PROTECT)
    object_id = models.PositiveBigIntegerField()
    label = models.CharField(max_length=200)
    item = GenericForeignKey("content_type", "object_id")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["session", "content_type", "object_id"], name="destruction_item_unique"),
        ]

    def __str__(self) -> str:
        return self.label


class StockVerification(models.Model):
    """A verification of the stock by the authority, at any time and without notice
    (MC: SCJ, CARD-06 / DICE-05; FR: police, CARD-29)."""

    establishment = models.ForeignKey(Establishment, on_delete=models.PROTECT, related_name="+")
    domain = models.CharField(_("matériel"), max_length=20)
    verified_at = models.DateTimeField(_("vérifié le"))
    agent = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    agent_role = models.CharField(_("qualité"), max_length=30)
    opened_by = models.CharField(_("ouvert par (détenteur de la clé)"), max_length=200, blank=True)
    # [{"location": str, "category": str, "book": int, "located": int, "counted": int}]
    lines = models.JSONField(_("lignes"))
    discrepancy = models.BooleanField(_("écart constaté"), default=False)
    incident = models.ForeignKey(
        "incidents.Incident", on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    remarks = models.TextField(_("observations"), blank=True)

    class Meta:
        verbose_name = _("vérification du stock")
        verbose_name_plural = _("vérifications du stock")
        ordering = ["-verified_at"]

    def __str__(self) -> str:
        return f"{_('Vérification')} du {self.verified_at:%d/%m/%Y %H:%M}"
