"""Writes on dice. Suppliers, purchase orders, depot transfers, the annex ledger, verification and
the destruction steps are the shared custody services called with the ``DICE`` domain; these
services add what only dice have: receipt with its inspection, pairs and cap, allocation per
séance with its signature, swaps, the end-of-séance check, withdrawal, and the destruction
checks of each jurisdiction."""

import datetime
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ledgers.core.authz import require_role, roles_of, save_audited
from ledgers.core.errors import RuleViolation, impossible
from ledgers.core.models import Establishment, Location, TableSession
from ledgers.core.roles import Role
from ledgers.custody.models import WITHDRAWN_STATUSES, DestructionSession, ItemStatus, PurchaseOrder, Supplier
from ledgers.custody.services import (
    DIRECTION,
    check_location,
    check_receivable,
    destruction_complete,
    destruction_plan,
    domain_writer_roles,
    intake_record_in,
)
from ledgers.incidents.categories import DICE_ANOMALY
from ledgers.incidents.models import Incident
from ledgers.incidents.selectors import has_open_incident
from ledgers.incidents.services import incident_open
from ledgers.registers.models import Entry, Register
from ledgers.registers.selectors import current_register
from ledgers.registers.services import display_name, entry_append, register_language

from .domains import CATEGORY, DICE, check_destroyable
from .models import AllocatedDie, DiceAllocation, DiceCheck, DicePair, DiceSwap, Die, PlayRole
from .registers import SERVICE_KIND
from .rules import CHECKLIST, DICE_GAME, FR_PAIRS_PER_SEANCE, FR_SIDE_MM, MC_DICE_PER_SEANCE, rule
from .selectors import allocated_die_ids, dice_at_table, pairs_held, regular_allocation, used_at_previous_seance

# Who changes dice during play: MC the chef de table (DICE-12, 000 art. 6.2), FR the table's staff.
SWAP_ROLES = {
    "MC": (Role.CHEF_TABLE, Role.INSPECTEUR, Role.SOUS_DIRECTEUR),
    "FR": (Role.CHEF_TABLE, Role.DIRECTEUR_RESPONSABLE, Role.COMITE),
}


# --- helpers ------------------------------------------------------------------------------------


def _local(est: Establishment, moment: datetime.datetime) -> datetime.datetime:
    return est.localtime(moment)


def _signatory(user: AbstractBaseUser, est: Establishment, allowed: Sequence[str]) -> str | None:
    """The role among ``allowed`` in which ``user`` signs here, or None."""
    held = roles_of(user, est)
    return next((str(role) for role in allowed if role in held), None)


def _signature(user: AbstractBaseUser, role: str) -> str:
    return f"{display_name(user)} — {Role(role).label}"


def service_register(est: Establishment) -> Register:
    """The open volume of the dice-in-service register (MC REG-05, FR REG-08). Under MC, SET-26
    (AMB-36, default on) requires it to be coté et paraphé by the Commissaire du Gouvernement."""
    register = current_register(est, SERVICE_KIND[est.jurisdiction].code)
    if est.jurisdiction == "MC" and (est.setting("SET-26") or {}).get("dice_service_paraphe"):
        opened_by = register.entries.filter(kind="opening").values_list("role", flat=True).first()
        if opened_by != Role.COMMISSAIRE:
            raise RuleViolation(
                "REG-05",
                _(
                    "Le registre des dés en service doit être coté et paraphé par le "
                    "Commissaire du Gouvernement (réglage SET-26)."
                ),
            )
    return register


def _service_entry(
    register: Register,
    session: TableSession,
    *,
    actor: AbstractBaseUser,
    role: str,
    event: str,
    dice: list[str],
    at: datetime.datetime,
    **extra: Any,
) -> Entry:
    """One line of the dice-in-service register: date, séance, table and time always (DICE-09, DICE-22)."""
    est = session.seance.establishment
    payload = {
        "event": event,
        "date": session.seance.date.isoformat(),
        "seance": str(session.seance.get_period_display()),
        "table": session.table.number,
        "time": _local(est, at).strftime("%H:%M"),
        "dice": dice,
        "detail": "",
        "signatures": [],
        "observations": "",
        **extra,
    }
    return entry_append(register=register, actor=actor, role=role, payload=payload)


