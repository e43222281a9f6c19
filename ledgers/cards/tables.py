import django_tables2 as tables
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from ledgers.custody.tables import DestructionSessionTable, PurchaseOrderTable

from .models import CardUnit
from .selectors import Flag


class CardUnitTable(tables.Table):
    serial = tables.LinkColumn("cards:unit", args=[tables.A("pk")], verbose_name=_("Numéro d'ordre"))
    place = tables.Column(verbose_name=_("Emplacement"), empty_values=(), orderable=False)
    flags = tables.Column(verbose_name=_("Signalements"), empty_values=(), orderable=False)
    # The colour as typed at receipt, in French whatever the reader's language.
    back_colour = tables.Column(attrs={"td": {"lang": "fr"}})

    class Meta:
        model = CardUnit
        fields = (
            "serial",
            "unit_type",
            "parent",
            "back_colour",
            "supplier",
            "status",
            "place",
            "is_new",
            "pae",
            "complete",
            "flags",
        )
        attrs = {"class": "table"}

    def render_place(self, record: CardUnit) -> str:
        if record.parent_id and not record.table_session_id:
            return str(_("avec son sixain"))
        return record.place

    def render_flags(self, record: CardUnit) -> str:
        marks = []
        if record.contains_exchanged_card:
            marks.append(str(_("carte échangée")))
        if record.internal_serial:
            marks.append(str(_("numéro interne")))
        if record.hidden_mark:
            marks.append(str(_("marque invisible")))
        return ", ".join(marks) or "—"


class OrderTable(PurchaseOrderTable):
    actions = tables.TemplateColumn(
        template_name="cards/_order_actions.html", verbose_name="", orderable=False, exclude_from_export=True
    )


class DestructionTable(DestructionSessionTable):
    items = tables.Column(accessor="pk", verbose_name=_("Unités"), orderable=False)
    actions = tables.TemplateColumn(
        template_name="cards/_destruction_actions.html", verbose_name="", orderable=False, exclude_from_export=True
    )

    def render_items(self, record):
        items = super().render_items(record)
        if withheld := record.checks.get("withheld"):
            items += f" — {_('retenues')} : {', '.join(withheld)}"
        return items


class FlagTable(tables.Table):
    """The operations allowed but reported (``selectors.exceptions``)."""

    code = tables.Column(verbose_name=_("Exigence"), attrs={"td": {"class": "mono"}})
    article = tables.Column(verbose_name=_("Article"))
    at = tables.DateTimeColumn(format="d/m/Y H:i", verbose_name=_("Date"))
    subject = tables.Column(verbose_name=_("Objet"))
    text = tables.Column(verbose_name=_("Signalement"))

    class Meta:
        orderable = False
        empty_text = _("Aucune exception.")

    def render_subject(self, record: Flag, value: str) -> str:
        if record.unit:
            return format_html('<a href="{}">{}</a>', reverse("cards:unit", args=[record.unit.pk]), value)
        return value

    def value_subject(self, value: str) -> str:
        return value
