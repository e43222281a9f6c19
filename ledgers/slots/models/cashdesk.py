"""The slot cash desk: change points, assignments, movements, counterfeits and validations."""

from decimal import Decimal

from django.db import models
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from ledgers.core.models import Establishment

from .machines import USER


class ChangePoint(models.Model):
    """A change point of the slot room (MC SLOT-21, FR SLOT-48): the slot cash desk (FR: it
    centralises the slot financial operations), a secondary desk, a change machine or an itinerant
    changer with a fixed sum; a desk's encaisse set composition in cash and chips (SLOT-49)."""

    class Kind(models.TextChoices):
        DESK = "desk", _("Caisse des machines à sous")
        SECONDARY = "secondary", _("Caisse secondaire")
        MACHINE = "machine", _("Machine de change")
        ITINERANT = "itinerant", _("Changeur itinérant")
        COMMON = "common", _("Caisse commune (jeux de table et machines à sous)")

    establishment = models.ForeignKey(Establishment, on_delete=models.PROTECT, related_name="+")
    kind = models.CharField(_("nature"), max_length=12, choices=Kind.choices)
    name = models.CharField(_("désignation"), max_length=100)
    cash = models.DecimalField(_("espèces de l'encaisse (€)"), max_digits=14, decimal_places=2, default=Decimal("0"))
    chips = models.DecimalField(_("jetons de l'encaisse (€)"), max_digits=14, decimal_places=2, default=Decimal("0"))
    fixed_sum = models.DecimalField(_("somme fixe (€)"), max_digits=14, decimal_places=2, null=True, blank=True)
    active = models.BooleanField(_("en service"), default=True)
    created_at = models.DateTimeField(_("créé le"))
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("point de change")
        verbose_name_plural = _("points de change")
        ordering = ["kind", "name"]
        constraints = [models.UniqueConstraint(fields=["establishment", "name"], name="slot_change_point_name")]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} — {self.name}"

    @property
    def encaisse(self) -> Decimal:
        return self.cash + self.chips


class ChangeAssignment(models.Model):
    """Who works a change point during a séance (MC SLOT-21: the itinerant changeur assigned; FR
    SLOT-48: the cashier named for the séance), with the encaisse at opening and, at the end, as
    counted before being restored (SLOT-49)."""

    class Status(models.TextChoices):
        OPEN = "open", _("En cours")
        CLOSED = "closed", _("Close")

    point = models.ForeignKey(ChangePoint, on_delete=models.PROTECT, related_name="assignments")
    seance = models.ForeignKey("core.Seance", on_delete=models.PROTECT, related_name="+", verbose_name=_("séance"))
    person = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+", verbose_name=_("affecté"))
    status = models.CharField(_("statut"), max_length=10, choices=Status.choices, default=Status.OPEN)
    opening_cash = models.DecimalField(_("espèces à l'ouverture (€)"), max_digits=14, decimal_places=2)
    opening_chips = models.DecimalField(_("jetons à l'ouverture (€)"), max_digits=14, decimal_places=2)
    closing_cash = models.DecimalField(
        _("espèces en fin de séance (€)"), max_digits=14, decimal_places=2, null=True, blank=True
    )
    closing_chips = models.DecimalField(
        _("jetons en fin de séance (€)"), max_digits=14, decimal_places=2, null=True, blank=True
    )
    opened_at = models.DateTimeField(_("ouverte le"))
    closed_at = models.DateTimeField(_("close le"), null=True, blank=True)
    assigned_by = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+")
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("affectation à un point de change")
        verbose_name_plural = _("affectations aux points de change")
        ordering = ["-opened_at"]
        constraints = [models.UniqueConstraint(fields=["point", "seance"], name="slot_change_assignment_once")]

    def __str__(self) -> str:
        return f"{self.point} — {self.seance}"


class ChangeMovement(models.Model):
    """A movement of a change point's encaisse during its séance: a change given to a player, or a
    restoring deposit (+) or withdrawal (−) of cash or chips with the caisse centrale or the
    plaques-and-chips deposit account (SLOT-49)."""

    class Kind(models.TextChoices):
        CHANGE = "change", _("Change")
        RESTORE = "restore", _("Reconstitution de l'encaisse")

    class Counterpart(models.TextChoices):
        CENTRAL = "central", _("Caisse centrale")
        CHIPS_ACCOUNT = "chips_account", _("Compte de dépôt de plaques et jetons")

    class Given(models.TextChoices):
        LEGAL_TENDER = "legal_tender", _("Monnaie ayant cours légal")
        CHIPS = "chips", _("Jetons de machine")
        CARD_CREDITS = "card_credits", _("Crédits sur carte maison")

    assignment = models.ForeignKey(ChangeAssignment, on_delete=models.PROTECT, related_name="movements")
    kind = models.CharField(_("nature"), max_length=10, choices=Kind.choices)
    amount = models.DecimalField(_("montant (€)"), max_digits=14, decimal_places=2, default=Decimal("0"))
    given = models.CharField(_("remis en"), max_length=15, choices=Given.choices, blank=True)
    cash = models.DecimalField(_("espèces (€)"), max_digits=14, decimal_places=2, default=Decimal("0"))
    chips = models.DecimalField(_("jetons (€)"), max_digits=14, decimal_places=2, default=Decimal("0"))
    counterpart = models.CharField(_("avec"), max_length=15, choices=Counterpart.choices, blank=True)
    # At a common desk, the account the operation is posted to: table games or slots (SLOT-26).
    account = models.CharField(
        _("comptabilité"),
        max_length=6,
        choices=[("table", _("Jeux de table")), ("slot", _("Machines à sous"))],
        blank=True,
    )
    recorded_at = models.DateTimeField(_("inscrit le"))
    recorded_by = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+")
    entry = models.ForeignKey("registers.Entry", on_delete=models.PROTECT, related_name="+")

    class Meta:
        verbose_name = _("mouvement de l'encaisse")
        verbose_name_plural = _("mouvements de l'encaisse")
        ordering = ["recorded_at", "pk"]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} — {self.cash + self.chips + self.amount} €"