def _require_dice_table(session: TableSession) -> None:
    jurisdiction = session.seance.establishment.jurisdiction
    if session.table.game != DICE_GAME[jurisdiction]:
        raise ValueError(
            _("La table %(table)s n'est pas une table de %(game)s.")
            % {"table": session.table, "game": DICE_GAME[jurisdiction]}
        )


def _locked_dice(dice: Sequence[Die]) -> list[Die]:
    ids = [die.pk for die in dice]
    if len(set(ids)) != len(ids):
        raise ValueError(_("Un même dé est cité deux fois."))
    return list(Die.objects.select_for_update(of=("self",)).filter(pk__in=ids).order_by("pair__number", "serial"))


def _serials(dice: Sequence[Die]) -> list[str]:
    return [die.serial for die in dice]


def _anomaly(
    *,
    est: Establishment,
    actor: AbstractBaseUser,
    dice: Sequence[Die],
    description: str,
    session: TableSession | None = None,
    circumstances: str = "",
) -> Incident:
    """A dice anomaly (INC-09): the dice concerned are quarantined until the incident is closed."""
    return incident_open(
        establishment=est,
        category=DICE_ANOMALY.code,
        actor=actor,
        subjects=list(dice),
        table_session=session,
        description=description,
        circumstances=circumstances,
    )


# --- receipt ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class DieInput:
    """One die as the receiving employee reads and inspects it."""

    serial: str
    sigle: str
    colour: str = ""
    side_mm: Decimal | None = None
    inspection: dict[str, bool] = field(default_factory=dict)
    pair: str = ""  # FR: the two dice sharing this key form a pair


def _check_die_input(est: Establishment, die: DieInput) -> None:
    jurisdiction = est.jurisdiction
    if not die.serial.strip() or not die.sigle.strip():
        raise RuleViolation(
            rule("marks", jurisdiction),
            _("Chaque dé porte un numéro d'ordre du fournisseur et le sigle du casino : les deux sont obligatoires."),
        )
    failed = [str(label) for key, label in CHECKLIST.items() if not die.inspection.get(key)]
    if failed:
        raise RuleViolation(
            rule("shape", jurisdiction),
            _("Dé n° %(serial)s refusé (à retourner au fournisseur) : %(failed)s.")
            % {"serial": die.serial, "failed": ", ".join(failed)},
        )
    if jurisdiction == "FR":
        if not die.colour.strip():
            raise RuleViolation(
                "DICE-17",
                _("La couleur du dé n° %(serial)s est à reporter au carnet modèle 19.") % {"serial": die.serial},
            )
        low, high = FR_SIDE_MM
        if die.side_mm is None or not low <= die.side_mm <= high:
            raise RuleViolation(
                "DICE-13",
                _("Dé n° %(serial)s refusé : le côté doit mesurer de 20 à 25 mm (mesuré : %(side)s).")
                % {"serial": die.serial, "side": die.side_mm},
            )


def _fr_pairs(dice: Sequence[DieInput]) -> list[list[DieInput]]:
    groups: dict[str, list[DieInput]] = defaultdict(list)
    for die in dice:
        groups[die.pair.strip()].append(die)
    for key, group in groups.items():
        if not key or len(group) != 2:
            raise RuleViolation(
                "DICE-13", _("Le rampo se joue avec des paires : chaque dé reçu appartient à une paire de deux dés.")
            )
        if group[0].colour.strip().lower() == group[1].colour.strip().lower():
            raise RuleViolation(
                "DICE-13",
                _("Les deux dés d'une paire doivent être de couleurs différentes (dés n° %(a)s et %(b)s).")
                % {"a": group[0].serial, "b": group[1].serial},
            )
    return list(groups.values())


