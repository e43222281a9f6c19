from collections import Counter

from django.db.models import Q, QuerySet

from ledgers.core.models import Establishment
from ledgers.registers.models import Register

from .domains import CustodyDomain
from .models import GONE_STATUSES


def located_stock(
    domain: CustodyDomain, establishment: Establishment, include_tables: bool = False
) -> dict[tuple[int | None, str], int]:
    """{(location id, category): count} of the objects present; objects at tables under None."""
    qs = domain.model.objects.filter(establishment=establishment).exclude(status__in=GONE_STATUSES)
    if not include_tables:
        qs = qs.filter(table_session__isnull=True)
    counts: Counter = Counter()
    for location_id, table_session_id, category in qs.values_list("location_id", "table_session_id", "category"):
        counts[(None if table_session_id else location_id, category)] += 1
    return dict(counts)


def book_stock(domain: CustodyDomain, establishment: Establishment) -> dict[str, int]:
    """Σ IN − Σ OUT per category, read from the intake registers (the book stock)."""
    totals: Counter = Counter()
    for register in intake_registers(domain, establishment):
        for payload in register.entries.filter(kind="record").values_list("payload", flat=True).iterator():
            movement = payload.get("movement")
            if movement == "IN":
                totals[payload["category"]] += payload["quantity"]
            elif movement == "OUT":
                totals[payload["category"]] -= payload["quantity"]
    return dict(totals)


def intake_registers(
    domain: CustodyDomain, establishment: Establishment, *, open_only: bool = False
) -> QuerySet[Register]:
    """The domain's own intake register volumes: its (kind, qualifier) pairs only, since one kind
    may hold several domains in sections (FR modèle 19: cards, sabots, dice)."""
    pairs = {domain.intake_register(establishment, category) for category, _label in domain.categories()}
    pairs.add(domain.intake_register(establishment, ""))
    match = Q()
    for kind, qualifier in pairs:
        match |= Q(kind=kind, qualifier=qualifier)
    registers = Register.objects.filter(match, establishment=establishment)
    return registers.filter(status=Register.Status.OPEN) if open_only else registers
