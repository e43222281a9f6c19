"""Damaged cards (CARD-16) and new shuffles (CARD-23)."""

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ledgers.core.authz import require_role, save_audited
from ledgers.core.errors import RuleViolation
from ledgers.core.models import Establishment, Room, Seance, TableSession
from ledgers.custody import services as custody
from ledgers.custody.models import (
    GONE_STATUSES,
    WITHDRAWN_STATUSES,
    ItemStatus,
)

from .. import selectors
from ..domains import rule_id
from ..models import (
    CardEvent,
    CardExchange,
    CardUnit,
    Condition,
    ReplacementSixain,
    UnitType,
)
from .common import (
    DESIGNATORS,
    EXCHANGERS,
    WITHDRAWERS,
    Kind,
    _Act,
    _lock,
    _person,
    _quarantined,
    _refuse_mc,
    _set,
    _to_main_depot,
    _write,
    best_practice,
)


def _exchange_allowed(est: Establishment) -> None:
    if not best_practice(est, "CARD-16"):
        raise RuleViolation(
            "CARD-39",
            _(
                "En France un jeu qui contient une carte détériorée est retiré et remplacé ; "
                "l'échange de carte n'est pas prévu par les textes (bonne pratique CARD-16 "
                "non activée)."
            ),
        )


@transaction.atomic
def cards_replacement_designate(
    *,
    seance: Seance,
    room: Room,
    unit: CardUnit,
    actor: AbstractBaseUser,
) -> ReplacementSixain:
    """Designate the sixain from which damaged cards are replaced in a room for a séance."""
    est = seance.establishment
    _exchange_allowed(est)
    role = require_role(actor, est, DESIGNATORS[est.jurisdiction])
    (unit,) = _lock([unit], est)
    if room.establishment_id != est.pk:
        raise ValidationError({"room": _("Salle inconnue dans cet établissement.")})
    if unit.unit_type != UnitType.SIXAIN or unit.table_session_id or unit.status != ItemStatus.IN_STOCK:
        raise ValidationError({"unit": _("Le sixain de remplacement est un sixain en parfait état, en dépôt.")})
    if _quarantined(unit):
        raise RuleViolation(rule_id(est, "CARD-19", "CARD-38"), _("Ce sixain fait l'objet d'un incident ouvert."))
    if selectors.replacement_for(seance, room.pk) is not None:
        raise ValidationError(_("Un sixain de remplacement est déjà désigné pour cette salle et cette séance."))
    designation = ReplacementSixain.objects.create(
        seance=seance, room=room, unit=unit, designated_by=actor, designated_at=timezone.now()
    )
    _write(
        _Act(
            est,
            Kind.DESIGNATION,
            actor,
            role,
            [unit],
            result=str(_("sixain de remplacement de la salle %(r)s pour la séance %(s)s") % {"r": room, "s": seance}),
            persons=[_person(actor, role)],
            details={"room": room.name, "seance": str(seance)},
        )
    )
    return designation


