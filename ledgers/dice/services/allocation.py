"""Allocation of dice to a table."""

from collections.abc import Sequence

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ledgers.core.authz import require_role, save_audited
from ledgers.core.errors import RuleViolation, impossible
from ledgers.core.models import Establishment, TableSession
from ledgers.core.roles import Role
from ledgers.custody.models import WITHDRAWN_STATUSES, ItemStatus
from ledgers.incidents.selectors import has_open_incident
from ledgers.registers.services import register_language

from ..models import AllocatedDie, DiceAllocation, DicePair, Die, PlayRole
from ..registers import SERVICE_KIND
from ..rules import FR_PAIRS_PER_SEANCE, MC_DICE_PER_SEANCE, rule
from ..selectors import dice_at_table, regular_allocation, used_at_previous_seance
from .common import _locked_dice, _require_dice_table, _service_entry, _signatory, _signature, service_register


def _check_allocatable(session: TableSession, dice: Sequence[Die]) -> None:
    est = session.seance.establishment
    jurisdiction = est.jurisdiction
    previous = used_at_previous_seance(session) if jurisdiction == "FR" else set()
    for die in dice:
        if die.establishment_id != est.pk:
            raise ValidationError(
                _("Le dé n° %(die)s n'appartient pas à cet établissement.") % {"die": die.designation}
            )
        if die.status == ItemStatus.ISSUED or die.table_session_id:
            raise RuleViolation(
                rule("one_table", jurisdiction),
                _("Le dé n° %(die)s est déjà en service à une table : un dé n'est en service qu'à une seule table.")
                % {"die": die.designation},
            )
        if die.status in WITHDRAWN_STATUSES:
            raise RuleViolation(
                rule("allocation", jurisdiction),
                _("Le dé n° %(die)s est usagé, abîmé ou en attente de destruction.") % {"die": die.designation},
            )
        if die.status != ItemStatus.IN_STOCK or die.location_id is None:
            raise RuleViolation(
                "DICE-06" if jurisdiction == "MC" else "DICE-18",
                _("Le dé n° %(die)s n'est pas en dépôt.") % {"die": die.designation},
            )
        if jurisdiction == "MC" and not die.is_new:
            raise RuleViolation(
                "DICE-08",
                _(
                    "Le dé n° %(die)s a déjà été alloué : seuls des dés neufs sont mis à la "
                    "disposition des tables de craps."
                )
                % {"die": die.designation},
            )
        if die.pk in previous:
            raise RuleViolation(
                "DICE-20",
                _("Le dé n° %(die)s a été utilisé lors de la précédente séance (réglage SET-13).")
                % {"die": die.designation},
            )
        if has_open_incident(die):
            raise RuleViolation(
                "INC-09",
                _("Le dé n° %(die)s fait l'objet d'un incident ouvert : il est en quarantaine.")
                % {"die": die.designation},
            )


def _allocation_lines(
    session: TableSession, *, dice: Sequence[Die], pairs: Sequence[DicePair], supplementary: bool
) -> list[tuple[Die, str]]:
    """(die, role at the table) for the dice requested, once their number is checked."""
    est = session.seance.establishment
    if est.jurisdiction == "MC":
        if pairs:
            raise ValidationError({"pairs": _("Au craps, les dés sont alloués un par un et non par paires.")})
        if not supplementary and len(dice) != MC_DICE_PER_SEANCE:
            raise RuleViolation(
                "DICE-08",
                _("Chaque table de craps reçoit cinq dés neufs par séance (%(n)s proposés).") % {"n": len(dice)},
            )
        if supplementary and not dice:
            raise ValidationError({"dice": _("Une dotation complémentaire porte au moins un dé.")})
        return [(die, PlayRole.SERVICE) for die in _locked_dice(dice)]
    if dice:
        raise ValidationError({"dice": _("Au rampo, les dés sont alloués par paires.")})
    if len({pair.pk for pair in pairs}) != len(pairs):
        raise ValidationError({"pairs": _("Une même paire est citée deux fois.")})
    if not supplementary and len(pairs) != FR_PAIRS_PER_SEANCE:
        raise RuleViolation(
            "DICE-20",
            _(
                "Chaque table de rampo reçoit deux paires de dés par séance, l'une en jeu, "
                "l'autre en réserve (%(n)s proposées)."
            )
            % {"n": len(pairs)},
        )
    if supplementary:
        if len(pairs) != 1:
            raise RuleViolation("DICE-21", _("Une dotation complémentaire apporte une seule paire, mise en réserve."))
        if any(
            die.play_role == PlayRole.RESERVE and die.status != ItemStatus.DAMAGED for die in dice_at_table(session)
        ):
            raise RuleViolation(
                "DICE-21", _("La table dispose encore de sa paire de réserve : pas de troisième paire.")
            )
    lines: list[tuple[Die, str]] = []
    for index, pair in enumerate(pairs):
        members = _locked_dice(list(pair.dice.all()))
        if len(members) != 2 or pair.establishment_id != est.pk:
            raise ValidationError(
                {"pairs": _("La %(pair)s n'est pas une paire complète de cet établissement.") % {"pair": pair}}
            )
        role = PlayRole.IN_PLAY if index == 0 and not supplementary else PlayRole.RESERVE
        lines += [(die, role) for die in members]
    return lines


