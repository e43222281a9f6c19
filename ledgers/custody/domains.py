"""Custody domains: cards, dice, shoes… each is "objects + registers" with the same workflows
(purchase orders, intake, depot transfers, stock statement, verification, destruction).

A domain app declares a ``CustodyDomain`` in its ``ready()``; the shared services in
``ledgers.custody.services`` then enforce that domain's rules, citing its own requirement IDs.
"""

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from django.apps import apps
from django.db.models import Model, QuerySet
from django.utils.functional import Promise

from ledgers.core.registry import CodeRegistry

if TYPE_CHECKING:
    from ledgers.core.models import Establishment

    from .models import DestructionSession


@dataclass(frozen=True)
class CustodyDomain:
    code: str
    label: str | Promise
    item_model: str  # "app_label.ModelName", a subclass of custody.models.TrackedItem
    # rule name → {jurisdiction: catalogue ID}. Names used by the shared services:
    # supplier_approval, order_visa, intake, transfer, location, out_of_use_location,
    # destruction_notice, destruction_witness, destruction_method,
    # issue (no live partie), withdrawn_issue, quarantine, return (closing with objects at the table)
    rules: dict[str, dict[str, str]]
    # (establishment, category) → (register kind code, qualifier) of the intake register volume
    intake_register: Callable[["Establishment", str], tuple[str, str]]
    # where objects may be kept when not issued to a table: {jurisdiction: location kinds}
    depot_kinds: dict[str, frozenset[str]] = field(default_factory=dict)
    # register kind of the daily annex ledger (MC comptabilité annexe), if the domain has one
    annex_kind: str | None = None
    # extra checks before a destruction session completes: (session, items) → raise RuleViolation
    destruction_checks: Callable[["DestructionSession", Sequence[Model]], None] | None = None
    categories: Callable[[], list[tuple[str, str]]] = field(default=lambda: [])
    # filter of the objects counted in stock (e.g. cards: sixains and loose decks, not the decks
    # inside a sixain, which are counted with it)
    stock_filter: dict[str, object] = field(default_factory=dict)
    # the establishment's objects put into service, each once: a values queryset with ``first``,
    # the moment it first went to a table (what the domain consumes, set against its destructions)
    first_service: Callable[["Establishment"], QuerySet] | None = None

    def rule(self, name: str, jurisdiction: str) -> str | None:
        return self.rules.get(name, {}).get(jurisdiction)

    @property
    def model(self) -> type[Model]:
        return apps.get_model(self.item_model)

    def stock_items(self) -> QuerySet:
        """The objects counted in stock, in the intake registers and on the orders."""
        return self.model.objects.filter(**self.stock_filter)

    def intake_registers(self, establishment: "Establishment") -> set[tuple[str, str]]:
        """(kind, qualifier) of every intake register volume series of this domain."""
        pairs = {self.intake_register(establishment, category) for category, _label in self.categories()}
        return pairs or {self.intake_register(establishment, "")}


DOMAINS: CodeRegistry[CustodyDomain] = CodeRegistry("custody domain")
custody_domain = DOMAINS.declare
get_domain = DOMAINS.get


def all_domains() -> list[CustodyDomain]:
    return list(DOMAINS)


def domain_choices() -> list[tuple[str, str]]:
    return [(d.code, str(d.label)) for d in DOMAINS]
