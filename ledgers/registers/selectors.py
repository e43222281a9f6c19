"""Reads on registers that are more than a one-line queryset."""

from collections.abc import Sequence

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Count, QuerySet

from ledgers.core.models import Membership

from .models import Register


def registers_with_counts(*, establishment_code: str | None = None) -> QuerySet[Register]:
    """Registers in number order, each annotated with ``entry_count`` (entries actually stored)."""
    registers = Register.objects.annotate(entry_count=Count("entries")).order_by("number")
    if establishment_code is not None:
        registers = registers.filter(establishment__code=establishment_code)
    return registers


def registers_named(numbers: Sequence[str]) -> tuple[list[Register], list[str]]:
    """The registers with these numbers, in the order given, and the numbers that match none."""
    found = Register.objects.select_related("establishment").in_bulk(numbers, field_name="number")
    return [found[n] for n in numbers if n in found], [n for n in numbers if n not in found]


def record_actor(register: Register) -> tuple[AbstractBaseUser, str] | None:
    """A user who may record in this register (a record role of its kind, in its establishment),
    with that role; the kind's first roles are preferred."""
    roles = list(register.kind_info.record_roles)
    memberships = Membership.objects.filter(
        establishment_id=register.establishment_id, role__in=roles, user__is_active=True
    )
    best = min(memberships.select_related("user"), key=lambda m: (roles.index(m.role), m.user_id), default=None)
    return (best.user, best.role) if best is not None else None