def _check_pairs_cap(est: Establishment, incoming: int) -> None:
    cap = est.setting("SET-14") or {}
    maximum = cap.get("max_pairs")
    if maximum is None:
        raise RuleViolation(
            "DICE-14",
            _(
                "Le nombre maximal de paires de dés fixé par le ministre de l'intérieur n'est "
                "pas renseigné (réglage SET-14) : aucune réception possible."
            ),
        )
    held = pairs_held(est)
    if held + incoming > maximum:
        raise RuleViolation(
            "DICE-14",
            _(
                "Réception refusée : %(held)s paires détenues + %(incoming)s reçues "
                "dépassent le maximum de %(max)s paires fixé par le ministre (%(ref)s)."
            )
            % {"held": held, "incoming": incoming, "max": maximum, "ref": cap.get("reference", "")},
        )


@transaction.atomic
def dice_receive(
    *,
    establishment: Establishment,
    location: Location,
    dice: Sequence[DieInput],
    actor: AbstractBaseUser,
    order: PurchaseOrder | None = None,
    supplier: Supplier | None = None,
    delivery_note: str = "",
) -> list[Die]:
    """Receive inspected dice into a depot and copy them into the intake register (MC prise en
    charge, DICE-03; FR carnet modèle 19, DICE-17) in the same transaction."""
    role = require_role(actor, establishment, domain_writer_roles(DICE, establishment))
    if not dice:
        raise ValueError(_("Aucun dé à réceptionner."))
    if location.establishment_id != establishment.pk:
        raise ValueError(_("Ce dépôt n'appartient pas à cet établissement."))
    Establishment.objects.select_for_update().get(pk=establishment.pk)  # serialises pair numbering and the cap
    if order is not None:  # its visa and status as they are now, not as the caller last read them
        order = PurchaseOrder.objects.select_for_update().get(pk=order.pk)
    flags = check_receivable(DICE, order, supplier, establishment)  # DICE-15, DICE-16
    check_location(DICE, location)  # DICE-06, DICE-18
    serials = [die.serial.strip() for die in dice]
    for die in dice:
        _check_die_input(establishment, die)
    duplicates = {s for s in serials if serials.count(s) > 1}
    taken = Die.objects.filter(establishment=establishment, serial__in=serials)
    duplicates |= set(taken.values_list("serial", flat=True))
    if duplicates:
        raise RuleViolation(
            rule("marks", establishment.jurisdiction),
            _("Numéro d'ordre déjà pris en charge : %(serials)s.") % {"serials": ", ".join(sorted(duplicates))},
        )
    groups = [[die] for die in dice]
    if establishment.jurisdiction == "FR":
        groups = _fr_pairs(dice)
        _check_pairs_cap(establishment, len(groups))
    current_register(establishment, *DICE.intake_register(establishment, CATEGORY))
    with register_language():  # what is written in the registers is written in French
        now = timezone.now()
        next_pair = (
            DicePair.objects.filter(establishment=establishment)
            .order_by("-number")
            .values_list("number", flat=True)
            .first()
            or 0
        ) + 1
        source = supplier or (order.supplier if order else None)
        created: list[Die] = []
        for group in groups:
            pair = None
            if establishment.jurisdiction == "FR":
                pair = DicePair.objects.create(establishment=establishment, number=next_pair, created_at=now)
                next_pair += 1
            for item in group:
                die = Die(
                    establishment=establishment,
                    serial=item.serial.strip(),
                    sigle=item.sigle.strip(),
                    colour=item.colour.strip(),
                    side_mm=item.side_mm,
                    inspection={k: True for k in CHECKLIST},
                    pair=pair,
                    supplier=source,
                    category=CATEGORY,
                    status=ItemStatus.IN_STOCK,
                    location=location,
                    purchase_order=order,
                    received_at=now,
                )
                created.append(save_audited(die, actor=actor, reason="réception"))
        details = [die.designation + (f" — {die.pair}" if die.pair_id else "") for die in created]
        intake_record_in(
            domain=DICE,
            establishment=establishment,
            items=created,
            actor=actor,
            role=role,
            order=order,
            delivery_note=delivery_note,
            flags=flags,
            details={CATEGORY: details},
        )
        return created


