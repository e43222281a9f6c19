"""Swaps of dice during play."""

from collections.abc import Sequence

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ledgers.core.authz import require_role, save_audited
from ledgers.core.errors import RuleViolation
from ledgers.core.models import Establishment, TableSession
from ledgers.custody.models import ItemStatus
from ledgers.registers.services import register_language

from ..models import DiceSwap, Die, PlayRole
from ..selectors import allocated_die_ids, dice_at_table
from .common import SWAP_ROLES, _anomaly, _require_dice_table, _serials, _service_entry, _signature, service_register


def swapper_role(actor: AbstractBaseUser, est: Establishment) -> str:
    """The role in which ``actor`` changes dice during play."""
    return require_role(actor, est, SWAP_ROLES[est.jurisdiction])


@transaction.atomic
def dice_swap(
    *,
    session: TableSession,
    brought_in: Sequence[Die],
    reason: str,
    actor: AbstractBaseUser,
    withdrawn: Sequence[Die] = (),
    damaged: Sequence[Die] = (),
    during_rampo_attempt: bool = False,
    observations: str = "",
) -> DiceSwap:
    """Change dice during play. MC: only dice of that table's allocation for the séance come into
    play (DICE-12). FR: only the reserve pair comes into play, in place of the pair in play
    (DICE-26); a pair the table was not given needs a new signed allocation (DICE-21); a swap
    during a rampo attempt is flagged. A damaged (broken) die is set aside as damaged and opens a
    dice anomaly (INC-09)."""
    session = (
        TableSession.objects.select_for_update().select_related("seance__establishment", "table").get(pk=session.pk)
    )
    est = session.seance.establishment
    jurisdiction = est.jurisdiction
    role = swapper_role(actor, est)
    _require_dice_table(session)
    if session.status != TableSession.Status.OPEN:
        raise ValidationError(_("Les dés ne sont changés qu'en cours de partie, table ouverte."))
    if reason not in DiceSwap.Reason.values:
        raise ValidationError({"reason": _("Motif de changement inconnu.")})
    if not brought_in:
        raise ValidationError({"brought_in": _("Indiquez les dés mis en jeu.")})
    allocated = allocated_die_ids(session)
    at_table = {die.pk: die for die in dice_at_table(session).select_for_update(of=("self",))}
    flags: list[dict] = []
    if jurisdiction == "MC":
        for die in brought_in:
            if die.pk not in allocated or die.pk not in at_table:
                raise RuleViolation(
                    "DICE-12",
                    _(
                        "Le dé n° %(die)s n'a pas été alloué à cette table pour cette "
                        "séance : il ne peut être mis en jeu."
                    )
                    % {"die": die.designation},
                )
            if at_table[die.pk].status == ItemStatus.DAMAGED:
                raise RuleViolation(
                    "DICE-12", _("Le dé n° %(die)s est abîmé : il ne peut revenir en jeu.") % {"die": die.designation}
                )
    else:
        if any(die.pk not in allocated for die in brought_in):
            raise RuleViolation(
                "DICE-21",
                _(
                    "Cette paire n'a pas été allouée à la table : une troisième paire suppose "
                    "une nouvelle dotation signée."
                ),
            )
        reserve = {
            pk for pk, die in at_table.items() if die.play_role == PlayRole.RESERVE and die.status != ItemStatus.DAMAGED
        }
        if {die.pk for die in brought_in} != reserve:
            raise RuleViolation("DICE-26", _("Seule la paire de réserve peut remplacer la paire en jeu."))
        in_play = [die for die in at_table.values() if die.play_role == PlayRole.IN_PLAY]
        if withdrawn and {die.pk for die in withdrawn} != {die.pk for die in in_play}:
            raise ValidationError({"withdrawn": _("Au rampo, c'est la paire en jeu qui est retirée.")})
        withdrawn = in_play
        if during_rampo_attempt:
            flags.append({"code": "DICE-26", "text": _("Dés changés pendant une tentative de rampo")})
    withdrawn_ids = {die.pk for die in withdrawn}
    if any(pk not in at_table for pk in withdrawn_ids):
        raise ValidationError({"withdrawn": _("Les dés retirés doivent être en service à cette table.")})
    if withdrawn_ids & {die.pk for die in brought_in}:
        raise ValidationError(_("Un dé ne peut être à la fois retiré et mis en jeu."))
    damaged_ids = {die.pk for die in damaged}
    if not damaged_ids <= withdrawn_ids:
        raise ValidationError({"damaged": _("Seuls des dés retirés peuvent être déclarés abîmés.")})
    if reason == DiceSwap.Reason.DAMAGED and not damaged_ids:
        raise ValidationError({"damaged": _("Indiquez le ou les dés abîmés.")})
    register = service_register(est)
    with register_language():  # what is written in the registers is written in French
        flags = [{**flag, "text": str(flag["text"])} for flag in flags]
        now = timezone.now()
        out = [at_table[pk] for pk in sorted(withdrawn_ids, key=lambda pk: at_table[pk].serial)]
        broken = [die for die in out if die.pk in damaged_ids]
        incident = None
        if broken:
            incident = _anomaly(
                est=est,
                actor=actor,
                dice=broken,
                session=session,
                description=str(
                    _("Dé abîmé ou cassé en cours de partie à la table %(table)s : %(dice)s.")
                    % {"table": session.table.number, "dice": ", ".join(_serials(broken))}
                ),
                circumstances=observations,
            )
        if jurisdiction == "FR":
            for pk in (die.pk for die in brought_in):
                at_table[pk].play_role = PlayRole.IN_PLAY
                save_audited(at_table[pk], actor=actor, reason="mise en jeu")
        broken_pairs = {die.pair_id for die in broken}
        for die in out:
            if die.pk in damaged_ids:
                die.status, die.play_role = ItemStatus.DAMAGED, PlayRole.WITHDRAWN
            elif jurisdiction == "FR":
                die.play_role = PlayRole.WITHDRAWN if die.pair_id in broken_pairs else PlayRole.RESERVE
            else:
                continue
            save_audited(die, actor=actor, reason="changement de dés")
        label = DiceSwap.Reason(reason).label
        entry = _service_entry(
            register,
            session,
            actor=actor,
            role=role,
            event=str(_("Changement de dés")),
            at=now,
            dice=[str(_("retiré : %(d)s") % {"d": die.designation}) for die in out]
            + [str(_("mis en jeu : %(d)s") % {"d": at_table[die.pk].designation}) for die in brought_in],
            detail=str(label) + (str(_(" ; abîmé : %(d)s") % {"d": ", ".join(_serials(broken))}) if broken else ""),
            signatures=[_signature(actor, role)],
            observations=observations.strip(),
            flags=flags,
            reason=reason,
            withdrawn=_serials(out),
            brought_in=_serials(brought_in),
            damaged=_serials(broken),
            incident=incident.pk if incident else None,
        )
        return DiceSwap.objects.create(
            establishment=est,
            table_session=session,
            swapped_at=now,
            recorded_by=actor,
            recorded_role=role,
            reason=reason,
            withdrawn=_serials(out),
            brought_in=_serials(brought_in),
            damaged=_serials(broken),
            during_rampo_attempt=during_rampo_attempt,
            observations=observations.strip(),
            incident=incident,
            entry=entry,
        )
