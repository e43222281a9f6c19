"""Issue of cards to a table (CARD-12, CARD-34) and the per-game rules."""

from collections.abc import Sequence

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext_lazy as _

from ledgers.core.authz import require_role
from ledgers.core.errors import RuleViolation
from ledgers.core.models import Establishment, TableSession
from ledgers.custody.models import (
    GONE_STATUSES,
    WITHDRAWN_STATUSES,
    ItemStatus,
)

from .. import selectors
from ..deck_rules import Composition, DeckRule, Freshness, rule_for, takes_cards
from ..domains import rule_id
from ..models import (
    CardUnit,
    Condition,
    UnitType,
)
from .common import (
    KEEPERS,
    Kind,
    _Act,
    _cabinet_opener,
    _lock_for_table,
    _opened_by,
    _person,
    _quarantined,
    _refuse_mc,
    _set,
    _write,
    best_practice,
)


@transaction.atomic
def cards_issue(
    *,
    table_session: TableSession,
    units: Sequence[CardUnit],
    actor: AbstractBaseUser,
    received_by: str,
) -> list[CardUnit]:
    """Take units out of the depot for a table session, at the moment they are used."""
    # FOR NO KEY UPDATE: issues to the table (and its opening and closing) wait for one another,
    # while a return or a control at the table, which holds its units' locks, may still write
    # rows that point to it; the issue then waits for those units (``_lock_for_table``).
    session = (
        TableSession.objects.select_for_update(no_key=True)
        .select_related("table", "seance__establishment")
        .get(pk=table_session.pk)
    )
    est = session.seance.establishment
    role = require_role(actor, est, KEEPERS[est.jurisdiction])
    if not received_by.strip():
        raise ValidationError({"received_by": _("Indiquez le croupier ou le chef de table qui reçoit les cartes.")})
    if session.status == TableSession.Status.CLOSED:
        raise RuleViolation(
            rule_id(est, "CARD-12", "CARD-34"),
            _(
                "La partie de la table %(t)s est terminée : les cartes ne sortent du dépôt qu'au moment "
                "où il en est fait usage."
            )
            % {"t": session.table},
        )
    game = session.table.game
    if not takes_cards(game):
        raise RuleViolation(
            rule_id(est, "CARD-01", "CARD-24"),
            _("Le jeu « %(g)s » ne se joue pas avec des cartes.") % {"g": session.table.get_game_display()},
        )
    rule = rule_for(est, game)
    units, at_table = _lock_for_table(units, est, session)
    for unit in units:
        _check_issuable(unit, est, session, rule)
    opener = _cabinet_opener(est, next((u.location for u in units if u.location_id), None))
    if rule is not None:
        _check_composition(rule, [*at_table, *units], session)
    if game == "banque_tout_va":
        _check_two_seances(session)
    for unit in units:
        _set(
            unit,
            actor=actor,
            reason="sortie pour une table",
            status=ItemStatus.ISSUED,
            table_session=session,
            location=None,
        )
    act = _Act(
        est,
        Kind.ISSUE,
        actor,
        role,
        units,
        session,
        result=str(
            _("%(decks)s — %(rule)s")
            % {"decks": Composition(sum(u.deck_count for u in units)), "rule": rule.describe() if rule else ""}
        ),
        persons=[_person(actor, role), str(_("reçu par %(n)s") % {"n": received_by.strip()})],
        details={"received_by": received_by.strip(), "rule": rule.requirement if rule else ""},
    )
    _opened_by(act, opener)
    _write(act)
    return units


