import django_tables2 as tables
from django.utils.translation import gettext_lazy as _

from .domains import DOMAINS
from .models import Inventory


class InventoryTable(tables.Table):
    pk = tables.LinkColumn("takeover:inventory", args=[tables.A("pk")], verbose_name=_("N°"))
    domain = tables.Column(verbose_name=_("Domaine"))
    lines = tables.Column(verbose_name=_("Lignes"), accessor="rows", orderable=False)
    prepared_by = tables.Column(verbose_name=_("Établi par"))
    signed_by = tables.Column(verbose_name=_("Signé par"), default="—")
    visa_by = tables.Column(verbose_name=_("Visé par"), default="—")

    class Meta:
        model = Inventory
        fields = (
            "pk",
            "domain",
            "paper_register",
            "lines",
            "status",
            "prepared_at",
            "prepared_by",
            "signed_by",
            "visa_by",
            "posted_at",
        )
        orderable = False
        empty_text = _("Aucun inventaire de reprise.")

    def render_domain(self, value: str) -> str:
        domain = DOMAINS.get(value)
        return str(domain.label) if domain else value

    def render_lines(self, value: list) -> int:
        return len(value)

    def value_lines(self, value: list) -> int:
        return len(value)

    def render_prepared_by(self, value) -> str:
        return value.get_full_name() or value.get_username()

    def render_signed_by(self, value) -> str:
        return value.get_full_name() or value.get_username()

    def render_visa_by(self, value) -> str:
        return value.get_full_name() or value.get_username()
