"""Card units and what happens to them at the tables.

A sixain (6 decks) or huitain (8 decks) is received and counted in stock as one unit; its decks
are units too (``parent``), each with its own numéro d'ordre and back colour. The decks follow
their sixain (status, table) except when one is issued on its own to a one-deck game (AMB-59):
then it has its own table session until it is returned to its sixain.
"""

from collections import Counter

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from ledgers.core.models import Establishment, Room, Seance, TableSession
from ledgers.custody.models import TrackedItem


class UnitType(models.TextChoices):
    DECK = "jeu", _("Jeu de 52 cartes")
    SIXAIN = "sixain", _("Sixain")
    HUITAIN = "huitain", _("Huitain")


DECKS_IN = {UnitType.DECK: 1, UnitType.SIXAIN: 6, UnitType.HUITAIN: 8}


class Category(models.TextChoices):
    """The categories of cards of the intake registers (one MC register per category, CARD-04):
    the unit in which cards are received and counted."""

    SIXAIN = "sixain", _("Sixains (jeux de 52 cartes)")
    HUITAIN = "huitain", _("Huitains (jeux de 52 cartes)")
    DECK = "jeu", _("Jeux de 52 cartes à l'unité")


class Condition(models.TextChoices):
    PERFECT = "parfait", _("En parfait état")
    IMPERFECT = "imparfait", _("N'est plus en parfait état")


class Anomaly(models.TextChoices):
    """Card anomalies to report at once (CARD-19 / INC-02, CARD-38 / INC-13)."""

    MISSING = "missing", _("Carte manquante")
    SURPLUS = "surplus", _("Carte en surnombre")
    MARKED = "marked", _("Carte marquée")
    FOREIGN = "foreign", _("Carte paraissant étrangère au jeu")


class ShuffleMethod(models.TextChoices):
    """How a prêt-à-l'emploi deck is pre-shuffled at the DCC (CARD-20)."""

    HAND = "hand", _("À la main")
    SHUFFLER = "shuffler", _("Au mélangeur")


class CardUnit(TrackedItem):
    unit_type = models.CharField(_("type d'unité"), max_length=10, choices=UnitType.choices)
    parent = models.ForeignKey(
        "self",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="members",
        verbose_name=_("sixain ou huitain d'appartenance"),
    )
    position = models.PositiveSmallIntegerField(_("rang dans le sixain"), null=True, blank=True)
    back_colour = models.CharField(_("couleur du dos"), max_length=30, blank=True)
    plain_back = models.BooleanField(_("tarotage à teinte unie"), default=True)
    design = models.CharField(_("modèle / marque"), max_length=100, blank=True)
    hidden_mark = models.BooleanField(_("marque indécelable à l'œil nu"), default=False)
    hidden_mark_description = models.CharField(_("description de la marque"), max_length=200, blank=True)
    is_new = models.BooleanField(_("neuf (sous bande de contrôle)"), default=True)
    condition = models.CharField(_("état"), max_length=10, choices=Condition.choices, default=Condition.PERFECT)
    complete = models.BooleanField(_("complet"), default=True)
    completeness_checked_at = models.DateTimeField(_("complétude vérifiée le"), null=True, blank=True)
    completeness_checked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("complétude vérifiée par"),
    )
    pae = models.BooleanField(_("prêt à l'emploi"), default=False)
    contains_exchanged_card = models.BooleanField(_("contient une carte échangée"), default=False)
    internal_serial = models.BooleanField(_("numéro interne (sans numéro du fabricant)"), default=False)
    withdrawn_at = models.DateTimeField(_("retiré le"), null=True, blank=True)
    withdrawal_reason = models.CharField(_("motif du retrait"), max_length=300, blank=True)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("unité de cartes")
        verbose_name_plural = _("unités de cartes")
        ordering = ["serial"]
        constraints = [
            # CARD-02 / CARD-26: a numéro d'ordre is unique for its manufacturer
            models.UniqueConstraint(fields=["establishment", "supplier", "serial"], name="card_unit_serial_unique"),
        ]
        indexes = [models.Index(fields=["establishment", "status"])]

    def __str__(self) -> str:
        return f"{self.get_unit_type_display()} n° {self.serial}"

    @property
    def deck_count(self) -> int:
        return DECKS_IN[self.unit_type]

    def decks(self) -> list["CardUnit"]:
        """The 52-card decks of this unit (itself when it is a deck)."""
        if self.unit_type == UnitType.DECK:
            return [self]
        return sorted(self.members.all(), key=lambda deck: deck.position or 0)  # the prefetched decks if any

    def colours(self) -> list[int]:
        """How many decks of each back colour, largest first: [3, 3] for a 3 + 3 sixain."""
        return sorted(Counter(d.back_colour.strip().lower() for d in self.decks()).values(), reverse=True)

    @property
    def top(self) -> "CardUnit":
        """The unit counted in stock: the sixain of a deck, or the unit itself."""
        return self.parent if self.parent_id else self


