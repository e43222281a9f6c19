"""What the custody domains' pages share: the page that records a supplier's approval."""

from django.shortcuts import get_object_or_404
from django.utils.functional import cached_property

from .domains import CustodyDomain
from .models import Supplier
from .services import supplier_approval_change

APPROVAL_FIELDS = ("approval_reference", "approval_issuer", "approved_from", "approved_until")


class SupplierApprovalMixin:
    """A form page (a ``ServiceFormView`` of the domain's app, which knows ``establishment``) that
    records the approval of one of the domain's suppliers, given in the URL (``pk``), filled with
    the approval it has (CARD-32, DICE-15)."""

    domain: CustodyDomain

    @cached_property
    def supplier(self) -> Supplier:
        return get_object_or_404(
            Supplier, pk=self.kwargs["pk"], establishment=self.establishment, domain=self.domain.code
        )

    def get_initial(self):
        return {name: getattr(self.supplier, name) for name in APPROVAL_FIELDS}

    def perform(self, form) -> Supplier:
        return supplier_approval_change(supplier=self.supplier, actor=self.request.user, **form.cleaned_data)