@transaction.atomic
def dice_pairs_cap_set(
    *, establishment: Establishment, max_pairs: int, reference: str, actor: AbstractBaseUser
) -> Establishment:
    """Record the maximum number of pairs the Minister of the Interior allows (SET-14, DICE-14)."""
    require_role(actor, establishment, DIRECTION["FR"])
    if establishment.jurisdiction != "FR":
        raise ValueError(_("Le maximum de paires de dés ne concerne que les casinos français."))
    if max_pairs < 1 or not reference.strip():
        raise ValueError(
            _("Le maximum (au moins une paire) et la référence de la décision ministérielle sont obligatoires.")
        )
    establishment = Establishment.objects.select_for_update().get(pk=establishment.pk)
    establishment.options = {
        **establishment.options,
        "SET-14": {"max_pairs": int(max_pairs), "reference": reference.strip()},
    }
    return save_audited(establishment, actor=actor, reason="maximum de paires de dés (SET-14)")


# --- allocation --------------------------------------------------------------------------------


def _check_allocatable(session: TableSession, dice: Sequence[Die]) -> None:
    est = session.seance.establishment
    jurisdiction = est.jurisdiction
    previous = used_at_previous_seance(session) if jurisdiction == "FR" else set()
    for die in dice:
        if die.establishment_id != est.pk:
            raise ValueError(_("Le dé n° %(die)s n'appartient pas à cet établissement.") % {"die": die.designation})
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
            raise ValueError(_("Au craps, les dés sont alloués un par un et non par paires."))
        if not supplementary and len(dice) != MC_DICE_PER_SEANCE:
            raise RuleViolation(
                "DICE-08",
                _("Chaque table de craps reçoit cinq dés neufs par séance (%(n)s proposés).") % {"n": len(dice)},
            )
        if supplementary and not dice:
            raise ValueError(_("Une dotation complémentaire porte au moins un dé."))
        return [(die, PlayRole.SERVICE) for die in _locked_dice(dice)]
    if dice:
        raise ValueError(_("Au rampo, les dés sont alloués par paires."))
    if len({pair.pk for pair in pairs}) != len(pairs):
        raise ValueError(_("Une même paire est citée deux fois."))
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
            raise ValueError(_("La %(pair)s n'est pas une paire complète de cet établissement.") % {"pair": pair})
        role = PlayRole.IN_PLAY if index == 0 and not supplementary else PlayRole.RESERVE
        lines += [(die, role) for die in members]
    return lines


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
    role = require_role(actor, est, SERVICE_KIND[jurisdiction].record_roles)
    _require_dice_table(session)
    if session.status == TableSession.Status.CLOSED:
        raise impossible(_("Cette table est fermée."))
    flags: list[dict] = []
    has_regular = regular_allocation(session) is not None
    if supplementary:
        if not has_regular or session.status != TableSession.Status.OPEN:
            raise ValueError(_("Une dotation complémentaire suppose une table ouverte, déjà dotée pour la séance."))
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
        for die, line_role in lines:
            die.status, die.location, die.table_session = ItemStatus.ISSUED, None, session
            die.play_role, die.services = line_role, die.services + 1
            save_audited(die, actor=actor, reason="dotation")
        return allocation