class EncaisseJustification(models.Model):
    """The encaisse of a slot desk justified at a given time (SLOT-49) by the items the text lists;
    the open avance and payment bons are cash values until the next count."""

    assignment = models.ForeignKey(ChangeAssignment, on_delete=models.PROTECT, related_name="justifications")
    items = models.JSONField(_("pièces justificatives"))  # {item: "amount"}
    total = models.DecimalField(_("total justifié (€)"), max_digits=14, decimal_places=2)
    expected = models.DecimalField(_("encaisse (€)"), max_digits=14, decimal_places=2)
    difference = models.DecimalField(_("écart (€)"), max_digits=14, decimal_places=2)
    open_bons = models.DecimalField(_("bons en cours selon les carnets (€)"), max_digits=14, decimal_places=2)
    justified_at = models.DateTimeField(_("justifiée le"))
    justified_by = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+")
    entry = models.ForeignKey("registers.Entry", on_delete=models.PROTECT, related_name="+")

    class Meta:
        verbose_name = _("justification de l'encaisse")
        verbose_name_plural = _("justifications de l'encaisse")
        ordering = ["-justified_at"]

    def __str__(self) -> str:
        return f"{self.assignment} — {self.total} €"


class CounterfeitDestruction(models.Model):
    """The destruction of the counterfeit coins and foreign currency of the box, at the end of the
    financial year under the control of the comptable du Trésor, chef de poste (FR SLOT-45, AMB-48)."""

    establishment = models.ForeignKey(Establishment, on_delete=models.PROTECT, related_name="+")
    year_end = models.DateField(_("fin de l'exercice"))
    destroyed_at = models.DateTimeField(_("détruites le"))
    controller_name = models.CharField(_("comptable du Trésor, chef de poste"), max_length=200)
    recorded_by = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+")
    entry = models.ForeignKey("registers.Entry", on_delete=models.PROTECT, related_name="+")

    class Meta:
        verbose_name = _("destruction des fausses pièces")
        verbose_name_plural = _("destructions des fausses pièces")
        ordering = ["-destroyed_at"]

    def __str__(self) -> str:
        return f"{_('Destruction du')} {self.destroyed_at:%d/%m/%Y}"


class CounterfeitItem(models.Model):
    """A counterfeit coin or foreign currency found at a count, packaging or repair, put in the
    locked box kept at the cash desk; never exchanged (FR SLOT-45)."""

    class Kind(models.TextChoices):
        COUNTERFEIT = "counterfeit", _("Fausse pièce")
        FOREIGN = "foreign", _("Monnaie étrangère")

    class FoundDuring(models.TextChoices):
        COUNT = "count", _("Comptée")
        PACKAGING = "packaging", _("Conditionnement")
        REPAIR = "repair", _("Dépannage")

    establishment = models.ForeignKey(Establishment, on_delete=models.PROTECT, related_name="+")
    kind = models.CharField(_("nature"), max_length=12, choices=Kind.choices)
    description = models.CharField(_("description"), max_length=200)
    quantity = models.PositiveIntegerField(_("quantité"))
    found_during = models.CharField(_("trouvée lors de"), max_length=10, choices=FoundDuring.choices)
    found_at = models.DateTimeField(_("trouvée le"))
    found_by = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+", verbose_name=_("trouvée par"))
    deposited_by = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+", verbose_name=_("versée par"))
    # Set once, by the destruction (the only way out of the box).
    destruction = models.ForeignKey(
        CounterfeitDestruction, on_delete=models.PROTECT, null=True, blank=True, related_name="items"
    )
    entry = models.ForeignKey("registers.Entry", on_delete=models.PROTECT, related_name="+")
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("pièce du coffret des fausses pièces")
        verbose_name_plural = _("coffret des fausses pièces et monnaies étrangères")
        ordering = ["-found_at"]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} — {self.description} × {self.quantity}"


class CommonDeskValidation(models.Model):
    """The record behind a common cash desk (FR SLOT-26): the route (a: 75 machines or fewer; b: more,
    all on TITO or an approved cashless system), the contiguous table games, and the prior
    validation of the chief of the territorial judicial police service."""

    class Route(models.TextChoices):
        SMALL = "a", _("75 machines ou moins")
        CASHLESS = "b", _("Plus de 75 machines, toutes à tickets ou système monétique agréé")

    point = models.OneToOneField(ChangePoint, on_delete=models.PROTECT, related_name="common_validation")
    route = models.CharField(_("cas"), max_length=1, choices=Route.choices)
    machines = models.PositiveIntegerField(_("machines en exploitation"))
    contiguous_tables = models.BooleanField(_("jeux de table dans des lieux contigus"))
    validation_reference = models.CharField(_("référence de la validation"), max_length=100)
    validation_date = models.DateField(_("date de la validation"))
    validator_name = models.CharField(_("chef du service de police judiciaire"), max_length=200)
    recorded_at = models.DateTimeField(_("inscrite le"))
    recorded_by = models.ForeignKey(USER, on_delete=models.PROTECT, related_name="+")
    entry = models.ForeignKey("registers.Entry", on_delete=models.PROTECT, related_name="+")

    class Meta:
        verbose_name = _("validation de la caisse commune")
        verbose_name_plural = _("validations de caisses communes")

    def __str__(self) -> str:
        return f"{self.point} — {self.validation_reference}"
