"""Receipt of cards into the intake registers (CARD-01 to CARD-05, CARD-26 to CARD-28)."""

import datetime
from collections.abc import Sequence
from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ledgers.core.authz import require_role, save_audited
from ledgers.core.errors import RuleViolation
from ledgers.core.models import Establishment, Location
from ledgers.custody import services as custody
from ledgers.custody.models import (
    PurchaseOrder,
    Supplier,
)

from ..domains import CARDS, rule_id
from ..models import (
    DECKS_IN,
    CardUnit,
    UnitType,
)
from .common import RECEIVERS


@dataclass(frozen=True)
class ReceivedDeck:
    serial: str
    back_colour: str


@dataclass(frozen=True)
class ReceivedUnit:
    """A unit as delivered: a sixain or huitain with its decks, or a single deck."""

    unit_type: str
    serial: str = ""
    back_colour: str = ""  # a single deck's colour
    decks: tuple[ReceivedDeck, ...] = ()
    plain_back: bool = True
    design: str = ""
    hidden_mark: bool = False
    hidden_mark_description: str = ""
    unnumbered: bool = False  # MC banque à tout va "non numérotées" (AMB-05)


@transaction.atomic
def cards_receive(
    *,
    establishment: Establishment,
    location: Location,
    supplier: Supplier,
    units: Sequence[ReceivedUnit],
    actor: AbstractBaseUser,
    order: PurchaseOrder | None = None,
    delivery_note: str = "",
) -> list[CardUnit]:
    """Receive cards against a purchase order: create the units and write the IN entries of the
    intake register (MC registre de prise en charge per category, FR carnet modèle 19)."""
    est = establishment
    role = require_role(actor, est, RECEIVERS[est.jurisdiction])  # CARD-03: the cartier (MC)
    if not units:
        raise ValidationError({"units": _("La réception porte au moins une unité.")})
    if supplier.establishment_id != est.pk or supplier.domain != CARDS.code:
        raise ValidationError(
            {"supplier": _("Ce fournisseur n'est pas enregistré pour les cartes dans cet établissement.")}
        )
    if order is not None:
        order = PurchaseOrder.objects.select_for_update().get(pk=order.pk)
    if order is not None and order.supplier_id != supplier.pk:
        raise ValidationError({"order": _("Le bon de commande a été établi pour un autre fournisseur.")})
    flags = custody.check_receivable(CARDS, order, supplier, est)  # CARD-32, CARD-33; CARD-03 flag
    custody.check_location(CARDS, location)  # CARD-08 / CARD-28
    Establishment.objects.select_for_update().get(pk=est.pk)  # serialises internal numbering
    for spec in units:
        _check_received(est, spec)
    _check_duplicates(est, supplier, units)
    now, created, details = timezone.now(), [], {}
    for spec in units:
        unit, unit_flags = _create_unit(
            est, spec, supplier=supplier, order=order, location=location, now=now, actor=actor
        )
        flags += unit_flags
        created.append(unit)
        decks = unit.decks()
        line = unit.serial
        if unit.unit_type != UnitType.DECK:
            colours = " + ".join(f"{n}" for n in unit.colours())
            line += " : " + ", ".join(f"{d.serial} ({d.back_colour})" for d in decks) + f" [{colours}]"
        else:
            line += f" ({unit.back_colour})"
        details.setdefault(unit.category, []).append(line)
    custody.intake_record_in(
        domain=CARDS,
        establishment=est,
        items=created,
        actor=actor,
        role=role,
        order=order,
        delivery_note=delivery_note,
        flags=flags,
        details=details,
    )
    return created


def cards_unit_check(*, establishment: Establishment, unit: ReceivedUnit) -> None:
    """The rules a unit entering the stock answers to, whatever brings it in (a receipt, the
    take-over of the existing stock): its type, numbers and backs (CARD-02, CARD-25, CARD-26).
    Writes nothing."""
    _check_received(establishment, unit)


def cards_serials_check(*, establishment: Establishment, supplier: Supplier, units: Sequence[ReceivedUnit]) -> None:
    """No numéro d'ordre twice, nor one already held for this manufacturer (CARD-02, CARD-26).
    Writes nothing."""
    _check_duplicates(establishment, supplier, units)


