"""Shared custody workflows. Each domain (cards, dice, shoes) supplies its objects, registers and
requirement IDs through its ``CustodyDomain``; these services enforce the common rules and write
the register entries in the same transaction as the change."""

from .common import AUTHORITY, DIRECTION
from .destruction import destruction_complete, destruction_notify, destruction_plan, session_items
from .intake import check_receivable, intake_record_in
from .places import check_location, depot_day_close, depot_keeper_role, domain_writer_roles, items_transfer
from .suppliers import (
    purchase_order_issue,
    purchase_order_send,
    purchase_order_visa,
    supplier_approval_change,
    supplier_register,
)
from .tables import check_all_returned, items_issue, items_return
from .verification import stock_verification_record, verifier_role

__all__ = [
    "AUTHORITY",
    "DIRECTION",
    "check_all_returned",
    "check_location",
    "check_receivable",
    "depot_day_close",
    "depot_keeper_role",
    "destruction_complete",
    "destruction_notify",
    "destruction_plan",
    "domain_writer_roles",
    "intake_record_in",
    "items_issue",
    "items_return",
    "items_transfer",
    "purchase_order_issue",
    "purchase_order_send",
    "purchase_order_visa",
    "session_items",
    "stock_verification_record",
    "supplier_approval_change",
    "supplier_register",
    "verifier_role",
]
