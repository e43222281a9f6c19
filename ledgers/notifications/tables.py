"""The personal notices list as a django-tables2 table, exported in CSV and XLSX."""

import django_tables2 as tables
from django.utils import formats, timezone
from django.utils.html import format_html
from django.utils.translation import gettext as _t
from django.utils.translation import gettext_lazy as _

from .models import Notice

DATETIME = "d/m/Y H:i"


def _local(moment) -> str:
    return formats.date_format(timezone.localtime(moment), DATETIME)


class NoticeTable(tables.Table):
    created_at = tables.DateTimeColumn(format=DATETIME, verbose_name=_("Envoyée le"), attrs={"td": {"class": "nowrap"}})
    subject = tables.LinkColumn("notifications:detail", args=[tables.A("pk")], verbose_name=_("Objet"))
    register = tables.Column(accessor="register__number", verbose_name=_("Registre"), attrs={"td": {"class": "mono"}})
    receipt = tables.Column(accessor="pk", verbose_name=_("Réception"))

    class Meta:
        model = Notice
        fields = ("created_at", "subject", "register", "receipt")
        orderable = False
        empty_text = _("Aucune notification.")

    def value_receipt(self, record: Notice) -> str:
        if record.acknowledged_at:
            who = record.acknowledged_by.get_full_name() or str(record.acknowledged_by)
            return _t("Accusée le %(at)s par %(who)s") % {"at": _local(record.acknowledged_at), "who": who}
        return _t("À accuser avant le %(at)s") % {"at": _local(record.acknowledge_by)}

    def render_receipt(self, record: Notice) -> str:
        text = self.value_receipt(record)
        if record.acknowledged_at:
            return format_html(
                '<span class="badge rounded-pill text-bg-light border text-wrap text-start">{}</span>', text
            )
        return format_html('<span class="badge rounded-pill text-bg-warning text-wrap text-start">{}</span>', text)
