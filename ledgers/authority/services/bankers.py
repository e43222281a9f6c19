"""GAME-31: the register of approved bankers (banque à tout va, Monaco)."""

import datetime

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from ledgers.core.authz import role_named_by_text, save_audited
from ledgers.core.errors import impossible
from ledgers.core.models import Establishment
from ledgers.core.roles import Role
from ledgers.registers.selectors import current_register
from ledgers.registers.services import display_name, entry_append, entry_seq_next, register_language

from ..models import (
    ApprovedBanker,
)
from ..registers import (
    BANKERS,
)
from .common import _required
from .progressives import _require_mc

BANKER_APPROVERS = (Role.DIRECTEUR_JEUX, Role.SOUS_DIRECTEUR)


def _banker_entry(
    banker: ApprovedBanker, *, actor: AbstractBaseUser, role: str, event: str | Promise, on: datetime.date
) -> None:
    with register_language():
        payload = {
            "banker": banker.number,
            "event": str(event),
            "date": on.isoformat(),
            "identity": f"{banker.full_name}, {_('né(e) le')} {banker.birth_date:%d/%m/%Y}, {banker.identity_document}",
            "signed_by": display_name(actor),
        }
    entry_append(register=current_register(banker.establishment, BANKERS.code), actor=actor, role=role, payload=payload)


@transaction.atomic
def banker_approve(
    *,
    establishment: Establishment,
    actor: AbstractBaseUser,
    full_name: str,
    birth_date: datetime.date,
    identity_document: str,
    approved_on: datetime.date,
) -> ApprovedBanker:
    """A banker approved by the Direction (000 art. 12.3), written in the register of approved bankers."""
    _require_mc(establishment, BANKERS.title)
    role = role_named_by_text(
        actor, establishment, BANKER_APPROVERS, "GAME-31", _("Le banquier est agréé par la Direction des Jeux.")
    )
    fields = _required(full_name=full_name, identity_document=identity_document)
    if approved_on > establishment.localtime(timezone.now()).date():
        raise ValidationError({"approved_on": _("La date d'agrément ne peut pas être dans le futur.")})
    Establishment.objects.select_for_update().get(pk=establishment.pk)
    number = ApprovedBanker.objects.filter(establishment=establishment).count() + 1
    banker = ApprovedBanker(
        establishment=establishment,
        number=number,
        full_name=fields["full_name"],
        birth_date=birth_date,
        identity_document=fields["identity_document"],
        approved_on=approved_on,
        approved_by=actor,
        entry_seq=entry_seq_next(current_register(establishment, BANKERS.code)),
    )
    save_audited(banker, actor=actor, reason="agrément")
    _banker_entry(banker, actor=actor, role=role, event=_("Agrément"), on=approved_on)
    return banker


@transaction.atomic
def banker_withdraw(*, banker: ApprovedBanker, actor: AbstractBaseUser, on: datetime.date) -> ApprovedBanker:
    """The Direction withdraws a banker's approval from ``on``."""
    banker = ApprovedBanker.objects.select_for_update().select_related("establishment").get(pk=banker.pk)
    role = role_named_by_text(
        actor, banker.establishment, BANKER_APPROVERS, "GAME-31", _("Le banquier est agréé par la Direction des Jeux.")
    )
    if banker.withdrawn_on is not None:
        raise impossible(_("L'agrément de ce banquier est déjà retiré."))
    if on < banker.approved_on:
        raise ValidationError({"on": _("Le retrait suit l'agrément.")})
    banker.withdrawn_on = on
    save_audited(banker, actor=actor, reason="retrait")
    _banker_entry(banker, actor=actor, role=role, event=_("Retrait de l'agrément"), on=on)
    return banker
