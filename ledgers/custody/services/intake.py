"""Intake registers: definitive IN and OUT."""

from collections import defaultdict
from collections.abc import Sequence

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ledgers.core.authz import save_audited
from ledgers.core.models import Establishment
from ledgers.registers.models import Entry, Register
from ledgers.registers.selectors import current_register
from ledgers.registers.services import entry_append

from ..domains import CustodyDomain
from ..models import (
    PurchaseOrder,
    Supplier,
    TrackedItem,
)
from .common import _french, _refuse, _rule, _serials
from .suppliers import _check_supplier


def _intake_register(domain: CustodyDomain, est: Establishment, category: str) -> Register:
    kind, qualifier = domain.intake_register(est, category)
    return current_register(est, kind, qualifier)


def _intake_write(register: Register, *, actor: AbstractBaseUser, role: str, payload: dict) -> Entry:
    """Every line of a domain's intake register (``domain.intake_register``) is written here, in
    the volume ``_intake_register`` gives."""
    return entry_append(register=register, actor=actor, role=role, payload=payload)


def check_receivable(
    domain: CustodyDomain, order: PurchaseOrder | None, supplier: Supplier | None, est: Establishment
) -> list[dict]:
    """Refuse a receipt the texts forbid; return the flags (allowed, but reported) it raises."""
    flags: list[dict] = []
    supplier = supplier or (order.supplier if order is not None else None)  # the order's supplier is checked too
    if supplier is not None:
        _check_supplier(domain, supplier, timezone.localdate())
    if order is None:
        if est.jurisdiction == "FR":
            _refuse(domain, "order_visa", est, _("Toute réception doit se rattacher à un bon de commande visé."))
        flags.append({"code": _rule(domain, "intake", est), "text": _french(_("Réception sans bon de commande"))})
        return flags
    if order.establishment_id != est.pk or order.domain != domain.code:
        raise ValidationError({"order": _("Ce bon de commande ne concerne pas ce matériel ou cet établissement.")})
    if est.jurisdiction == "FR" and not order.is_visaed:
        _refuse(domain, "order_visa", est, _("Réception refusée : le bon de commande n'est pas visé par la police."))
    return flags


@transaction.atomic
def intake_record_in(
    *,
    domain: CustodyDomain,
    establishment: Establishment,
    items: Sequence[TrackedItem],
    actor: AbstractBaseUser,
    role: str,
    order: PurchaseOrder | None = None,
    delivery_note: str = "",
    flags: Sequence[dict] = (),
    details: dict[str, list] | None = None,
    source: str = "",
) -> None:
    """Write the IN entries (one per category) for objects just received; ``details`` may carry
    per-category lists (e.g. the member decks of each sixain). ``source``: objects taken over from
    the paper registers enter against the paper register and page they come from, not an order."""
    if order is not None and all(
        domain.stock_items().filter(purchase_order=order, category=line["category"]).count() >= line["quantity"]
        for line in order.lines
    ):
        order.status = PurchaseOrder.Status.RECEIVED
        save_audited(order, actor=actor, reason="réception")
    by_category: dict[str, list[TrackedItem]] = defaultdict(list)
    for item in items:
        by_category[item.category].append(item)
    for category, group in by_category.items():
        register = _intake_register(domain, establishment, category)
        extra_flags = list(flags)
        if order is not None:
            received = domain.stock_items().filter(purchase_order=order, category=category).count()
            ordered = order.ordered_quantity(category)
            if received != ordered:
                extra_flags.append(
                    {
                        "code": _rule(domain, "order_quantity", establishment)
                        or _rule(domain, "intake", establishment),
                        "text": _french(_("Quantité reçue %(r)s ≠ quantité commandée %(o)s"), r=received, o=ordered),
                    }
                )
        _intake_write(
            register,
            actor=actor,
            role=role,
            payload={
                "movement": "IN",
                "category": category,
                "quantity": len(group),
                "serials": _serials(group),
                "supplier": group[0].supplier.name if group[0].supplier_id else "",
                "order": str(order) if order else source,
                "delivery_note": delivery_note,
                "details": (details or {}).get(category, []),
                "flags": extra_flags,
                **({"source": source} if source else {}),
            },
        )


def _record_out(
    *,
    domain: CustodyDomain,
    establishment: Establishment,
    items: Sequence[TrackedItem],
    actor: AbstractBaseUser,
    role: str,
    reason: str,
    reference: str,
    new_status: str,
    details: dict | None = None,
) -> list:
    entries = []
    by_category: dict[str, list[TrackedItem]] = defaultdict(list)
    for item in items:
        by_category[item.category].append(item)
    for category, group in by_category.items():
        register = _intake_register(domain, establishment, category)
        # The objects gone before their OUT entry, which names them (``written``).
        for item in group:
            item.status, item.location, item.table_session = new_status, None, None
            save_audited(item, actor=actor, reason=reason)
        entries.append(
            _intake_write(
                register,
                actor=actor,
                role=role,
                payload={
                    "movement": "OUT",
                    "category": category,
                    "quantity": len(group),
                    "serials": _serials(group),
                    "reason": reason,
                    "reference": reference,
                    **(details or {}),
                },
            )
        )
    return entries
