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


def supplier_approvals(establishment):
    for supplier in Supplier.objects.filter(establishment=establishment).order_by("domain", "name"):
        yield Approval(
            subject=f"{supplier.name} ({get_domain(supplier.domain).label})",
            reference=supplier.approval_reference,
            issuer=supplier.approval_issuer,
            valid_from=supplier.approved_from,
            valid_until=supplier.approved_until,
            url=_supplier_url(supplier.domain),
        )


SUPPLIERS = approval_source(
    ApprovalSource(
        code="suppliers",
        label=_("Fabricants et fournisseurs agréés (cartes, dés)"),
        requirement="AUTH-06",
        approvals=supplier_approvals,
    )
)