def allocator_role(actor: AbstractBaseUser, est: Establishment) -> str:
    """The role in which ``actor`` writes a dice allocation: the roles its register names."""
    return require_role(actor, est, SERVICE_KIND[est.jurisdiction].record_roles)


@transaction.atomic
def dice_allocate(
    *,
    session: TableSession,
    actor: AbstractBaseUser,
    signer: AbstractBaseUser | None,
    dice: Sequence[Die] = (),
    pairs: Sequence[DicePair] = (),
    supplementary: bool = False,
    observations: str = "",
) -> DiceAllocation:
    """Put dice in service at a craps (MC) or rampo (FR) table for its séance.

    MC: five new dice (DICE-08), never allocated before, at one table only (DICE-09); FR: two
    pairs, the first in play and the second in reserve (DICE-20, DICE-21), none used at the
    previous séance. The allocation is active only with the signature of the authority SET-15
    names (MC sous-directeur, DICE-10; FR directeur responsable or comité member, DICE-23),
    given by ``signer`` authenticated by the caller. A supplementary allocation during play is
    AMB-08 (MC, per SET-12) or the new signed allocation of DICE-21 (FR)."""
    session = (
        TableSession.objects.select_for_update().select_related("seance__establishment", "table").get(pk=session.pk)
    )
    est = session.seance.establishment
    jurisdiction = est.jurisdiction
    role = allocator_role(actor, est)
    _require_dice_table(session)
    if session.status == TableSession.Status.CLOSED:
        raise impossible(_("Cette table est fermée."))
    flags: list[dict] = []
    has_regular = regular_allocation(session) is not None
    if supplementary:
        if not has_regular or session.status != TableSession.Status.OPEN:
            raise ValidationError(
                _("Une dotation complémentaire suppose une table ouverte, déjà dotée pour la séance.")
            )
        if jurisdiction == "MC":
            if (est.setting("SET-12") or {}).get("supplementary", "flag") == "refuse":
                raise RuleViolation(
                    "DICE-08",
                    _(
                        "Les dotations complémentaires ne sont pas admises (réglage SET-12, "
                        "AMB-08) : cinq dés par table et par séance."
                    ),
                )
            flags.append({"code": "DICE-08", "text": _("Dotation complémentaire en cours de séance (AMB-08)")})
    elif has_regular:
        raise RuleViolation(
            rule("allocation", jurisdiction),
            _(
                "Cette table a déjà reçu sa dotation pour la séance : toute autre dotation est "
                "complémentaire et signée."
            ),
        )
    lines = _allocation_lines(session, dice=dice, pairs=pairs, supplementary=supplementary)
    _check_allocatable(session, [die for die, _role in lines])
    signers = (est.setting("SET-15") or {}).get("allocation", ())
    code = rule("signature", jurisdiction)
    if signer is None:
        raise RuleViolation(
            code,
            _("La dotation n'est active qu'une fois signée par : %(roles)s.")
            % {"roles": ", ".join(str(Role(r).label) for r in signers)},
        )
    signed_role = _signatory(signer, est, signers)
    if signed_role is None:
        raise RuleViolation(
            code,
            _("Seul %(roles)s peut signer la dotation des tables en dés.")
            % {"roles": " ou ".join(str(Role(r).label) for r in signers)},
        )
    register = service_register(est)
    with register_language():  # what is written in the registers is written in French
        flags = [{**flag, "text": str(flag["text"])} for flag in flags]
        now = timezone.now()
        kind = DiceAllocation.Kind.SUPPLEMENTARY if supplementary else DiceAllocation.Kind.REGULAR
        designations = [
            die.designation + (f" — {die.pair} ({PlayRole(line_role).label})" if die.pair_id else "")
            for die, line_role in lines
        ]
        # The dice change before the entry is appended, so that it names them (registers/written.py).
        for die, line_role in lines:
            die.status, die.location, die.table_session = ItemStatus.ISSUED, None, session
            die.play_role, die.services = line_role, die.services + 1
            save_audited(die, actor=actor, reason="dotation")
        entry = _service_entry(
            register,
            session,
            actor=actor,
            role=role,
            event=str(DiceAllocation.Kind(kind).label),
            dice=designations,
            at=now,
            detail=str(_("%(n)s dés neufs") % {"n": len(lines)})
            if jurisdiction == "MC"
            else str(_("%(n)s paire(s)") % {"n": len(lines) // 2}),
            signatures=[_signature(signer, signed_role)],
            observations=observations.strip(),
            flags=flags,
            allocation={
                "kind": kind,
                "signed_by": signer.get_username(),
                "signed_role": signed_role,
                "dice": [
                    {
                        "serial": die.serial,
                        "sigle": die.sigle,
                        "colour": die.colour,
                        "pair": die.pair.number if die.pair_id else None,
                        "role": line_role,
                    }
                    for die, line_role in lines
                ],
            },
        )
        allocation = DiceAllocation.objects.create(
            establishment=est,
            table_session=session,
            kind=kind,
            recorded_at=now,
            recorded_by=actor,
            recorded_role=role,
            signed_by=signer,
            signed_role=signed_role,
            flags=flags,
            observations=observations.strip(),
            entry=entry,
        )
        AllocatedDie.objects.bulk_create(
            [AllocatedDie(allocation=allocation, die=die, role=line_role) for die, line_role in lines]
        )
        return allocation
