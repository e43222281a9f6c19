import django_tables2 as tables
from django.utils.translation import gettext_lazy as _

from ledgers.core.templatetags.ledgers import person
from ledgers.custody.models import DestructionSession, Supplier
from ledgers.custody.tables import PurchaseOrderTable

from .models import Die


class DieTable(tables.Table):
    serial = tables.LinkColumn("dice:die", args=[tables.A("pk")], verbose_name=_("Numéro d'ordre"))
    condition = tables.Column(accessor="condition_label", verbose_name=_("État"), orderable=False)
    place = tables.Column(accessor="place", verbose_name=_("Emplacement"), orderable=False)

    class Meta:
        model = Die
        fields = ("serial", "sigle", "colour", "side_mm", "pair", "status", "condition", "place", "received_at")
        order_by = ("serial",)


class SupplierTable(tables.Table):
    actions = tables.LinkColumn(
        "dice:supplier_approval",
        args=[tables.A("pk")],
        text=_("Agrément"),
        verbose_name="",
        orderable=False,
        exclude_from_export=True,
    )

    class Meta:
        model = Supplier
        fields = ("name", "approval_reference", "approval_issuer", "approved_from", "approved_until")


class OrderTable(PurchaseOrderTable):
    actions = tables.TemplateColumn(
        template_name="dice/_order_actions.html", verbose_name="", orderable=False, exclude_from_export=True
    )


class DestructionTable(tables.Table):
    planned_at = tables.DateTimeColumn(
        format="SHORT_DATETIME_FORMAT", linkify=("dice:destruction", [tables.A("pk")]), verbose_name=_("Prévue le")
    )
    size = tables.Column(accessor="items__count", verbose_name=_("Dés"), orderable=False)

    class Meta:
        model = DestructionSession
        fields = ("planned_at", "method", "status", "size", "notified_at", "performed_at", "inspector", "witness")

    def render_inspector(self, value):
        return person(value)

    def render_witness(self, value):
        return person(value)
