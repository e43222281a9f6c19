import django_tables2 as tables
from django.utils.translation import gettext_lazy as _

from .models import Key


class KeyTable(tables.Table):
    """The registered keys; ``out``: the ids of those out of their home now."""

    code = tables.LinkColumn("keys:key", args=[tables.A("pk")], verbose_name=_("Clé"))
    opens = tables.Column(verbose_name=_("Ce qu'elle ouvre"))
    home = tables.Column(verbose_name=_("Lieu de garde"), default="—")
    custodian = tables.Column(verbose_name=_("Gardien"), default="—")

    class Meta:
        model = Key
        fields = ("code", "lock_type", "opens", "copies", "home", "custodian", "status")
        orderable = False
        empty_text = _("Aucune clé inscrite.")

    def __init__(self, *args, out: frozenset[int] = frozenset(), **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.out = out

    def render_opens(self, record: Key, value: str) -> str:
        return f"{value} [{record.asset_ref}]" if record.asset_ref else value

    def render_custodian(self, record: Key, value) -> str:
        return f"{value} — {record.holder_organisation}" if record.holder_organisation else str(value)

    def render_status(self, record: Key, value: str) -> str:
        return f"{value} — {_('sortie')}" if record.pk in self.out else value
