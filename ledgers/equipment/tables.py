import django_tables2 as tables
from django.utils.translation import gettext_lazy as _

from ledgers.core.templatetags.ledgers import person
from ledgers.custody.tables import DestructionSessionTable
from ledgers.registers.services import display_name

from .models import ApprovedModel, LaunchTurn, Shoe, ShoeAllocation, Shuffler, Wheel, WheelCheck


class FlagsColumn(tables.Column):
    """The flags a record raised (allowed, but reported), with their requirement IDs."""

    def __init__(self, **kwargs) -> None:
        super().__init__(verbose_name=_("Signalements"), orderable=False, **kwargs)

    def render(self, value):
        return " ; ".join(f"{flag['code']} : {flag['text']}" for flag in value)


class ApprovedModelTable(tables.Table):
    class Meta:
        model = ApprovedModel
        fields = ("kind", "manufacturer", "name", "approval_reference", "approval_issuer", "approved_on")
        empty_text = _("Aucun modèle enregistré.")


class ShoeTable(tables.Table):
    serial = tables.LinkColumn("equipment:shoe_detail", args=[tables.A("pk")], verbose_name=_("Sabot n°"))
    place = tables.Column(verbose_name=_("Où"), orderable=False)

    class Meta:
        model = Shoe
        fields = ("serial", "model", "maker_serial", "status", "place", "received_at")
        empty_text = _("Aucun sabot.")


class AllocationTable(tables.Table):
    seance = tables.Column(accessor="table_session__seance", verbose_name=_("Séance"), orderable=False)
    table = tables.Column(accessor="table_session__table", verbose_name=_("Table"), orderable=False)
    shoe = tables.Column(verbose_name=_("Sabot"))
    flags = FlagsColumn()

    class Meta:
        model = ShoeAllocation
        fields = ("allocated_at", "seance", "table", "shoe", "allocated_by", "flags")
        empty_text = _("Aucune affectation.")

    def render_allocated_by(self, record, value):
        return person(value, record.role)


class ShufflerTable(tables.Table):
    number = tables.LinkColumn("equipment:shuffler_detail", args=[tables.A("pk")], verbose_name=_("N°"))
    socle = tables.Column(verbose_name=_("Socle"))

    class Meta:
        model = Shuffler
        fields = ("number", "machine_type", "model", "serial", "status", "socle", "embout")
        empty_text = _("Aucun mélangeur.")


class WheelTable(tables.Table):
    number = tables.LinkColumn("equipment:wheel_detail", args=[tables.A("pk")], verbose_name=_("N°"))

    class Meta:
        model = Wheel
        fields = ("number", "kind", "serial", "status", "table")
        empty_text = _("Aucun cylindre ni roue.")


class WheelCheckTable(tables.Table):
    seance = tables.Column(accessor="table_session__seance", verbose_name=_("Séance"), orderable=False)
    wheel = tables.Column(verbose_name=_("Cylindre ou roue"))
    signer = tables.Column(verbose_name=_("Signataire"))
    cosigner = tables.Column(verbose_name=_("Cosignataire"))

    class Meta:
        model = WheelCheck
        fields = ("checked_at", "seance", "wheel", "passed", "signer", "cosigner", "observations", "incident")
        empty_text = _("Aucune vérification.")

    def render_signer(self, value):
        return display_name(value)

    def render_cosigner(self, value):
        return display_name(value)


class LaunchTurnTable(tables.Table):
    launcher = tables.Column(verbose_name=_("Lanceur"))
    recorded_by = tables.Column(verbose_name=_("Inscrit par"))
    flags = FlagsColumn()

    class Meta:
        model = LaunchTurn
        fields = ("started_at", "launcher", "recorded_by", "observations", "flags")
        orderable = False
        empty_text = _("Aucun lanceur inscrit pour cette partie.")

    def render_launcher(self, value):
        return display_name(value)

    def render_recorded_by(self, value):
        return display_name(value)


class ExceptionTable(tables.Table):
    """Equipment flags: allowed, but reported to inspectors and authorities."""

    at = tables.DateTimeColumn(verbose_name=_("Date et heure"))
    code = tables.Column(verbose_name=_("Exigence"))
    article = tables.Column(verbose_name=_("Article"))
    table = tables.Column(accessor="session__table", verbose_name=_("Table"))
    seance = tables.Column(accessor="session__seance", verbose_name=_("Séance"))
    subject = tables.Column(verbose_name=_("Objet"))
    text = tables.Column(verbose_name=_("Signalement"))

    class Meta:
        orderable = False
        empty_text = _("Aucun signalement.")


class DestructionTable(DestructionSessionTable):
    items = tables.Column(accessor="pk", verbose_name=_("Sabots"), orderable=False)
    actions = tables.TemplateColumn(
        template_name="equipment/_destruction_actions.html",
        verbose_name="",
        orderable=False,
        exclude_from_export=True,
    )
