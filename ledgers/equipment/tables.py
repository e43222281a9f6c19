import django_tables2 as tables
from django.utils.translation import gettext_lazy as _

from .models import ApprovedModel, Shoe, ShoeAllocation, Shuffler, Wheel, WheelCheck


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
    flags = tables.Column(verbose_name=_("Signalements"), orderable=False)

    class Meta:
        model = ShoeAllocation
        fields = ("allocated_at", "seance", "table", "shoe", "allocated_by", "role", "flags")
        empty_text = _("Aucune affectation.")

    def render_flags(self, value):
        return " ; ".join(f"{flag['code']} : {flag['text']}" for flag in value)


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

    class Meta:
        model = WheelCheck
        fields = ("checked_at", "seance", "wheel", "passed", "signer", "cosigner", "observations", "incident")
        empty_text = _("Aucune vérification.")
