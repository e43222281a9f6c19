"""Reads of the take-over: an inventory's problems before anything is written, and whether a
domain may still be taken over."""

from collections.abc import Sequence

from django.db.models import QuerySet

from ledgers.core.models import Establishment
from ledgers.core.prepared import Bound

from .domains import Problem, get_domain
from .models import Inventory


def inventory_problems(*, establishment: Establishment, domain: str, rows: Sequence[dict]) -> list[Problem]:
    """Every line's problems (line number and column), as the posting would meet them; writes nothing."""
    _lines, problems = get_domain(domain).check(establishment, [dict(row) for row in rows])
    return problems


def taken_over(establishment: Establishment, domain: str) -> set[int]:
    """The keys of the objects of ``domain`` that posted inventories brought in."""
    keys: set[int] = set()
    posted = Inventory.objects.filter(establishment=establishment, domain=domain, status=Inventory.Status.POSTED)
    for objects in posted.values_list("objects_created", flat=True):
        keys.update(objects)
    return keys


def domain_started(establishment: Establishment, domain: str) -> bool:
    """Has the house recorded its first ordinary act in ``domain``?"""
    return get_domain(domain).started(establishment, taken_over(establishment, domain))


def inventories(establishment: Establishment | Bound) -> QuerySet[Inventory]:
    return Inventory.objects.filter(establishment=establishment).select_related(
        "prepared_by", "signed_by", "visa_by", "posted_by"
    )
