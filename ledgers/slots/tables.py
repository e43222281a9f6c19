import django_tables2 as tables
from django.utils.translation import gettext_lazy as _

from ledgers.core.templatetags.ledgers import money

from .models import Machine, SlotCount


class MachineTable(tables.Table):
    """The inventory file of the machines (REG-15)."""

    number = tables.LinkColumn("slots:machine", args=[tables.A("pk")], verbose_name=_("Numéro"), orderable=False)
    maker = tables.Column(verbose_name=_("Fabricant / série"))
    socle = tables.Column(accessor="socle__number", verbose_name=_("Socle"), default="—")

    class Meta:
        model = Machine
        fields = ("number", "machine_type", "maker", "place", "socle", "status")
        orderable = False
        empty_text = _("Aucune machine.")

    def render_maker(self, record: Machine, value: str) -> str:
        return f"{value} {record.maker_serial}"


class CountTable(tables.Table):
    day = tables.LinkColumn("slots:slot_count", args=[tables.A("pk")], verbose_name=_("Journée"))
    kind = tables.Column(verbose_name=_("Type de comptée"))

    class Meta:
        model = SlotCount
        fields = ("day", "kind", "status")
        orderable = False
        empty_text = _("Aucune comptée.")

    def render_day(self, value) -> str:
        return value.strftime("%d/%m/%Y")

    def render_kind(self, record: SlotCount, value: str) -> str:
        return f"{value} — {money(record.denomination)}" if record.denomination else value
