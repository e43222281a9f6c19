"""The authorities' lists as django-tables2 tables, exported in CSV and XLSX; the links that act
on a row stay on the page and out of the files."""

import django_tables2 as tables
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from ledgers.core.templatetags.ledgers import money

from .models import ApprovedBanker, Arrete, Declaration

DATE = "d/m/Y"


class DeclarationTable(tables.Table):
    """``overdue``: the ids of the declarations implemented without a follow-up (AUTH-02)."""

    number = tables.Column(verbose_name=_("N°"))
    operation = tables.Column(verbose_name=_("Opération"))
    sent_on = tables.DateColumn(format=DATE, verbose_name=_("Envoyée le"), attrs={"td": {"class": "nowrap"}})
    implementation_date = tables.DateColumn(
        format=DATE, verbose_name=_("Mise en œuvre le"), attrs={"td": {"class": "nowrap"}}
    )
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


class ArreteTable(tables.Table):
    number = tables.Column(verbose_name=_("N°"))
    reference = tables.Column(verbose_name=_("Référence"))
    signed_on = tables.DateColumn(format=DATE, verbose_name=_("Signé le"), attrs={"td": {"class": "nowrap"}})
    effective_from = tables.DateColumn(format=DATE, verbose_name=_("En vigueur le"), attrs={"td": {"class": "nowrap"}})
    total_tables = tables.Column(verbose_name=_("Tables autorisées"))
    games = tables.Column(verbose_name=_("Par jeu : tables (mise minimale)"), empty_values=(), orderable=False)
    follows = tables.Column(verbose_name=_("Déclaration suivie"), empty_values=())

    class Meta:
        model = Arrete
        fields = ("number", "reference", "signed_on", "effective_from", "total_tables", "games", "follows")
        orderable = False
        empty_text = _("Aucun arrêté d'autorisation inscrit.")

    def render_games(self, record: Arrete) -> str:
        return " ; ".join(
            f"{line.get_game_display()} : {line.tables}"
            + (f" ({money(line.minimum_stake)})" if line.minimum_stake is not None else "")
            for line in record.games.all()
        )

    def value_games(self, record: Arrete) -> str:
        return self.render_games(record)

    def render_follows(self, value) -> str:
        return str(value) if value else "—"

    def value_follows(self, value) -> str:
        return str(value) if value else ""


class BankerTable(tables.Table):
    number = tables.Column(verbose_name=_("N°"))
    full_name = tables.Column(verbose_name=_("Nom et prénoms"))
    approved_on = tables.DateColumn(format=DATE, verbose_name=_("Agréé le"), attrs={"td": {"class": "nowrap"}})
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