def _check_issuable(unit: CardUnit, est: Establishment, session: TableSession, rule: DeckRule | None) -> None:
    if unit.status in GONE_STATUSES:
        raise RuleViolation(rule_id(est, "CARD-08", "CARD-28"), _("%(unit)s n'est plus en stock.") % {"unit": unit})
    if unit.table_session_id:
        raise RuleViolation(
            rule_id(est, "CARD-08", "CARD-28"), _("%(unit)s est déjà en service à une table.") % {"unit": unit}
        )
    if unit.status in WITHDRAWN_STATUSES or unit.condition != Condition.PERFECT or not unit.complete:
        code = rule.requirement if rule and rule.requirement.startswith("GAME") else rule_id(est, "CARD-17", "CARD-39")
        raise RuleViolation(
            code,
            _("%(unit)s n'est pas en parfait état (%(s)s) : seules des cartes en parfait état peuvent être utilisées.")
            % {"unit": unit, "s": unit.get_status_display()},
        )
    if _quarantined(unit):
        raise RuleViolation(
            rule_id(est, "CARD-19", "CARD-38"),
            _("%(unit)s fait l'objet d'un incident ouvert : il reste en quarantaine jusqu'à sa clôture.")
            % {"unit": unit},
        )
    if unit.parent_id:
        parent = unit.parent
        if parent.table_session_id or parent.status != ItemStatus.IN_STOCK:
            raise ValidationError({"units": _("Le sixain de %(unit)s n'est pas en dépôt.") % {"unit": unit}})
    elif any(deck.status != unit.status or deck.table_session_id for deck in unit.members.all()):
        message = _(
            "Un jeu de %(unit)s est en service ou attend son contrôle : il doit d'abord être rentré et contrôlé."
        )
        raise ValidationError({"units": message % {"unit": unit}})
    if unit.status == ItemStatus.AWAITING_CONTROL:
        _refuse_mc(
            est,
            "CARD-14",
            _("%(unit)s est rentré et attend son contrôle par le cartier avant tout nouvel usage.") % {"unit": unit},
        )
    if unit.pae:
        _check_pae(unit, est, session)
    elif not unit.is_new and best_practice(est, "CARD-14") and not selectors.controlled_since_return(unit):
        _refuse_mc(
            est,
            "CARD-14",
            _(
                "%(unit)s a déjà servi : le premier contrôle par un cartier doit être enregistré "
                "depuis sa dernière rentrée."
            )
            % {"unit": unit},
        )


def _check_pae(unit: CardUnit, est: Establishment, session: TableSession) -> None:
    if selectors.pae_prepared_since_return(unit) is None:
        raise RuleViolation(
            "CARD-20",
            _("%(unit)s n'a pas de préparation prêt à l'emploi complète (avec la référence de l'enregistrement vidéo).")
            % {"unit": unit},
        )
    table = session.table
    if est.setting("SET-04") != "general" and not (table.game == "punto_banco" and table.super_prive):
        raise RuleViolation(
            "CARD-21",
            _("Les jeux prêts à l'emploi ne sont autorisés qu'au punto banco, aux tables des salons super privés."),
        )


def _check_composition(rule: DeckRule, present: Sequence[CardUnit], session: TableSession) -> None:
    """The table receives exactly what its game takes (SET-02) in the state it requires (SET-03)."""
    decks = [deck for unit in present for deck in unit.decks()]
    colours = sorted(
        {
            c: sum(1 for d in decks if d.back_colour.strip().lower() == c)
            for c in {d.back_colour.strip().lower() for d in decks}
        }.values(),
        reverse=True,
    )
    game = session.table.get_game_display()
    described = {
        "game": game,
        "rule": rule.describe(),
        "decks": Composition(len(decks)),
        "colours": " + ".join(map(str, colours)),
    }
    if rule.compositions and not any(
        c.decks == len(decks) and (not c.colours or list(sorted(c.colours, reverse=True)) == colours)
        for c in rule.compositions
    ):
        raise RuleViolation(
            rule.requirement,
            _("La table de %(game)s reçoit %(rule)s ; les cartes présentées font %(decks)s (couleurs %(colours)s).")
            % described,
        )
    if rule.whole_sixain and not (len(present) == 1 and present[0].unit_type == UnitType.SIXAIN):
        raise RuleViolation(rule.requirement, _("La table de %(game)s reçoit un sixain complet.") % described)
    if rule.plain_back and not all(d.plain_back for d in decks):
        raise RuleViolation(
            rule.requirement, _("La table de %(game)s exige des cartes à dos de teinte unie.") % described
        )
    if rule.freshness == Freshness.NEW and not all(d.is_new for d in decks):
        raise RuleViolation(
            rule.requirement, _("La table de %(game)s reçoit des cartes neuves à chaque séance.") % described
        )


def _check_two_seances(session: TableSession) -> None:
    same_day = TableSession.objects.filter(table=session.table, seance__date=session.seance.date).count()
    if same_day > 2:
        raise RuleViolation("GAME-30", _("La banque à tout va se joue en deux séances par jour au plus."))
