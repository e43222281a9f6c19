"""Destruction of cards (CARD-09 to CARD-11, CARD-30, CARD-31)."""

import datetime
from collections.abc import Sequence

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext_lazy as _

from ledgers.core.models import Establishment
from ledgers.custody import services as custody
from ledgers.custody.models import (
    WITHDRAWN_STATUSES,
    DestructionSession,
    ItemStatus,
)

from ..domains import CARDS
from ..models import (
    CardUnit,
)
from .common import _lock, _save_decks


@transaction.atomic
def cards_destruction_plan(
    *,
    establishment: Establishment,
    units: Sequence[CardUnit],
    method: str,
    planned_at: datetime.datetime,
    actor: AbstractBaseUser,
) -> DestructionSession:
    """Plan the destruction (or MC neutralisation) of withdrawn sixains and decks."""
    units = _lock(units, establishment)
    for unit in units:
        if unit.parent_id:
            raise ValidationError({"units": _("%(unit)s est détruit avec son sixain.") % {"unit": unit}})
        if unit.status not in WITHDRAWN_STATUSES:
            raise ValidationError(
                {"units": _("%(unit)s doit d'abord être déclaré hors d'usage, marqué ou détérioré.") % {"unit": unit}}
            )
    return custody.destruction_plan(
        domain=CARDS, establishment=establishment, method=method, planned_at=planned_at, items=units, actor=actor
    )


@transaction.atomic
def cards_destruction_complete(
    *,
    session: DestructionSession,
    actor: AbstractBaseUser,
    witness: AbstractBaseUser | None = None,
    withheld: Sequence[CardUnit] = (),
    finding: str = "",
    observations: str = "",
) -> DestructionSession:
    """Destroy the session's units: OUT entries of the intake registers; FR the police officer
    attends, checks completeness and marks, and visas the carnet modèle 19 (CARD-31). Units the
    check finds incomplete or marked are withheld under an incident (INC-14)."""
    # The decks follow their units, saved before the OUT entries, which name them (``written``);
    # a refusal below takes them back with the rest of the act.
    neutralised = session.method == DestructionSession.Method.NEUTRALISATION
    gone = ItemStatus.NEUTRALISED if neutralised else ItemStatus.DESTROYED
    destroyed = CardUnit.objects.filter(pk__in=session.items.values_list("object_id", flat=True)).exclude(
        pk__in=[u.pk for u in withheld]
    )
    decks = []
    for unit in destroyed.prefetch_related("members"):
        for deck in unit.members.all():
            deck.status = gone
            decks.append(deck)
    _save_decks(decks, fields=["status"], actor=actor, reason=str(session.get_method_display()))
    return custody.destruction_complete(
        session=session,
        domain=CARDS,
        actor=actor,
        witness=witness,
        observations=observations,
        withheld=withheld,
        finding=finding,
        checks={"complete_and_unmarked": not withheld},
    )
