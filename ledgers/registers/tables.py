import django_tables2 as tables
from django.utils.translation import gettext_lazy as _

from .models import Register


class RegisterTable(tables.Table):
    number = tables.LinkColumn("registers:detail", args=[tables.A("number")], verbose_name=_("Numéro"))
    title = tables.Column(verbose_name=_("Intitulé"), accessor="heading", order_by="title")
    qualifier = tables.Column(verbose_name=_("Catégorie"), accessor="qualifier_label", order_by="qualifier")
    kind = tables.Column(verbose_name=_("Type"), accessor="kind_info__title", order_by="kind")
    head_seq = tables.Column(verbose_name=_("Entrées"), attrs={"td": {"class": "num"}})

    class Meta:
        model = Register
        fields = ("number", "title", "kind", "qualifier", "status", "head_seq", "created_at")
        order_by = "number"
        attrs = {"class": "table"}
        empty_text = _("Aucun registre.")
