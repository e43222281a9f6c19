from collections import Counter

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
    kinds = {domain.intake_register(establishment, category)[0] for category, _label in domain.categories()}
    kinds.add(domain.intake_register(establishment, "")[0])
    totals: Counter = Counter()
    registers = Register.objects.filter(establishment=establishment, kind__in=kinds)
    for register in registers:
        for payload in register.entries.filter(kind="record").values_list("payload", flat=True).iterator():
            movement = payload.get("movement")
            if movement == "IN":
                totals[payload["category"]] += payload["quantity"]
            elif movement == "OUT":
                totals[payload["category"]] -= payload["quantity"]
    return dict(totals)