def _check_received(est: Establishment, spec: ReceivedUnit) -> None:
    mc = est.jurisdiction == "MC"
    if spec.unit_type not in DECKS_IN:
        raise ValidationError({"units": _("Type d'unité inconnu : %(t)s.") % {"t": spec.unit_type}})
    if not mc:
        if spec.unit_type != UnitType.SIXAIN:
            raise RuleViolation("CARD-25", _("En France les cartes sont reçues groupées en sixains."))
        if not spec.plain_back:
            raise RuleViolation("CARD-25", _("Les cartes doivent être d'un tarotage à teinte unie."))
        if spec.unnumbered:
            raise RuleViolation("CARD-26", _("Chaque jeu porte le numéro d'ordre attribué par le fabricant."))
    numbered = not spec.unnumbered
    if numbered and not spec.serial.strip():
        raise RuleViolation(
            rule_id(est, "CARD-03", "CARD-26"),
            _("Le numéro d'ordre du fabricant est obligatoire pour chaque unité reçue."),
        )
    expected = DECKS_IN[spec.unit_type]
    if spec.unit_type == UnitType.DECK:
        if spec.decks:
            raise ValidationError({"units": _("Un jeu à l'unité n'a pas de jeux membres.")})
        if not spec.back_colour.strip():
            raise ValidationError({"units": _("Indiquez la couleur du dos du jeu.")})
        return
    if len(spec.decks) != expected:
        raise RuleViolation(
            rule_id(est, "CARD-02", "CARD-25"),
            _("Un %(type)s compte exactement %(n)s jeux ; %(got)s indiqués.")
            % {"type": UnitType(spec.unit_type).label.lower(), "n": expected, "got": len(spec.decks)},
        )
    for deck in spec.decks:
        if numbered and not deck.serial.strip():
            raise RuleViolation(
                rule_id(est, "CARD-02", "CARD-26"),
                _("Chaque jeu du %(type)s porte son numéro d'ordre.")
                % {"type": UnitType(spec.unit_type).label.lower()},
            )
        if not deck.back_colour.strip():
            raise ValidationError({"units": _("Indiquez la couleur du dos de chaque jeu.")})


def _check_duplicates(est: Establishment, supplier: Supplier, units: Sequence[ReceivedUnit]) -> None:
    serials = [
        s.strip() for spec in units if not spec.unnumbered for s in (spec.serial, *(d.serial for d in spec.decks))
    ]
    seen, dupes = set(), set()
    for s in serials:
        (dupes if s in seen else seen).add(s)
    dupes |= set(
        CardUnit.objects.filter(establishment=est, supplier=supplier, serial__in=serials).values_list(
            "serial", flat=True
        )
    )
    if dupes:
        raise RuleViolation(
            rule_id(est, "CARD-02", "CARD-26"),
            _("Numéro(s) d'ordre déjà pris en charge pour ce fabricant : %(s)s.") % {"s": ", ".join(sorted(dupes))},
        )


def _create_unit(
    est: Establishment,
    spec: ReceivedUnit,
    *,
    supplier: Supplier,
    order: PurchaseOrder | None,
    location: Location,
    now: datetime.datetime,
    actor: AbstractBaseUser,
) -> tuple[CardUnit, list[dict]]:
    flags = []
    serial = spec.serial.strip()
    if spec.unnumbered:  # AMB-05: an internal tracking number, flagged
        n = CardUnit.objects.filter(establishment=est, internal_serial=True, parent__isnull=True).count() + 1
        serial = f"INT-{now:%Y%m%d}-{n:04d}"
        flags.append(
            {
                "code": "CARD-02",
                "text": str(_("%(s)s : sixain non numéroté, numéro interne attribué (AMB-05).") % {"s": serial}),
            }
        )
    common = {
        "establishment": est,
        "supplier": supplier,
        "category": spec.unit_type,
        "purchase_order": order,
        "received_at": now,
        "plain_back": spec.plain_back,
        "design": spec.design.strip(),
        "hidden_mark": spec.hidden_mark,
        "hidden_mark_description": spec.hidden_mark_description.strip(),
        "internal_serial": spec.unnumbered,
    }
    unit = save_audited(
        CardUnit(
            serial=serial,
            unit_type=spec.unit_type,
            location=location,
            back_colour=spec.back_colour.strip() if spec.unit_type == UnitType.DECK else "",
            **common,
        ),
        actor=actor,
        reason="réception",
    )
    for position, deck in enumerate(spec.decks, start=1):
        deck_serial = f"{serial}-{position}" if spec.unnumbered else deck.serial.strip()
        save_audited(
            CardUnit(
                serial=deck_serial,
                unit_type=UnitType.DECK,
                parent=unit,
                position=position,
                back_colour=deck.back_colour.strip(),
                **common,
            ),
            actor=actor,
            reason="réception",
        )
    return unit, flags
