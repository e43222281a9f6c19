"""Approvals the texts require (AUTH-06): each app declares where its approvals live (card and
dice makers, sabot and shuffler models, slot staff, SFM…) so that one overview lists them all
with their validity, and the Direction sees those about to expire."""

import datetime
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.utils.functional import Promise

from .registry import CodeRegistry

if TYPE_CHECKING:
    from django.db.models import OuterRef, QuerySet

    from .models import Establishment

EXPIRING_DAYS = 30  # an approval ending within this many days is shown as expiring


@dataclass(frozen=True)
class Approval:
    subject: str  # what is approved, in words
    reference: str  # "" when there is none
    issuer: str
    valid_from: datetime.date | None
    valid_until: datetime.date | None
    url: str = ""

    @classmethod
    def of(cls, approved: Any, subject: str, valid_from: datetime.date | None, url: str = "") -> "Approval":
        """The approval of ``approved``, whose ``approval_reference``, ``approval_issuer`` and
        ``approved_until`` say it."""
        return cls(
            subject, approved.approval_reference, approved.approval_issuer, valid_from, approved.approved_until, url
        )

    def status(self, on: datetime.date) -> str:
        """missing, not_yet, expired, expiring or valid on ``on``."""
        if not self.reference.strip():
            return "missing"
        if self.valid_from and on < self.valid_from:
            return "not_yet"
        if self.valid_until and on > self.valid_until:
            return "expired"
        if self.valid_until and (self.valid_until - on).days <= EXPIRING_DAYS:
            return "expiring"
        return "valid"


@dataclass(frozen=True)
class ApprovalSource:
    code: str
    label: str | Promise
    requirement: str  # the catalogue row whose operations the approval gates
    # The approved things of a house, in the order listed, and each one's approval: the overview
    # reads every source's in one query.
    approved: Callable[["Establishment | OuterRef"], "QuerySet"]  # the house, or a reference to it: filtered on only
    approval: Callable[[Any], Approval]


SOURCES: CodeRegistry[ApprovalSource] = CodeRegistry("approval source")
approval_source = SOURCES.declare
