"""The lists of the custody layer's objects, shared by the domains that keep them (cards, dice,
sabots): purchase orders and destruction sessions. A domain's page adds its own actions column
(excluded from the exports)."""

import django_tables2 as tables
from django.utils.translation import gettext_lazy as _

from ledgers.core.templatetags.ledgers import person

from .models import DestructionSession, PurchaseOrder


class PurchaseOrderTable(tables.Table):
    order = tables.Column(accessor="pk", verbose_name=_("Bon"), orderable=False)
    supplier = tables.Column(verbose_name=_("Fournisseur"))
    lines = tables.Column(verbose_name=_("Désignation et quantités"), orderable=False)
    visa_by = tables.Column(verbose_name=_("Visé par"))

    class Meta:
        model = PurchaseOrder
        fields = ("order", "issued_at", "supplier", "lines", "status", "visa_by", "visa_at", "sent_at")
        empty_text = _("Aucun bon de commande.")

    def render_order(self, record):
        return str(record)

    def render_visa_by(self, record):
        return person(record.visa_by, record.visa_role)

    def render_lines(self, value):
        return ", ".join(f"{line['category']} × {line['quantity']}" for line in value)


class DestructionSessionTable(tables.Table):
    session = tables.Column(accessor="pk", verbose_name=_("Séance"), orderable=False)
    items = tables.Column(accessor="pk", verbose_name=_("Objets"), orderable=False)

    class Meta:
        model = DestructionSession
        fields = (
            "session",
            "method",
            "status",
            "planned_at",
            "officer",
            "notified_at",
            "notice_reference",
            "witness",
            "performed_at",
        )
        sequence = (*fields, "items")
        empty_text = _("Aucune séance de destruction.")

    def render_session(self, record):
        return str(record)

    def render_officer(self, value):
        return person(value)

    def render_witness(self, value):
        return person(value)

    def render_items(self, record):
        return ", ".join(str(item) for item in record.items.all())