# --- swaps during play ----------------------------------------------------------------------


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
    role = require_role(actor, est, SWAP_ROLES[jurisdiction])
    _require_dice_table(session)
    if session.status != TableSession.Status.OPEN:
        raise ValueError(_("Les dés ne sont changés qu'en cours de partie, table ouverte."))
    if reason not in DiceSwap.Reason.values:
        raise ValueError(_("Motif de changement inconnu."))
    if not brought_in:
        raise ValueError(_("Indiquez les dés mis en jeu."))
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
            raise ValueError(_("Au rampo, c'est la paire en jeu qui est retirée."))
        withdrawn = in_play
        if during_rampo_attempt:
            flags.append({"code": "DICE-26", "text": _("Dés changés pendant une tentative de rampo")})
    withdrawn_ids = {die.pk for die in withdrawn}
    if any(pk not in at_table for pk in withdrawn_ids):
        raise ValueError(_("Les dés retirés doivent être en service à cette table."))
    if withdrawn_ids & {die.pk for die in brought_in}:
        raise ValueError(_("Un dé ne peut être à la fois retiré et mis en jeu."))
    damaged_ids = {die.pk for die in damaged}
    if not damaged_ids <= withdrawn_ids:
        raise ValueError(_("Seuls des dés retirés peuvent être déclarés abîmés."))
    if reason == DiceSwap.Reason.DAMAGED and not damaged_ids:
        raise ValueError(_("Indiquez le ou les dés abîmés."))
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


# --- end-of-séance check ---------------------------------------------------------------------


class Result:
    OK = "ok"
    ANOMALY = "anomaly"
    MISSING = "missing"
    CHOICES = ((OK, _("Conforme")), (ANOMALY, _("Anomalie (abîmé, suspect)")), (MISSING, _("Manquant")))


@dataclass(frozen=True)
class DieResult:
    """The check of one die. MC: ``result``. FR: the micrometer reading (mm), the square and the
    balancing caliper results (DICE-24); ``result`` "missing" when the die is not there."""

    die: Die
    result: str = Result.OK
    micrometer: str = ""
    square_ok: bool | None = None
    balance_ok: bool | None = None
    remark: str = ""


def _fr_result(die: Die, result: DieResult) -> dict:
    if result.result == Result.MISSING:
        return {"passed": False, "micrometer": "", "square": None, "balance": None}
    try:
        measured = Decimal(result.micrometer.replace(",", ".").strip())
    except (InvalidOperation, AttributeError):
        measured = None
    if measured is None or result.square_ok is None or result.balance_ok is None:
        raise RuleViolation(
            "DICE-24",
            _(
                "Le dé n° %(die)s doit être contrôlé au micromètre, à l'équerre et au "
                "« balancing caliper » : les trois résultats sont obligatoires."
            )
            % {"die": die.designation},
        )
    low, high = FR_SIDE_MM
    passed = low <= measured <= high and result.square_ok and result.balance_ok and result.result == Result.OK
    return {
        "passed": bool(passed),
        "micrometer": f"{measured}",
        "square": result.square_ok,
        "balance": result.balance_ok,
    }


def _mark(value: bool | None) -> str:
    return "—" if value is None else ("✓" if value else "✗")


def _verdict(row: dict, labels: dict) -> str:
    if row["passed"]:
        return str(_("conforme"))
    return str(labels[row["result"]]) if row["result"] != Result.OK else str(_("non conforme"))


