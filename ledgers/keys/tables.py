from collections.abc import Mapping

import django_tables2 as tables
from django.utils.translation import gettext_lazy as _

from ledgers.core.templatetags.ledgers import person

from .models import Key
from .selectors import assets_text


class KeyTable(tables.Table):
    """The registered keys; ``out``: the ids of those out of their home now; ``places``: the
    establishment's place names by code (a key's assets may name a place)."""

    code = tables.LinkColumn("keys:key", args=[tables.A("pk")], verbose_name=_("Clé"))
    opens = tables.Column(verbose_name=_("Ce qu'elle ouvre"))
    home = tables.Column(verbose_name=_("Lieu de garde"), default="—")
    custodian = tables.Column(verbose_name=_("Gardien"), default="—")

    class Meta:
        model = Key
        fields = ("code", "lock_type", "opens", "copies", "home", "custodian", "status")
        orderable = False
        empty_text = _("Aucune clé inscrite.")

    def __init__(
        self, *args, out: frozenset[int] = frozenset(), places: Mapping[str, str] | None = None, **kwargs
    ) -> None:
        super().__init__(*args, **kwargs)
        self.out = out
        self.places = places or {}

    def render_opens(self, record: Key, value: str) -> str:
        return f"{value} ({assets_text(record.assets, self.places)})" if record.assets else value

    def render_custodian(self, record: Key, value) -> str:
        name = person(value, record.custodian_role)
        return f"{name} — {record.holder_organisation}" if record.holder_organisation else name

    def render_status(self, record: Key, value: str) -> str:
        return f"{value} — {_('sortie')}" if record.pk in self.out else value