@transaction.atomic
def cards_exchange(
    *,
    table_unit: CardUnit,
    replacement_unit: CardUnit,
    card: str,
    croupier: str,
    shown_both_sides: bool,
    actor: AbstractBaseUser,
) -> CardExchange:
    """Replace a damaged card at once by exchange with a card of the replacement sixain designated
    for the room and séance; done by an inspecteur (CARD-16). Both units are marked."""
    est = table_unit.establishment
    _exchange_allowed(est)
    role = require_role(actor, est, EXCHANGERS[est.jurisdiction])
    table_unit, replacement_unit = (_lock([table_unit], est)[0], _lock([replacement_unit], est)[0])
    issued = table_unit if table_unit.table_session_id else None
    session = issued.table_session if issued else None
    if session is None or session.status == TableSession.Status.CLOSED:
        raise ValidationError({"table_unit": _("%(unit)s n'est pas en service à une table.") % {"unit": table_unit}})
    if not card.strip() or not croupier.strip():
        raise ValidationError(_("Indiquez la carte échangée et le croupier."))
    if not shown_both_sides:
        _refuse_mc(
            est, "CARD-16", _("Le croupier montre ostensiblement la carte détériorée, recto et verso, avant l'échange.")
        )
    # The damaged card is replaced by the inspecteur, from the designated sixain only (INC-03).
    designated = selectors.replacement_for(session.seance, session.table.room_id)
    if designated is None:
        _refuse_mc(
            est,
            "CARD-16",
            _("Aucun sixain de remplacement n'est désigné pour la salle %(r)s et cette séance.")
            % {"r": session.table.room},
        )
    if replacement_unit.top.pk != designated.unit_id:
        _refuse_mc(
            est,
            "CARD-16",
            _("La carte de remplacement se prend uniquement sur le sixain désigné (%(u)s).") % {"u": designated.unit},
        )
    now = timezone.now()
    exchange = save_audited(
        CardExchange(
            establishment=est,
            table_session=session,
            table_unit=table_unit,
            replacement_unit=replacement_unit,
            card=card.strip(),
            croupier=croupier.strip(),
            inspecteur=actor,
            exchanged_at=now,
        ),
        actor=actor,
        reason="échange de carte",
    )
    for unit in {table_unit, table_unit.top, replacement_unit, replacement_unit.top}:
        _set(unit, actor=actor, reason="échange de carte", follow=False, contains_exchanged_card=True)
    _write(
        _Act(
            est,
            Kind.EXCHANGE,
            actor,
            role,
            [table_unit, replacement_unit],
            session,
            result=str(
                _("%(card)s de %(a)s remplacée par celle de %(b)s (montrée recto et verso)")
                % {"card": card.strip(), "a": table_unit, "b": replacement_unit}
            ),
            persons=[_person(actor, role), str(_("croupier %(n)s") % {"n": croupier.strip()})],
            details={"card": card.strip(), "croupier": croupier.strip(), "exchange": exchange.pk},
        )
    )
    return exchange


@transaction.atomic
def cards_exchange_reconcile(*, exchange: CardExchange, actor: AbstractBaseUser, note: str) -> CardExchange:
    """After the séance the cartier puts the damaged card with the replacement deck, which stays
    complete and is withdrawn as damaged until its destruction."""
    exchange = CardExchange.objects.select_for_update().get(pk=exchange.pk)
    est = exchange.establishment
    role = require_role(actor, est, WITHDRAWERS[est.jurisdiction])
    if exchange.reconciled_at is not None:
        raise ValidationError(_("Cet échange est déjà rapproché."))
    if not note.strip():
        raise ValidationError({"note": _("Décrivez le rapprochement.")})
    replacement = _lock([exchange.replacement_unit.top], est)[0]
    now = timezone.now()
    if replacement.status not in (*WITHDRAWN_STATUSES, *GONE_STATUSES) and not replacement.table_session_id:
        _set(
            replacement,
            actor=actor,
            reason="carte détériorée rapprochée",
            status=ItemStatus.DAMAGED,
            condition=Condition.IMPERFECT,
            withdrawn_at=now,
            withdrawal_reason=str(_("contient la carte détériorée %(c)s") % {"c": exchange.card}),
        )
        _to_main_depot([replacement], est, actor)
    exchange.reconciled_at, exchange.reconciled_by, exchange.reconciliation = now, actor, note.strip()
    save_audited(exchange, actor=actor, reason="rapprochement")
    _write(
        _Act(
            est,
            Kind.RECONCILIATION,
            actor,
            role,
            [exchange.table_unit, replacement],
            result=note.strip(),
            persons=[_person(actor, role)],
            details={"exchange": exchange.pk, "card": exchange.card},
        )
    )
    return exchange


@transaction.atomic
def cards_reshuffle_order(*, table_session: TableSession, reason: str, actor: AbstractBaseUser) -> CardEvent:
    """At a table reserved to one player the Direction may order a new shuffle in the middle of a
    taille, for a stated reason (CARD-23); visible to the SCJ in the register."""
    session = TableSession.objects.select_related("seance__establishment", "table").get(pk=table_session.pk)
    est = session.seance.establishment
    if est.jurisdiction != "MC":
        raise ValidationError(_("Cette décision n'est prévue que par la réglementation monégasque."))
    role = require_role(actor, est, custody.DIRECTION["MC"])
    if not reason.strip():
        raise RuleViolation("CARD-23", _("La décision d'un nouveau mélange en cours de taille doit être motivée."))
    if session.status != TableSession.Status.OPEN:
        raise ValidationError({"table_session": _("La table n'est pas en jeu.")})
    entry = _write(
        _Act(
            est,
            Kind.RESHUFFLE,
            actor,
            role,
            [],
            session,
            result=reason.strip(),
            persons=[_person(actor, role)],
            details={"reason": reason.strip()},
        )
    )
    return CardEvent.objects.get(entry=entry)
