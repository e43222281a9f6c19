"""Withdrawal and destruction of dice."""

import datetime
from collections.abc import Sequence
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ledgers.core.authz import require_role, save_audited
from ledgers.core.errors import RuleViolation
from ledgers.core.models import Establishment
from ledgers.core.roles import Role
from ledgers.custody.models import DestructionSession, ItemStatus
from ledgers.custody.services import (
    DIRECTION,
    destruction_complete,
    destruction_plan,
    domain_writer_roles,
)
from ledgers.registers.services import display_name, register_language

from ..domains import DICE, check_destroyable
from ..models import Die
from .common import (
    _anomaly,
    _local,
    _locked_dice,
    _serials,
    _service_write,
    _signatory,
    _signature,
    service_register,
)


class WithdrawReason:
    USED = "used"
    DAMAGED = "damaged"
    CHOICES = ((USED, _("Usagé")), (DAMAGED, _("Abîmé")))


def withdrawer_role(actor: AbstractBaseUser, est: Establishment) -> str:
    """The role in which ``actor`` withdraws dice from service: the stock's keepers or the Direction."""
    return require_role(
        actor, est, tuple(dict.fromkeys((*domain_writer_roles(DICE, est), *DIRECTION[est.jurisdiction])))
    )


@transaction.atomic
def dice_withdraw(*, dice: Sequence[Die], reason: str, actor: AbstractBaseUser, observations: str = "") -> list[Die]:
    """Declare dice in a depot used or damaged: they join the destruction queue. A rampo pair is
    used together, so withdrawing one die withdraws its pair (the partner as used)."""
    if not dice:
        raise ValidationError({"dice": _("Aucun dé à retirer.")})
    est = dice[0].establishment
    role = withdrawer_role(actor, est)
    if reason not in (WithdrawReason.USED, WithdrawReason.DAMAGED):
        raise ValidationError({"reason": _("Motif de retrait inconnu.")})
    chosen = {die.pk for die in dice}
    # the other die of each pair, unless it is already withdrawn or elsewhere
    partners = [
        die
        for pair_die in dice
        if pair_die.pair_id
        for die in pair_die.pair.dice.filter(status=ItemStatus.IN_STOCK, table_session__isnull=True)
    ]
    locked = _locked_dice(list({die.pk: die for die in [*dice, *partners]}.values()))
    register = service_register(est)
    for die in locked:
        if die.establishment_id != est.pk or die.status != ItemStatus.IN_STOCK or die.table_session_id:
            raise RuleViolation(
                "DICE-06" if est.jurisdiction == "MC" else "DICE-18",
                _("Le dé n° %(die)s n'est pas en dépôt en état de service.") % {"die": die.designation},
            )
    for die in locked:
        damaged = reason == WithdrawReason.DAMAGED and die.pk in chosen
        die.status = ItemStatus.DAMAGED if damaged else ItemStatus.OUT_OF_USE
        save_audited(die, actor=actor, reason="retrait")
    with register_language():  # what is written in the registers is written in French
        now = timezone.now()
        _service_write(
            register,
            actor=actor,
            role=role,
            payload={
                "event": str(_("Retrait (usagé ou abîmé)")),
                "date": _local(est, now).date().isoformat(),
                "seance": "",
                "table": "",
                "time": _local(est, now).strftime("%H:%M"),
                "dice": [f"{die.designation} : {die.get_status_display()}" for die in locked],
                "detail": str(dict(WithdrawReason.CHOICES)[reason]),
                "signatures": [_signature(actor, role)],
                "observations": observations.strip(),
                "withdrawn": _serials(locked),
            },
        )
        return locked


@transaction.atomic
def dice_destruction_plan(
    *,
    establishment: Establishment,
    dice: Sequence[Die],
    planned_at: datetime.datetime,
    actor: AbstractBaseUser,
    method: str = DestructionSession.Method.DESTRUCTION,
) -> DestructionSession:
    """Plan the destruction (FR, MC) or neutralisation (MC) of used or damaged dice."""
    dice = _locked_dice(dice)
    check_destroyable(establishment, dice)
    return destruction_plan(
        domain=DICE, establishment=establishment, method=method, planned_at=planned_at, items=dice, actor=actor
    )


@transaction.atomic
def dice_destruction_complete(
    *,
    session: DestructionSession,
    actor: AbstractBaseUser,
    witness: AbstractBaseUser | None = None,
    inspector: AbstractBaseUser | None = None,
    loaded: bool | None = None,
    tampered: bool | None = None,
    police_service: str = "",
    observations: str = "",
) -> DestructionSession:
    """Destroy (or, MC, neutralise) the planned dice: OUT entries in the intake register.

    MC: the SCJ informed beforehand, an inspecteur present who signs (``inspector``), an SCJ agent
    free to attend (``witness``) (DICE-07). FR: a police officer (``witness``) checks that the dice
    are neither loaded nor tampered with and visas the modèle 19 entries (DICE-19). If he finds a
    loaded or tampered die, nothing is destroyed: a dice anomaly is opened on the planned dice
    (INC-09) and the session stays planned."""
    est = session.establishment
    if session.domain != DICE.code:
        raise ValidationError({"session": _("Cette séance de destruction ne concerne pas les dés.")})
    planned = list(Die.objects.filter(pk__in=session.items.values_list("object_id", flat=True)))
    check_destroyable(est, planned)  # before the register language, so that a refusal reads in the user's
    checks: dict[str, Any] = {}
    if est.jurisdiction == "FR":
        if loaded is None or tampered is None:
            raise RuleViolation(
                "DICE-19",
                _(
                    "Le résultat du contrôle (dés plombés, dés pipés) par le fonctionnaire de "
                    "police doit être consigné."
                ),
            )
        checks = {"loaded": loaded, "tampered": tampered, "police_service": police_service.strip()}
        if loaded or tampered:
            require_role(actor, est, DIRECTION["FR"])
            if witness is None or _signatory(witness, est, (Role.POLICE,)) is None:
                raise RuleViolation("DICE-19", _("Le contrôle des dés est fait par un fonctionnaire de police."))
            with register_language():
                found = " et ".join(str(w) for w, f in ((_("plombés"), loaded), (_("pipés"), tampered)) if f)
                _anomaly(
                    est=est,
                    actor=actor,
                    dice=planned,
                    circumstances=observations,
                    description=str(
                        _(
                            "Destruction du %(date)s suspendue : le fonctionnaire de police %(name)s "
                            "constate des dés %(what)s."
                        )
                        % {
                            "date": _local(est, session.planned_at).strftime("%d/%m/%Y"),
                            "name": display_name(witness),
                            "what": found,
                        }
                    ),
                )
            return session
    elif witness is not None:
        checks = {"scj_agent": display_name(witness)}
    with register_language():
        return destruction_complete(
            session=session,
            domain=DICE,
            actor=actor,
            witness=witness,
            inspector=inspector,
            checks=checks,
            observations=observations,
        )