class CardEvent(models.Model):
    """One act on one unit (or on a table), written with its register entry; append-only.
    Kept as rows so that the checks (second control done, control after the last return…) are
    queries, while the register entry is the legal record."""

    class Kind(models.TextChoices):
        ISSUE = "issue", _("Sortie pour une table")
        UNSEALING = "unsealing", _("Décachetage à table")
        FIRST_CONTROL = "first_control", _("Premier contrôle (cartier)")
        SECOND_CONTROL = "second_control", _("Contrôle à table (comptée et vérification)")
        PAE_PREPARATION = "pae_preparation", _("Préparation prêt à l'emploi (DCC)")
        PAE_CONFIRMATION = "pae_confirmation", _("Second brassage et second mélange (PAE)")
        POST_CONTROL = "post_control", _("Contrôle après la partie")
        RETURN = "return", _("Rentrée au dépôt")
        WITHDRAWAL = "withdrawal", _("Retrait (hors d'usage, marqué, détérioré)")
        EXCHANGE = "exchange", _("Échange d'une carte détériorée")
        RECONCILIATION = "reconciliation", _("Rapprochement des cartes échangées")
        ANOMALY = "anomaly", _("Anomalie signalée")
        RESHUFFLE = "reshuffle", _("Nouveau mélange en cours de taille")
        DESIGNATION = "designation", _("Désignation du sixain de remplacement")

    establishment = models.ForeignKey(Establishment, on_delete=models.PROTECT, related_name="+")
    kind = models.CharField(_("opération"), max_length=20, choices=Kind.choices)
    unit = models.ForeignKey(
        CardUnit, on_delete=models.PROTECT, null=True, blank=True, related_name="events", verbose_name=_("unité")
    )
    table_session = models.ForeignKey(
        TableSession,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("partie de table"),
    )
    at = models.DateTimeField(_("le"))
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    role = models.CharField(_("rôle"), max_length=30)
    ok = models.BooleanField(_("conforme"), null=True)
    details = models.JSONField(_("constatations"), default=dict, blank=True)
    # Exceptions (FLAG checks): [{"code": "CARD-16", "text": "…"}]
    flags = models.JSONField(_("exceptions"), default=list, blank=True)
    entry = models.ForeignKey("registers.Entry", on_delete=models.PROTECT, related_name="+")

    class Meta:
        verbose_name = _("opération sur les cartes")
        verbose_name_plural = _("opérations sur les cartes")
        ordering = ["at", "pk"]
        indexes = [
            models.Index(fields=["unit", "kind", "at"]),
            models.Index(fields=["table_session", "kind"]),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} — {self.unit or self.table_session}"


class ReplacementSixain(models.Model):
    """The sixain kept for replacing damaged cards in one room during one séance (CARD-16)."""

    seance = models.ForeignKey(Seance, on_delete=models.PROTECT, related_name="+")
    room = models.ForeignKey(Room, on_delete=models.PROTECT, related_name="+")
    unit = models.ForeignKey(CardUnit, on_delete=models.PROTECT, related_name="+", verbose_name=_("sixain"))
    designated_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    designated_at = models.DateTimeField(_("désigné le"))

    class Meta:
        verbose_name = _("sixain de remplacement")
        verbose_name_plural = _("sixains de remplacement")
        constraints = [models.UniqueConstraint(fields=["seance", "room"], name="replacement_sixain_unique")]

    def __str__(self) -> str:
        return f"{self.unit} — {self.room} — {self.seance}"


class CardExchange(models.Model):
    """A damaged card replaced at the table by an inspecteur with a card of the replacement
    sixain (CARD-16); reconciled afterwards by the cartier."""

    establishment = models.ForeignKey(Establishment, on_delete=models.PROTECT, related_name="+")
    table_session = models.ForeignKey(
        TableSession, on_delete=models.PROTECT, related_name="+", verbose_name=_("partie de table")
    )
    table_unit = models.ForeignKey(
        CardUnit, on_delete=models.PROTECT, related_name="+", verbose_name=_("jeu de la table")
    )
    replacement_unit = models.ForeignKey(
        CardUnit, on_delete=models.PROTECT, related_name="+", verbose_name=_("jeu de remplacement")
    )
    card = models.CharField(_("carte (rang et couleur)"), max_length=40)
    croupier = models.CharField(_("croupier"), max_length=150)
    inspecteur = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    exchanged_at = models.DateTimeField(_("échangée le"))
    reconciled_at = models.DateTimeField(_("rapprochée le"), null=True, blank=True)
    reconciled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    reconciliation = models.CharField(_("rapprochement"), max_length=300, blank=True)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("échange de carte détériorée")
        verbose_name_plural = _("échanges de cartes détériorées")
        ordering = ["-exchanged_at"]

    def __str__(self) -> str:
        return f"{self.card} — {self.table_unit} ← {self.replacement_unit}"
