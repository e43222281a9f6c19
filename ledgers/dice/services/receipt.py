"""Receipt of dice and the FR pairs cap."""

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ledgers.core.authz import require_role, save_audited
from ledgers.core.errors import RuleViolation
from ledgers.core.models import Establishment, Location
from ledgers.core.services import establishment_setting_write
from ledgers.custody.models import ItemStatus, PurchaseOrder, Supplier
from ledgers.custody.services import (
    DIRECTION,
    check_location,
    check_receivable,
    domain_writer_roles,
    intake_record_in,
)
from ledgers.registers.selectors import current_register
from ledgers.registers.services import register_language

from ..domains import CATEGORY, DICE
from ..models import DicePair, Die
from ..rules import CHECKLIST, FR_SIDE_MM, rule
from ..selectors import pairs_held


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


def dice_die_check(*, establishment: Establishment, die: DieInput) -> None:
    """The rules one die entering the stock answers to, whatever brings it in (a receipt, the
    take-over of the existing stock): its marks, its inspection, FR its colour and size
    (DICE-01, DICE-02, DICE-13, DICE-17). Writes nothing."""
    _check_die_input(establishment, die)


def dice_serials_check(*, establishment: Establishment, dice: Sequence[DieInput]) -> None:
    """No numéro d'ordre twice, nor one already held (DICE-02, DICE-13). Writes nothing."""
    serials = [die.serial.strip() for die in dice]
    duplicates = {s for s in serials if serials.count(s) > 1}
    taken = Die.objects.filter(establishment=establishment, serial__in=serials)
    duplicates |= set(taken.values_list("serial", flat=True))
    if duplicates:
        raise RuleViolation(
            rule("marks", establishment.jurisdiction),
            _("Numéro d'ordre déjà pris en charge : %(serials)s.") % {"serials": ", ".join(sorted(duplicates))},
        )


def dice_pairs_check(*, establishment: Establishment, dice: Sequence[DieInput]) -> list[list[DieInput]]:
    """The dice as they enter: FR in pairs of two colours within the Minister's maximum of pairs
    (DICE-13, DICE-14), MC one by one. Writes nothing."""
    if establishment.jurisdiction != "FR":
        return [[die] for die in dice]
    groups = _fr_pairs(dice)
    _check_pairs_cap(establishment, len(groups))
    return groups


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


def receiver_role(actor: AbstractBaseUser, est: Establishment) -> str:
    """The role in which ``actor`` takes dice into the stock: the annex ledger's writers."""
    return require_role(actor, est, domain_writer_roles(DICE, est))


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
    role = receiver_role(actor, establishment)
    if not dice:
        raise ValidationError({"dice": _("Aucun dé à réceptionner.")})
    if location.establishment_id != establishment.pk:
        raise ValidationError({"location": _("Ce dépôt n'appartient pas à cet établissement.")})
    Establishment.objects.select_for_update().get(pk=establishment.pk)  # serialises pair numbering and the cap
    if order is not None:  # its visa and status as they are now, not as the caller last read them
        order = PurchaseOrder.objects.select_for_update().get(pk=order.pk)
    flags = check_receivable(DICE, order, supplier, establishment)  # DICE-15, DICE-16
    check_location(DICE, location)  # DICE-06, DICE-18
    for die in dice:
        _check_die_input(establishment, die)
    dice_serials_check(establishment=establishment, dice=dice)
    groups = dice_pairs_check(establishment=establishment, dice=dice)
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
    """Record the maximum number of pairs the Minister of the Interior allows (SET-14, DICE-14),
    written in the main courante as every change of the establishment's settings."""
    role = require_role(actor, establishment, DIRECTION["FR"])
    if establishment.jurisdiction != "FR":
        raise ValidationError(_("Le maximum de paires de dés ne concerne que les casinos français."))
    if max_pairs < 1 or not reference.strip():
        raise ValidationError(
            _("Le maximum (au moins une paire) et la référence de la décision ministérielle sont obligatoires.")
        )
    establishment = Establishment.objects.select_for_update().get(pk=establishment.pk)
    cap = {"max_pairs": int(max_pairs), "reference": reference.strip()}
    return establishment_setting_write(establishment=establishment, code="SET-14", value=cap, actor=actor, role=role)
