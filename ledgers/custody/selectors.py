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
    qs = domain.stock_items().filter(establishment=establishment).exclude(status__in=GONE_STATUSES)
    if not include_tables:
        qs = qs.filter(table_session__isnull=True)
    counts: Counter = Counter()
    for location_id, table_session_id, category in qs.values_list("location_id", "table_session_id", "category"):
        counts[(None if table_session_id else location_id, category)] += 1
    return dict(counts)


def book_stock(domain: CustodyDomain, establishment: Establishment) -> dict[str, int]:
    """Σ IN − Σ OUT per category, read from the intake registers (the book stock)."""
    totals: Counter = Counter()
    registers = intake_registers(domain, establishment)
    for register in registers:
        for payload in register.entries.filter(kind="record").values_list("payload", flat=True).iterator():
            movement = payload.get("movement")
            if movement == "IN":
                totals[payload["category"]] += payload["quantity"]
            elif movement == "OUT":
                totals[payload["category"]] -= payload["quantity"]
    return dict(totals)


def intake_registers(domain: CustodyDomain, establishment: Establishment) -> QuerySet[Register]:
    """Every volume of the domain's intake registers (a register kind may be shared by several
    domains — the FR carnet modèle 19 — so volumes are told apart by their qualifier)."""
    match = Q(pk__in=[])
    for kind, qualifier in domain.intake_registers(establishment):
        match |= Q(kind=kind, qualifier=qualifier)
    return Register.objects.filter(match, establishment=establishment)
