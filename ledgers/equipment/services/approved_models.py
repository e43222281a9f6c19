"""Approved models of equipment (SET-33, SHUF-01, SHUF-11, AMB-29)."""

import datetime

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ledgers.core.authz import require_role, save_audited
from ledgers.core.errors import RuleViolation
from ledgers.core.models import Establishment

from ..models import (
    ApprovedModel,
)
from .common import MANAGERS, _equipment_entry, _fr


@transaction.atomic
def approved_model_register(
    *,
    establishment: Establishment,
    kind: str,
    manufacturer: str,
    name: str,
    actor: AbstractBaseUser,
    approval_reference: str = "",
    approval_issuer: str = "",
    approved_on: datetime.date | None = None,
    approved_until: datetime.date | None = None,
) -> ApprovedModel:
    """Record a model of sabot or shuffler with its approval reference and issuer."""
    role = require_role(actor, establishment, MANAGERS[establishment.jurisdiction])
    if kind not in ApprovedModel.Kind.values:
        raise ValidationError({"kind": _("Type de matériel inconnu.")})
    if not manufacturer.strip() or not name.strip():
        raise ValidationError(_("Le fabricant et le modèle sont obligatoires."))
    if ApprovedModel.objects.filter(
        establishment=establishment, kind=kind, manufacturer=manufacturer.strip(), name=name.strip()
    ).exists():
        raise ValidationError(_("Ce modèle est déjà enregistré."))
    model = save_audited(
        ApprovedModel(
            establishment=establishment,
            kind=kind,
            manufacturer=manufacturer.strip(),
            name=name.strip(),
            approval_reference=approval_reference.strip(),
            approval_issuer=approval_issuer.strip(),
            approved_on=approved_on,
            approved_until=approved_until,
        ),
        actor=actor,
        reason="enregistrement",
    )
    approval = (
        _fr(
            _("Agrément %(ref)s délivré par %(issuer)s le %(date)s")
            % {
                "ref": model.approval_reference,
                "issuer": model.approval_issuer or "—",
                "date": approved_on.strftime("%d/%m/%Y") if approved_on else "—",
            }
        )
        if model.is_approved
        else _fr(_("Sans référence d'agrément"))
    )
    _equipment_entry(
        establishment,
        actor=actor,
        role=role,
        event=_("Enregistrement d'un modèle"),
        equipment=f"{model.get_kind_display()} {model}",
        details=approval,
    )
    return model


def require_current_approval(model: ApprovedModel, est: Establishment) -> None:
    """An approval with an end date is refused once expired (AUTH-06): the model's sabots and
    shufflers go out of service until it is renewed."""
    if model.approval_expired(est.localtime(timezone.now()).date()):
        raise RuleViolation(
            "AUTH-06",
            _("L'agrément %(ref)s du modèle %(model)s a expiré le %(date)s.")
            % {"ref": model.approval_reference, "model": model, "date": model.approved_until.strftime("%d/%m/%Y")},
        )
