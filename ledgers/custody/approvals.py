"""Card and dice makers' approvals (FR-2007 art. 39, 55-22) in the approvals overview (AUTH-06)."""

from django.urls import NoReverseMatch, reverse
from django.utils.translation import gettext_lazy as _

from ledgers.core.approvals import Approval, ApprovalSource, approval_source

from .domains import get_domain
from .models import Supplier


def _supplier_url(domain: str) -> str:
    try:
        return reverse(f"{domain}:suppliers")
    except NoReverseMatch:
        return ""


def supplier_approval(supplier: Supplier) -> Approval:
    subject = f"{supplier.name} ({get_domain(supplier.domain).label})"
    return Approval.of(supplier, subject, supplier.approved_from, _supplier_url(supplier.domain))


SUPPLIERS = approval_source(
    ApprovalSource(
        code="suppliers",
        label=_("Fabricants et fournisseurs agréés (cartes, dés)"),
        requirement="AUTH-06",
        approved=lambda establishment: Supplier.objects.filter(establishment=establishment).order_by("domain", "name"),
        approval=supplier_approval,
    )
)