@transaction.atomic
def dice_end_check(
    *,
    session: TableSession,
    results: Sequence[DieResult],
    actor: AbstractBaseUser,
    return_to: Location,
    observations: str = "",
    cosigner: AbstractBaseUser | None = None,
    instruments: dict[str, str] | None = None,
) -> DiceCheck:
    """The end-of-séance check of every die at the table, written in the dice-in-service register.

    MC: done and signed by the sous-directeur, with a result per die and his observations
    (DICE-11); the checked dice become used and join the destruction queue (DICE-08). FR:
    micrometer, square and balancing-caliper results per die with the instruments used (DICE-24),
    signed by the directeur responsable or a comité member (``actor``) and the chef de table
    (``cosigner``, authenticated by the caller) (DICE-25); dice that pass go back to the cabinet.
    A failed or missing die opens a dice anomaly (INC-09); failed dice are set to damaged."""
    session = (
        TableSession.objects.select_for_update().select_related("seance__establishment", "table").get(pk=session.pk)
    )
    est = session.seance.establishment
    jurisdiction = est.jurisdiction
    _require_dice_table(session)
    if session.status == TableSession.Status.CLOSED:
        raise impossible(_("Cette table est fermée."))
    if DiceCheck.objects.filter(table_session=session).exists():
        raise RuleViolation(
            "DICE-11" if jurisdiction == "MC" else "DICE-25", _("Les dés de cette table ont déjà été contrôlés.")
        )
    if regular_allocation(session) is None:
        raise ValueError(_("Aucun dé n'a été alloué à cette table."))
    signatories = est.setting("SET-15") or {}
    code = rule("end_check", jurisdiction)
    role = _signatory(actor, est, signatories.get("end_check", ()))
    if role is None:
        raise RuleViolation(
            code,
            _("Le contrôle de fin de séance est effectué et signé par : %(roles)s.")
            % {"roles": ", ".join(str(Role(r).label) for r in signatories.get("end_check", ()))},
        )
    signatures = [_signature(actor, role)]
    cosigner_role = ""
    instruments = {key: (value or "").strip() for key, value in (instruments or {}).items()}
    if jurisdiction == "FR":
        if cosigner is None or cosigner.pk == actor.pk:
            raise RuleViolation(
                "DICE-25",
                _(
                    "Le contrôle porte les noms et signatures du chef de table et du "
                    "directeur ou du membre du comité de direction."
                ),
            )
        cosigner_role = _signatory(cosigner, est, signatories.get("end_check_table", ())) or ""
        if not cosigner_role:
            raise RuleViolation("DICE-25", _("La seconde signature est celle du chef de table."))
        signatures.append(_signature(cosigner, cosigner_role))
        if not all(instruments.get(key) for key in ("micrometer", "square", "balance")):
            raise RuleViolation("DICE-24", _("Indiquez le micromètre, l'équerre et le « balancing caliper » utilisés."))
    check_location(DICE, return_to)
    at_table = {die.pk: die for die in dice_at_table(session).select_for_update(of=("self",))}
    given = {result.die.pk: result for result in results}
    if len(given) != len(results) or set(given) - set(at_table):
        raise ValueError(_("Les résultats portent sur les dés en service à cette table, une fois chacun."))
    unchecked = [die for pk, die in at_table.items() if pk not in given]
    if unchecked:
        raise RuleViolation(
            rule("end_results", jurisdiction),
            _("Chaque dé en service est contrôlé ; sans résultat : %(dice)s.")
            % {"dice": ", ".join(_serials(unchecked))},
        )
    rows, failed, missing = [], [], []
    for pk, die in sorted(at_table.items(), key=lambda item: (item[1].pair_id or 0, item[1].serial)):
        result = given[pk]
        if result.result not in (Result.OK, Result.ANOMALY, Result.MISSING):
            raise ValueError(_("Résultat inconnu pour le dé n° %(die)s.") % {"die": die.designation})
        row = {
            "serial": die.serial,
            "sigle": die.sigle,
            "colour": die.colour,
            "result": result.result,
            "remark": result.remark.strip(),
        }
        row.update(_fr_result(die, result) if jurisdiction == "FR" else {"passed": result.result == Result.OK})
        rows.append(row)
        if result.result == Result.MISSING:
            missing.append(die)
        elif not row["passed"]:
            failed.append(die)
    register = service_register(est)
    with register_language():  # what is written in the registers is written in French
        now = timezone.now()
        incident = None
        if failed or missing:
            incident = _anomaly(
                est=est,
                actor=actor,
                dice=failed + missing,
                session=session,
                circumstances=observations,
                description=str(
                    _(
                        "Contrôle de fin de séance à la table %(table)s : dés non conformes %(failed)s ; dés "
                        "manquants %(missing)s."
                    )
                    % {
                        "table": session.table.number,
                        "failed": ", ".join(_serials(failed)) or "—",
                        "missing": ", ".join(_serials(missing)) or "—",
                    }
                ),
            )
        used_status = ItemStatus.OUT_OF_USE if jurisdiction == "MC" else ItemStatus.IN_STOCK
        for die in at_table.values():
            if die in missing:
                continue  # stays recorded at the table it was last seen at; the incident quarantines it
            if die in failed or die.status == ItemStatus.DAMAGED:
                die.status = ItemStatus.DAMAGED
            else:
                die.status = used_status
            die.location, die.table_session, die.play_role = return_to, None, ""
            save_audited(die, actor=actor, reason="contrôle de fin de séance")
        result_labels = dict(Result.CHOICES)
        if jurisdiction == "FR":
            detail = str(
                _("micromètre %(m)s, équerre %(s)s, balancing caliper %(b)s")
                % {"m": instruments["micrometer"], "s": instruments["square"], "b": instruments["balance"]}
            )
            lines = [
                str(
                    _("%(die)s : %(mm)s mm, équerre %(square)s, équilibre %(balance)s — %(verdict)s")
                    % {
                        "die": f"{r['serial']} / {r['sigle']} / {r['colour']}",
                        "mm": r["micrometer"] or "—",
                        "square": _mark(r["square"]),
                        "balance": _mark(r["balance"]),
                        "verdict": _verdict(r, result_labels),
                    }
                )
                for r in rows
            ]
        else:
            detail = str(_("%(ok)s conformes sur %(n)s") % {"ok": sum(r["passed"] for r in rows), "n": len(rows)})
            lines = [f"{r['serial']} / {r['sigle']} : {result_labels[r['result']]}" for r in rows]
        entry = _service_entry(
            register,
            session,
            actor=actor,
            role=role,
            event=str(_("Contrôle de fin de séance")),
            at=now,
            dice=lines,
            detail=detail,
            signatures=signatures,
            observations=observations.strip(),
            results=rows,
            instruments=instruments,
            incident=incident.pk if incident else None,
            returned_to=return_to.name,
        )
        return DiceCheck.objects.create(
            establishment=est,
            table_session=session,
            checked_at=now,
            checker=actor,
            checker_role=role,
            cosigner=cosigner if jurisdiction == "FR" else None,
            cosigner_role=cosigner_role,
            results=rows,
            instruments=instruments,
            observations=observations.strip(),
            incident=incident,
            entry=entry,
        )


# --- withdrawal and destruction ----------------------------------------------------------------


class WithdrawReason:
    USED = "used"
    DAMAGED = "damaged"
    CHOICES = ((USED, _("Usagé")), (DAMAGED, _("Abîmé")))


@transaction.atomic
def dice_withdraw(*, dice: Sequence[Die], reason: str, actor: AbstractBaseUser, observations: str = "") -> list[Die]:
    """Declare dice in a depot used or damaged: they join the destruction queue. A rampo pair is
    used together, so withdrawing one die withdraws its pair (the partner as used)."""
    if not dice:
        raise ValueError(_("Aucun dé à retirer."))
    est = dice[0].establishment
    keepers = dict.fromkeys((*domain_writer_roles(DICE, est), *DIRECTION[est.jurisdiction]))
    role = require_role(actor, est, tuple(keepers))
    if reason not in (WithdrawReason.USED, WithdrawReason.DAMAGED):
        raise ValueError(_("Motif de retrait inconnu."))
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
        entry_append(
            register=register,
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
        raise ValueError(_("Cette séance de destruction ne concerne pas les dés."))
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
