"""The authorities' lists as django-tables2 tables, exported in CSV and XLSX; the links that act
on a row stay on the page and out of the files."""

import django_tables2 as tables
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from .models import ApprovedBanker, Declaration

DATE = "d/m/Y"


class DeclarationTable(tables.Table):
    """``overdue``: the ids of the declarations implemented without a follow-up (AUTH-02)."""

    number = tables.Column(verbose_name=_("N°"))
    operation = tables.Column(verbose_name=_("Opération"))
    sent_on = tables.DateColumn(format=DATE, verbose_name=_("Envoyée le"))
    implementation_date = tables.DateColumn(format=DATE, verbose_name=_("Mise en œuvre le"))
    follow_up = tables.Column(verbose_name=_("Suite"))
    details = tables.Column(verbose_name=_("Détail"), visible=False)  # in the files only

    class Meta:
        model = Declaration
        fields = ("number", "operation", "sent_on", "implementation_date", "follow_up", "details")
        orderable = False
        empty_text = _("Aucune déclaration.")

    def __init__(self, *args, overdue: frozenset[int] = frozenset(), **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.overdue = overdue

    def render_follow_up(self, record: Declaration, value: str) -> str:
        link = format_html(
            '<a href="{}">{}</a>',
            reverse("authority:declaration_follow_up", args=[record.pk]),
            _("Inscrire la suite"),
        )
        if record.pk in self.overdue:
            return format_html('<span class="status status-awaiting">{}</span> {}', value, link)
        return format_html("{} {}", value, link)

    def value_follow_up(self, value: str) -> str:
        return value


class BankerTable(tables.Table):
    number = tables.Column(verbose_name=_("N°"))
    full_name = tables.Column(verbose_name=_("Nom et prénoms"))
    approved_on = tables.DateColumn(format=DATE, verbose_name=_("Agréé le"))
    approved_by = tables.Column(verbose_name=_("Agréé par"))
    withdrawn_on = tables.DateColumn(format=DATE, verbose_name=_("Agrément retiré le"), empty_values=())

    class Meta:
        model = ApprovedBanker
        fields = ("number", "full_name", "approved_on", "approved_by", "withdrawn_on")
        orderable = False
        empty_text = _("Aucun banquier agréé.")

    def render_approved_by(self, value) -> str:
        return value.get_full_name() or str(value)

    def render_withdrawn_on(self, record: ApprovedBanker, value) -> str:
        if value:
            return f"{value:%d/%m/%Y}"
        return format_html(
            '<a href="{}">{}</a>', reverse("authority:banker_withdraw", args=[record.pk]), _("Retirer l'agrément")
        )

    def value_withdrawn_on(self, value) -> str:
        return f"{value:%d/%m/%Y}" if value else ""
