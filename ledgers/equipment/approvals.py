"""Sabot and shuffler model approvals (SET-33, SHOE-04/07/08, SHUF-01/11) in the approvals overview (AUTH-06)."""

from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from ledgers.core.approvals import Approval, ApprovalSource, approval_source

from .models import ApprovedModel


def model_approval(model: ApprovedModel) -> Approval:
    return Approval.of(model, f"{model.get_kind_display()} {model}", model.approved_on, reverse("equipment:model_list"))


MODELS = approval_source(
    ApprovalSource(
        code="equipment_models",
        label=_("Modèles agréés de sabots et de mélangeurs"),
        requirement="AUTH-06",
        approved=lambda establishment: ApprovedModel.objects.filter(establishment=establishment).order_by(
            "kind", "manufacturer", "name"
        ),
        approval=model_approval,
    )
)
