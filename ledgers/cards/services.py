"""Every write of the card domain. Each service checks the actor's role, refuses what the texts
forbid (RuleViolation with the catalogue ID), changes the units through ``save_audited`` and
writes its register entry in the same transaction.

Who does what (MC from AM 88-384 art. 1, FR from the arrêté of 14 May 2007 arts. 39-40-1):
receipt — MC the cartier (CARD-03), FR the receiving employee of the carnet modèle 19; issue and
return — MC the cartier, the return under the inspecteur's surveillance (CARD-18), FR the holder
of the single key of the card cabinet (directeur responsable or comité member, CARD-34/37);
controls at the table — the croupier or chef de table; PAE — the DCC staff (MC only).
"""

import datetime
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from simple_history.utils import bulk_update_with_history

from ledgers.core.authz import require_role, save_audited
from ledgers.core.errors import RuleViolation
from ledgers.core.models import Establishment, Location, LocationKind, Room, Seance, TableSession
from ledgers.core.roles import Role
from ledgers.custody import services as custody
from ledgers.custody.models import (
    GONE_STATUSES,
    WITHDRAWN_STATUSES,
    DestructionSession,
    ItemStatus,
    PurchaseOrder,
    StockVerification,
    Supplier,
)
from ledgers.incidents.categories import CARD_ANOMALY, CUSTODY_CHECK
from ledgers.incidents.models import Incident
from ledgers.incidents.services import incident_open
from ledgers.keys.selectors import cabinet_key, holder_now
from ledgers.registers.models import Entry
from ledgers.registers.selectors import current_register
from ledgers.registers.services import display_name, entry_append, register_language

from . import selectors
from .deck_rules import DeckRule, Freshness, rule_for, takes_cards
from .domain import CARDS, rule_id
from .models import (
    DECKS_IN,
    Anomaly,
    CardEvent,
    CardExchange,
    CardUnit,
    Condition,
    ReplacementSixain,
    ShuffleMethod,
    UnitType,
)
from .registers import CARDS_IN_SERVICE

Kind = CardEvent.Kind

KEY_HOLDERS = (Role.DIRECTEUR_RESPONSABLE, Role.COMITE)  # FR: the single key of the cabinet (SET-35)
TABLE_STAFF = (Role.CROUPIER, Role.CHEF_TABLE, Role.CHEF_PARTIE)
RECEIVERS = {"MC": (Role.CARTIER,), "FR": (Role.DIRECTEUR_RESPONSABLE, Role.COMITE, Role.EMPLOYE_RESPONSABLE)}
KEEPERS = {"MC": (Role.CARTIER,), "FR": KEY_HOLDERS}
DEPOT_CONTROLLERS = {"MC": (Role.CARTIER,), "FR": (Role.CARTIER, *KEY_HOLDERS)}
WITHDRAWERS = {"MC": (Role.CARTIER, Role.SOUS_DIRECTEUR, Role.DIRECTEUR_JEUX), "FR": KEY_HOLDERS}
EXCHANGERS = {"MC": (Role.INSPECTEUR,), "FR": (Role.CHEF_TABLE, Role.CHEF_PARTIE, *KEY_HOLDERS)}
DESIGNATORS = {"MC": (Role.INSPECTEUR, Role.SOUS_DIRECTEUR, Role.DIRECTEUR_JEUX), "FR": KEY_HOLDERS}
REPORTERS = (
    Role.CARTIER,
    Role.DCC_STAFF,
    Role.CROUPIER,
    Role.CHEF_TABLE,
    Role.CHEF_PARTIE,
    Role.INSPECTEUR,
    Role.SOUS_DIRECTEUR,
    Role.DIRECTEUR_JEUX,
    Role.DIRECTEUR_RESPONSABLE,
    Role.COMITE,
    Role.EMPLOYE_RESPONSABLE,
)
BEST_PRACTICE_OPTION = "cards_best_practice"  # FR: MC-only checks switched on (list of CARD IDs)


# --- Input shapes ------------------------------------------------------------------------------


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


@dataclass
class _Act:
    """One register line and its events."""

    establishment: Establishment
    kind: str
    actor: AbstractBaseUser
    role: str
    units: list[CardUnit] = field(default_factory=list)
    session: TableSession | None = None
    result: str = ""
    persons: list[str] = field(default_factory=list)
    flags: list[dict] = field(default_factory=list)
    details: dict = field(default_factory=dict)
    ok: bool | None = None
    incident: Incident | None = None  # opened by the act (quarantine): named in its findings


# --- Helpers -------------------------------------------------------------------------------------


def best_practice(est: Establishment, code: str) -> bool:
    """Does an MC-only check apply here? Always in MC; in FR only when switched on as best
    practice (CARD-24, AMB-06)."""
    return est.jurisdiction == "MC" or code in (est.setting(BEST_PRACTICE_OPTION) or [])


def _refuse_mc(est: Establishment, code: str, message) -> None:
    if est.jurisdiction == "FR":
        message = _("Bonne pratique activée (non imposée en France) : %(m)s") % {"m": message}
    raise RuleViolation(code, message)


def _stamp(moment: datetime.datetime, est: Establishment) -> str:
    return est.localtime(moment).strftime("%d/%m/%Y %H:%M")


def _person(user: AbstractBaseUser, role: str) -> str:
    return f"{display_name(user)} ({Role(role).label})"


def _lock(units: Iterable[CardUnit], est: Establishment) -> list[CardUnit]:
    ids = [u.pk for u in units]
    if not ids:
        raise ValueError(_("Choisissez au moins une unité de cartes."))
    locked = list(CardUnit.objects.select_for_update().filter(pk__in=ids).order_by("serial"))
    if len(locked) != len(set(ids)) or any(u.establishment_id != est.pk for u in locked):
        raise ValueError(_("Unité de cartes inconnue dans cet établissement."))
    return locked


def _set(unit: CardUnit, *, actor: AbstractBaseUser, reason: str, follow: bool = True, **fields) -> None:
    """Change a unit and, when ``follow``, the decks that follow it (status, table, freshness)."""
    for name, value in fields.items():
        setattr(unit, name, value)
    save_audited(unit, actor=actor, reason=reason)
    if follow and unit.unit_type != UnitType.DECK:
        followed = {k: v for k, v in fields.items() if k != "location"}
        decks = list(unit.members.all())
        for deck in decks:
            for name, value in followed.items():
                setattr(deck, name, value)
        _save_decks(decks, fields=list(followed), actor=actor, reason=reason)


def _save_decks(decks: list[CardUnit], *, fields: list[str], actor: AbstractBaseUser, reason: str) -> None:
    """The decks of a unit in one UPDATE and one INSERT of their history rows, attributed to
    ``actor`` with ``reason`` as ``save_audited`` would (a huitain: 2 queries instead of 16)."""
    if decks and fields:
        bulk_update_with_history(
            decks, CardUnit, fields, default_user=actor, default_change_reason=reason, default_date=timezone.now()
        )


def _write(act: _Act) -> Entry:
    """The register line of an act, and one event per unit pointing to it."""
    est, now = act.establishment, timezone.now()
    session = act.session
    if act.incident is not None:
        act.result += str(
            _(" — incident n° %(n)s ouvert (%(code)s)") % {"n": act.incident.pk, "code": act.incident.requirement}
        )
        act.details["incident"] = act.incident.pk
    tables = sorted({str(u.table_session.table) for u in act.units if u.table_session_id}) if not session else []
    with register_language():
        operation = str(Kind(act.kind).label)
    payload = {
        "kind": act.kind,
        "at": _stamp(now, est),
        "operation": operation,
        "table": str(session.table) if session else ", ".join(tables),
        "seance": str(session.seance) if session else "",
        "units": [u.serial for u in act.units],
        "result": act.result,
        "persons": ", ".join(act.persons),
        "flags": [f"{f['code']} : {f['text']}" for f in act.flags],
        "details": act.details,
    }
    register = current_register(est, CARDS_IN_SERVICE.code)
    entry = entry_append(register=register, actor=act.actor, role=act.role, payload=payload)
    events = [
        CardEvent(
            establishment=est,
            kind=act.kind,
            unit=unit,
            table_session=session or unit.table_session,
            at=now,
            actor=act.actor,
            role=act.role,
            ok=act.ok,
            details=act.details,
            flags=act.flags,
            entry=entry,
        )
        for unit in act.units
    ] or [
        CardEvent(
            establishment=est,
            kind=act.kind,
            table_session=session,
            at=now,
            actor=act.actor,
            role=act.role,
            ok=act.ok,
            details=act.details,
            flags=act.flags,
            entry=entry,
        )
    ]
    CardEvent.objects.bulk_create(events)
    return entry


def _live_session(unit: CardUnit, est: Establishment, code_mc: str, code_fr: str) -> TableSession:
    """The table session the unit is at; refused when the unit is in a depot."""
    session = unit.table_session
    if session is None or session.status == TableSession.Status.CLOSED:
        raise RuleViolation(
            rule_id(est, code_mc, code_fr),
            _("%(unit)s n'est pas à une table : cette opération se fait à table.") % {"unit": unit},
        )
    return session


def _quarantined(unit: CardUnit) -> bool:
    """Under an open incident, itself, one of its decks or its sixain (CARD-19 / CARD-38)."""
    ids = [unit.pk, *unit.members.values_list("pk", flat=True)] + ([unit.parent_id] if unit.parent_id else [])
    return selectors.card_incidents(unit.establishment).filter(subjects__object_id__in=ids).exists()


def _anomaly(
    est: Establishment,
    *,
    actor: AbstractBaseUser,
    units: Sequence[CardUnit],
    text: str,
    circumstances: str = "",
    session: TableSession | None = None,
    custody_check: bool = False,
) -> Incident:
    """Open the incident that quarantines the units: a card anomaly (INC-02 / INC-13) or, FR, a
    custody-check failure (INC-14)."""
    category = CUSTODY_CHECK.code if custody_check and est.jurisdiction == "FR" else CARD_ANOMALY.code
    location = next((u.location for u in units if u.location_id), None)
    return incident_open(
        establishment=est,
        category=category,
        actor=actor,
        subjects=list(units),
        description=text,
        circumstances=circumstances,
        table_session=session,
        location=location,
    )


def _to_main_depot(units: Sequence[CardUnit], est: Establishment, actor: AbstractBaseUser) -> None:
    """Withdrawn units go to the main depot (MC, CARD-17): a depot transfer, in the annex ledger."""
    if est.jurisdiction != "MC":
        return
    main = selectors.main_depot(est)
    if main is None:
        raise ValueError(_("Aucun dépôt principal n'est déclaré dans cet établissement."))
    by_origin: dict[int, list[CardUnit]] = {}
    for unit in units:
        if unit.location_id and unit.location_id != main.pk:
            by_origin.setdefault(unit.location_id, []).append(unit)
    for group in by_origin.values():
        custody.items_transfer(
            domain=CARDS, items=group, to_location=main, actor=actor, received_by=str(_("Dépôt principal (retrait)"))
        )


def _cabinet_opener(est: Establishment, location: Location | None) -> AbstractBaseUser | None:
    """FR: the holder of the card cabinet's single key, who opens it for an issue, a return or a
    verification (KEY-11; CARD-29, CARD-34, CARD-37); None in Monaco, where the texts do not
    regulate the depots' keys (KEY-10). No key registered, or nobody holding it: refused."""
    if est.jurisdiction != "FR":
        return None
    key = cabinet_key(est, location.code if location is not None else "")
    holder = holder_now(key) if key is not None else None
    if holder is None:
        raise RuleViolation(
            "KEY-11",
            _(
                "L'armoire « dépôt des cartes » ne s'ouvre qu'avec son unique clé : "
                "inscrivez-la au registre des clés avec son détenteur (directeur responsable "
                "ou membre du comité de direction)."
            ),
        )
    return holder


def _opened_by(act: _Act, opener: AbstractBaseUser | None) -> None:
    """Name the key holder who opened the cabinet on the act's register line and events."""
    if opener is not None:
        act.persons.append(str(_("armoire ouverte par %(n)s") % {"n": display_name(opener)}))
        act.details["cabinet_opened_by"] = display_name(opener)


def _findings(complete: bool, order_ok: bool, marks_found: bool | None = None, marks: str = "") -> str:
    parts = [
        str(_("complet")) if complete else str(_("INCOMPLET")),
        str(_("ordre du fabricant respecté")) if order_ok else str(_("ordre du fabricant NON respecté")),
    ]
    if marks_found is not None:
        parts.append(str(_("marques : %(d)s") % {"d": marks}) if marks_found else str(_("aucune marque")))
    return ", ".join(parts)


# --- Receipt (intake registers) ----------------------------------------------------------------


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
        raise ValueError(_("La réception porte au moins une unité."))
    if supplier.establishment_id != est.pk or supplier.domain != CARDS.code:
        raise ValueError(_("Ce fournisseur n'est pas enregistré pour les cartes dans cet établissement."))
    if order is not None:
        order = PurchaseOrder.objects.select_for_update().get(pk=order.pk)
    if order is not None and order.supplier_id != supplier.pk:
        raise ValueError(_("Le bon de commande a été établi pour un autre fournisseur."))
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


def _check_received(est: Establishment, spec: ReceivedUnit) -> None:
    mc = est.jurisdiction == "MC"
    if spec.unit_type not in DECKS_IN:
        raise ValueError(_("Type d'unité inconnu : %(t)s.") % {"t": spec.unit_type})
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
            raise ValueError(_("Un jeu à l'unité n'a pas de jeux membres."))
        if not spec.back_colour.strip():
            raise ValueError(_("Indiquez la couleur du dos du jeu."))
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
            raise ValueError(_("Indiquez la couleur du dos de chaque jeu."))


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


# --- Issue to a table (CARD-12, CARD-34) and the per-game rules ------------------------------


@transaction.atomic
def cards_issue(
    *,
    table_session: TableSession,
    units: Sequence[CardUnit],
    actor: AbstractBaseUser,
    received_by: str,
) -> list[CardUnit]:
    """Take units out of the depot for a table session, at the moment they are used."""
    session = (
        TableSession.objects.select_for_update()
        .select_related("table", "seance__establishment")
        .get(pk=table_session.pk)
    )
    est = session.seance.establishment
    role = require_role(actor, est, KEEPERS[est.jurisdiction])
    if not received_by.strip():
        raise ValueError(_("Indiquez le croupier ou le chef de table qui reçoit les cartes."))
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
    units = _lock(units, est)
    for unit in units:
        _check_issuable(unit, est, session, rule)
    opener = _cabinet_opener(est, next((u.location for u in units if u.location_id), None))
    present = [*selectors.units_at(session), *units]
    if rule is not None:
        _check_composition(rule, present, session)
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
            _("%(n)s jeu(x) — %(rule)s")
            % {"n": sum(u.deck_count for u in units), "rule": rule.describe() if rule else ""}
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
            raise ValueError(_("Le sixain de %(unit)s n'est pas en dépôt.") % {"unit": unit})
    elif unit.members.exclude(status=unit.status).exists() or unit.members.filter(table_session__isnull=False).exists():
        raise ValueError(
            _("Un jeu de %(unit)s est en service ou attend son contrôle : il doit d'abord être rentré et contrôlé.")
            % {"unit": unit}
        )
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
    described = {"game": game, "rule": rule.describe(), "n": len(decks), "colours": " + ".join(map(str, colours))}
    if rule.compositions and not any(
        c.decks == len(decks) and (not c.colours or list(sorted(c.colours, reverse=True)) == colours)
        for c in rule.compositions
    ):
        raise RuleViolation(
            rule.requirement,
            _("La table de %(game)s reçoit %(rule)s ; les cartes présentées font %(n)s jeu(x) (couleurs %(colours)s).")
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


# --- At the table: unsealing, controls, PAE confirmation ------------------------------------------


@transaction.atomic
def cards_unseal(
    *,
    unit: CardUnit,
    actor: AbstractBaseUser,
    seal_intact: bool,
    video_camera: str = "",
    video_reference: str = "",
    notes: str = "",
) -> CardUnit:
    """New decks are unsealed only at the table (CARD-13); FR: under CCTV, seal band checked
    (CARD-35). A broken seal band quarantines the unit and opens an incident."""
    est = unit.establishment
    role = require_role(actor, est, TABLE_STAFF)
    (unit,) = _lock([unit], est)
    session = _live_session(unit, est, "CARD-13", "CARD-35")
    if not unit.is_new:
        raise ValueError(_("%(unit)s a déjà été décacheté.") % {"unit": unit})
    if est.jurisdiction == "FR" and not (video_camera.strip() and video_reference.strip()):
        raise RuleViolation(
            "CARD-35", _("Indiquez la caméra et la référence de l'enregistrement de vidéoprotection du décachetage.")
        )
    _set(unit, actor=actor, reason="décachetage", is_new=False)
    if unit.parent_id:
        _set(unit.parent, actor=actor, reason="décachetage d'un jeu", follow=False, is_new=False)
    incident = None
    if not seal_intact:
        incident = _anomaly(
            est,
            actor=actor,
            units=[unit],
            session=session,
            custody_check=True,
            text=str(_("Bande de contrôle non intacte au décachetage de %(u)s.") % {"u": unit}),
            circumstances=notes,
        )
    result = str(_("bande de contrôle intacte")) if seal_intact else str(_("bande de contrôle NON intacte"))
    if video_reference.strip():
        result += f" — {_('vidéo')} {video_camera.strip()} / {video_reference.strip()}"
    _write(
        _Act(
            est,
            Kind.UNSEALING,
            actor,
            role,
            [unit],
            session,
            result=result,
            persons=[_person(actor, role)],
            incident=incident,
            ok=seal_intact,
            details={
                "seal_intact": seal_intact,
                "video_camera": video_camera.strip(),
                "video_reference": video_reference.strip(),
                "notes": notes.strip(),
            },
        )
    )
    return unit


@transaction.atomic
def cards_table_control(
    *,
    unit: CardUnit,
    actor: AbstractBaseUser,
    complete: bool,
    order_intact: bool,
    witnesses: str = "",
    notes: str = "",
) -> CardUnit:
    """Second control at the table (MC, CARD-15) / comptée et vérification (FR, CARD-36): cards
    spread face up, checked in the manufacturer's order. A failure opens an incident."""
    est = unit.establishment
    role = require_role(actor, est, TABLE_STAFF)
    (unit,) = _lock([unit], est)
    # SHUF-06: the same control whether or not a shuffler or shuffler-dealer mixed the cards.
    session = _live_session(unit, est, "CARD-15", "CARD-36")
    if any(d.is_new for d in unit.decks()):
        raise RuleViolation(
            rule_id(est, "CARD-13", "CARD-35"),
            _("Les jeux neufs de %(unit)s doivent d'abord être décachetés à table.") % {"unit": unit},
        )
    if unit.pae:
        raise ValueError(_("Un jeu prêt à l'emploi reçoit à table le second brassage et le second mélange."))
    ok = complete and order_intact
    now = timezone.now()
    _set(
        unit,
        actor=actor,
        reason="contrôle à table",
        complete=unit.complete and complete,
        completeness_checked_at=now,
        completeness_checked_by=actor,
    )
    incident = None
    if not ok:
        incident = _anomaly(
            est,
            actor=actor,
            units=[unit],
            session=session,
            text=str(
                _("Contrôle à table non conforme de %(u)s : %(f)s.")
                % {"u": unit, "f": _findings(complete, order_intact)}
            ),
            circumstances=notes,
        )
    persons = [_person(actor, role)] + (
        [str(_("en présence de %(w)s") % {"w": witnesses.strip()})] if witnesses.strip() else []
    )
    _write(
        _Act(
            est,
            Kind.SECOND_CONTROL,
            actor,
            role,
            [unit],
            session,
            result=_findings(complete, order_intact),
            persons=persons,
            incident=incident,
            ok=ok,
            details={
                "complete": complete,
                "order_intact": order_intact,
                "witnesses": witnesses.strip(),
                "notes": notes.strip(),
            },
        )
    )
    return unit


@transaction.atomic
def cards_pae_prepare(
    *,
    units: Sequence[CardUnit],
    actor: AbstractBaseUser,
    checked_by: str,
    shuffled_by: str,
    method: str,
    video_camera: str,
    video_reference: str,
    shuffler: str = "",
    complete: bool = True,
    order_intact: bool = True,
) -> list[CardUnit]:
    """Prêt-à-l'emploi preparation at the Dépôt Central des Cartes under video (CARD-20): checked
    in the manufacturer's order, then pre-shuffled by hand or with a shuffler. MC only."""
    est = units[0].establishment if units else None
    if est is None:
        raise ValueError(_("Choisissez au moins une unité de cartes."))
    if est.jurisdiction != "MC":
        raise RuleViolation(
            "CARD-24", _("Les jeux prêts à l'emploi n'existent pas en France (pas de Dépôt Central des Cartes).")
        )
    role = require_role(actor, est, (Role.DCC_STAFF,))
    if not (video_camera.strip() and video_reference.strip()):
        raise RuleViolation(
            "CARD-20",
            _("La préparation se fait sous couverture vidéo : indiquez la caméra et la référence de l'enregistrement."),
        )
    if method not in ShuffleMethod.values:
        raise ValueError(_("Mode de mélange inconnu."))
    if method == ShuffleMethod.SHUFFLER and not shuffler.strip():
        raise ValueError(_("Indiquez le mélangeur utilisé."))
    if not (checked_by.strip() and shuffled_by.strip()):
        raise ValueError(_("Indiquez qui a vérifié et qui a mélangé les cartes."))
    units = _lock(units, est)
    for unit in units:
        if unit.location is None or unit.location.kind != LocationKind.DCC or unit.status != ItemStatus.IN_STOCK:
            raise RuleViolation(
                "CARD-20", _("%(unit)s n'est pas en stock au Dépôt Central des Cartes.") % {"unit": unit}
            )
        if _quarantined(unit):
            raise RuleViolation("CARD-19", _("%(unit)s fait l'objet d'un incident ouvert.") % {"unit": unit})
    ok = complete and order_intact
    for unit in units:
        if ok:
            _set(unit, actor=actor, reason="préparation prêt à l'emploi", pae=True, is_new=False)
        else:
            _set(unit, actor=actor, reason="préparation prêt à l'emploi", complete=unit.complete and complete)
    incident = None
    if not ok:
        incident = _anomaly(
            est,
            actor=actor,
            units=units,
            text=str(_("Vérification au DCC non conforme : %(f)s.") % {"f": _findings(complete, order_intact)}),
        )
    how = str(_("à la main")) if method == ShuffleMethod.HAND else str(_("mélangeur %(s)s") % {"s": shuffler.strip()})
    _write(
        _Act(
            est,
            Kind.PAE_PREPARATION,
            actor,
            role,
            units,
            result=f"{_findings(complete, order_intact)} — {_('pré-mélange')} {how} — {_('vidéo')} "
            f"{video_camera.strip()} / {video_reference.strip()}",
            persons=[
                _person(actor, role),
                str(_("vérifié par %(n)s") % {"n": checked_by.strip()}),
                str(_("mélangé par %(n)s") % {"n": shuffled_by.strip()}),
            ],
            incident=incident,
            ok=ok,
            details={
                "checked_by": checked_by.strip(),
                "shuffled_by": shuffled_by.strip(),
                "method": method,
                "shuffler": shuffler.strip(),
                "video_camera": video_camera.strip(),
                "video_reference": video_reference.strip(),
                "complete": complete,
                "order_intact": order_intact,
            },
        )
    )
    return units


@transaction.atomic
def cards_pae_confirm(*, unit: CardUnit, actor: AbstractBaseUser, shuffler: str = "", notes: str = "") -> CardUnit:
    """At the table, the gaming staff do the second mix face down and the second shuffle of a PAE
    deck (CARD-22); required before the table opens."""
    est = unit.establishment
    role = require_role(actor, est, TABLE_STAFF)
    (unit,) = _lock([unit], est)
    session = _live_session(unit, est, "CARD-22", "CARD-24")
    if not unit.pae:
        raise ValueError(_("%(unit)s n'est pas un jeu prêt à l'emploi.") % {"unit": unit})
    result = str(_("second brassage et second mélange effectués"))
    if shuffler.strip():
        result += f" ({_('mélangeur')} {shuffler.strip()})"
    _write(
        _Act(
            est,
            Kind.PAE_CONFIRMATION,
            actor,
            role,
            [unit],
            session,
            result=result,
            persons=[_person(actor, role)],
            ok=True,
            details={"shuffler": shuffler.strip(), "notes": notes.strip()},
        )
    )
    return unit


# --- Controls after use (CARD-14, CARD-37) -------------------------------------------------------


@transaction.atomic
def cards_post_control(
    *,
    unit: CardUnit,
    actor: AbstractBaseUser,
    complete: bool,
    order_restored: bool,
    marks_found: bool,
    marks_description: str = "",
    notes: str = "",
) -> CardUnit:
    """After the partie the decks are put back in the manufacturer's order and examined for marks:
    MC by the cartiers in the depot once returned (CARD-14), FR at the table before they go back
    to the cabinet (CARD-37). Marks or a missing card quarantine the unit and open an incident."""
    est = unit.establishment
    if est.jurisdiction == "MC":
        role = require_role(actor, est, DEPOT_CONTROLLERS["MC"])
        (unit,) = _lock([unit], est)
        if unit.status != ItemStatus.AWAITING_CONTROL:
            raise ValueError(_("%(unit)s n'attend pas de contrôle après séance.") % {"unit": unit})
        session = selectors.last_event(unit, (Kind.RETURN,))
        session = session.table_session if session else None
    else:
        role = require_role(actor, est, TABLE_STAFF)
        (unit,) = _lock([unit], est)
        session = _live_session(unit, est, "CARD-14", "CARD-37")
    return _control(
        unit,
        est,
        Kind.POST_CONTROL,
        actor,
        role,
        session,
        complete=complete,
        order_restored=order_restored,
        marks_found=marks_found,
        marks_description=marks_description,
        notes=notes,
    )


@transaction.atomic
def cards_first_control(
    *,
    unit: CardUnit,
    actor: AbstractBaseUser,
    complete: bool,
    order_restored: bool,
    marks_found: bool,
    marks_description: str = "",
    notes: str = "",
) -> CardUnit:
    """First control by a cartier of a deck that is not new, in the depot, before it is issued
    (CARD-14; in FR a best practice)."""
    est = unit.establishment
    role = require_role(actor, est, DEPOT_CONTROLLERS[est.jurisdiction])
    (unit,) = _lock([unit], est)
    if unit.table_session_id or unit.status not in (ItemStatus.IN_STOCK, ItemStatus.AWAITING_CONTROL):
        raise RuleViolation(rule_id(est, "CARD-08", "CARD-28"), _("%(unit)s n'est pas en dépôt.") % {"unit": unit})
    if all(d.is_new for d in unit.decks()):
        raise ValueError(_("Les jeux neufs sont contrôlés à table, au décachetage."))
    return _control(
        unit,
        est,
        Kind.FIRST_CONTROL,
        actor,
        role,
        None,
        complete=complete,
        order_restored=order_restored,
        marks_found=marks_found,
        marks_description=marks_description,
        notes=notes,
    )


def _control(
    unit: CardUnit,
    est: Establishment,
    kind: str,
    actor: AbstractBaseUser,
    role: str,
    session: TableSession | None,
    *,
    complete: bool,
    order_restored: bool,
    marks_found: bool,
    marks_description: str,
    notes: str,
) -> CardUnit:
    if marks_found and not marks_description.strip():
        raise ValueError(_("Décrivez les marques constatées."))
    ok = complete and order_restored and not marks_found
    now = timezone.now()
    changes: dict = {
        "complete": unit.complete and complete,
        "completeness_checked_at": now,
        "completeness_checked_by": actor,
    }
    if marks_found:
        changes.update(
            status=ItemStatus.MARKED,
            condition=Condition.IMPERFECT,
            withdrawn_at=now,
            withdrawal_reason=marks_description.strip(),
        )
    elif not complete:
        changes.update(
            status=ItemStatus.OUT_OF_USE,
            condition=Condition.IMPERFECT,
            withdrawn_at=now,
            withdrawal_reason=str(_("jeu incomplet")),
        )
    elif unit.status == ItemStatus.AWAITING_CONTROL:
        changes["status"] = ItemStatus.IN_STOCK
    _set(unit, actor=actor, reason=str(Kind(kind).label), **changes)
    flags, incident = [], None
    if not ok:
        findings = _findings(complete, order_restored, marks_found, marks_description.strip())
        incident = _anomaly(
            est,
            actor=actor,
            units=[unit],
            session=session,
            text=str(_("%(op)s de %(u)s : %(f)s.") % {"op": Kind(kind).label, "u": unit, "f": findings}),
            circumstances=notes,
        )
    if best_practice(est, "CARD-16") and selectors.unreconciled_exchanges(unit).exists():
        flags.append({"code": "CARD-16", "text": str(_("cartes échangées non rapprochées"))})
    if not unit.table_session_id and unit.status in WITHDRAWN_STATUSES:
        _to_main_depot([unit], est, actor)
    _write(
        _Act(
            est,
            kind,
            actor,
            role,
            [unit],
            session,
            result=_findings(complete, order_restored, marks_found, marks_description.strip()),
            persons=[_person(actor, role)],
            flags=flags,
            incident=incident,
            ok=ok,
            details={
                "complete": complete,
                "order_restored": order_restored,
                "marks_found": marks_found,
                "marks": marks_description.strip(),
                "notes": notes.strip(),
            },
        )
    )
    return unit


# --- Return to the depot (CARD-18, CARD-37) ---------------------------------------------------


@transaction.atomic
def cards_return(
    *,
    units: Sequence[CardUnit],
    to_location: Location,
    actor: AbstractBaseUser,
    returned_by: str,
    inspecteur: AbstractBaseUser | None = None,
) -> list[CardUnit]:
    """Put the cards back in a depot at the end of the partie. MC: under the surveillance of the
    inspecteur de service, who countersigns (``inspecteur``, authenticated by the caller; CARD-18).
    FR: after the post-partie control, by the key holder who opens the cabinet (CARD-37)."""
    est = to_location.establishment
    role = require_role(actor, est, KEEPERS[est.jurisdiction])
    if not returned_by.strip():
        raise ValueError(_("Indiquez les employés qui rapportent les cartes."))
    persons = [_person(actor, role), str(_("rapporté par %(n)s") % {"n": returned_by.strip()})]
    if inspecteur is not None:
        persons.append(_person(inspecteur, require_role(inspecteur, est, (Role.INSPECTEUR,))))
    elif best_practice(est, "CARD-18"):
        _refuse_mc(
            est,
            "CARD-18",
            _("La rentrée des cartes se fait sous la surveillance de l'inspecteur de service, qui la contresigne."),
        )
    units = _lock(units, est)
    sessions = {u.table_session_id for u in units}
    if None in sessions:
        raise RuleViolation(
            rule_id(est, "CARD-08", "CARD-28"), _("Seules des cartes en service à une table peuvent être rentrées.")
        )
    if len(sessions) != 1:
        raise ValueError(_("Rentrez les cartes d'une table à la fois."))
    session = units[0].table_session
    for unit in units:
        if unit.parent_id and unit.parent.table_session_id == session.pk:
            raise ValueError(_("%(unit)s se rentre avec son sixain.") % {"unit": unit})
        if (
            est.jurisdiction == "FR"
            and not selectors.session_events(session, Kind.POST_CONTROL).filter(unit=unit).exists()
        ):
            raise RuleViolation(
                "CARD-37",
                _(
                    "%(unit)s doit être remis dans l'ordre du fabricant et examiné (contrôle "
                    "après la partie) avant de retourner à l'armoire."
                )
                % {"unit": unit},
            )
        if not unit.parent_id:
            custody.check_location(CARDS, to_location, unit)  # CARD-08/28; withdrawn: main depot, CARD-17
    opener = _cabinet_opener(est, to_location)
    back = ItemStatus.AWAITING_CONTROL if est.jurisdiction == "MC" else ItemStatus.IN_STOCK
    for unit in units:
        status = unit.status if unit.status in WITHDRAWN_STATUSES else back
        location = None if unit.parent_id else to_location
        _set(
            unit,
            actor=actor,
            reason="rentrée au dépôt",
            status=status,
            table_session=None,
            location=location,
            pae=False,
        )
    act = _Act(
        est,
        Kind.RETURN,
        actor,
        role,
        units,
        session,
        result=str(_("rentré au %(loc)s") % {"loc": to_location}),
        persons=persons,
        ok=True,
        details={
            "returned_by": returned_by.strip(),
            "to": to_location.name,
            "inspecteur": display_name(inspecteur) if inspecteur else "",
        },
    )
    _opened_by(act, opener)
    _write(act)
    return units


@transaction.atomic
def cards_stock_verification(
    *,
    establishment: Establishment,
    counted: dict[tuple[int | None, str], int],
    actor: AbstractBaseUser,
    opened_by: str = "",
    remarks: str = "",
) -> StockVerification:
    """The authority's verification of the card stock at any time (CARD-06, CARD-29). FR: the
    cabinet is opened by the holder of its single key, named on the record (KEY-11); MC: who
    opened the depot, as stated."""
    opener = _cabinet_opener(establishment, None)
    return custody.stock_verification_record(
        domain=CARDS,
        establishment=establishment,
        counted=counted,
        actor=actor,
        opened_by=display_name(opener) if opener is not None else opened_by,
        remarks=remarks,
    )


# --- Withdrawal, anomalies -------------------------------------------------------------------


@transaction.atomic
def cards_withdraw(
    *,
    units: Sequence[CardUnit],
    status: str,
    reason: str,
    actor: AbstractBaseUser,
) -> list[CardUnit]:
    """Declare units out of use, marked or damaged: they can no longer be issued and go to the
    main depot (MC, CARD-17) / stay in the card cabinet (FR, CARD-39) until destroyed."""
    est = units[0].establishment if units else None
    if est is None:
        raise ValueError(_("Choisissez au moins une unité de cartes."))
    role = require_role(actor, est, WITHDRAWERS[est.jurisdiction])
    if status not in WITHDRAWN_STATUSES:
        raise ValueError(_("Statut de retrait inconnu."))
    if not reason.strip():
        raise ValueError(_("Le motif du retrait est obligatoire."))
    units = _lock(units, est)
    for unit in units:
        if unit.parent_id:
            raise ValueError(
                _(
                    "%(unit)s appartient à un sixain : c'est le sixain entier qui est retiré (il reste "
                    "complet jusqu'à sa destruction)."
                )
                % {"unit": unit}
            )
        if unit.table_session_id or unit.status in GONE_STATUSES:
            raise RuleViolation(rule_id(est, "CARD-08", "CARD-28"), _("%(unit)s n'est pas en dépôt.") % {"unit": unit})
    now = timezone.now()
    for unit in units:
        _set(
            unit,
            actor=actor,
            reason="retrait",
            status=status,
            condition=Condition.IMPERFECT,
            withdrawn_at=now,
            withdrawal_reason=reason.strip(),
        )
    _to_main_depot(units, est, actor)
    _write(
        _Act(
            est,
            Kind.WITHDRAWAL,
            actor,
            role,
            units,
            result=f"{ItemStatus(status).label} — {reason.strip()}",
            persons=[_person(actor, role)],
            details={"status": status, "reason": reason.strip()},
        )
    )
    return units


@transaction.atomic
def cards_anomaly_report(
    *,
    units: Sequence[CardUnit],
    anomaly: str,
    cards: str,
    circumstances: str,
    actor: AbstractBaseUser,
    found_at: datetime.datetime | None = None,
) -> Incident:
    """A missing, surplus, marked or foreign card, found at any time, reported at once: the units
    are quarantined and a card-anomaly incident is opened (CARD-19 / INC-02, CARD-38 / INC-13);
    the incident's notices (inspecteur, directeur des jeux, SCJ / police) are then recorded."""
    est = units[0].establishment if units else None
    if est is None:
        raise ValueError(_("Choisissez au moins une unité de cartes."))
    role = require_role(actor, est, REPORTERS)
    if anomaly not in Anomaly.values:
        raise ValueError(_("Type d'anomalie inconnu."))
    if not cards.strip():
        raise ValueError(_("Indiquez la ou les cartes concernées."))
    units = _lock(units, est)
    sessions = {u.table_session_id for u in units if u.table_session_id}
    session = units[0].table_session if len(sessions) == 1 else None
    label = Anomaly(anomaly).label
    incident = _anomaly(
        est,
        actor=actor,
        units=units,
        session=session,
        text=f"{label} — {cards.strip()}",
        circumstances=circumstances.strip(),
    )
    if found_at is not None:
        incident.found_at = found_at
        save_audited(incident, actor=actor, reason="heure de constatation")
    now = timezone.now()
    for unit in units:
        if anomaly == Anomaly.MARKED:
            _set(
                unit,
                actor=actor,
                reason="carte marquée",
                status=ItemStatus.MARKED,
                condition=Condition.IMPERFECT,
                withdrawn_at=now,
                withdrawal_reason=f"{label} — {cards.strip()}",
            )
        elif anomaly == Anomaly.MISSING:
            _set(
                unit,
                actor=actor,
                reason="carte manquante",
                follow=False,
                complete=False,
                completeness_checked_at=now,
                completeness_checked_by=actor,
            )
    if anomaly == Anomaly.MARKED:
        _to_main_depot([u for u in units if not u.table_session_id], est, actor)
    _write(
        _Act(
            est,
            Kind.ANOMALY,
            actor,
            role,
            units,
            session,
            result=f"{label} : {cards.strip()}",
            persons=[_person(actor, role)],
            ok=False,
            incident=incident,
            details={"anomaly": anomaly, "cards": cards.strip()},
        )
    )
    return incident


# --- Damaged cards (CARD-16) and new shuffles (CARD-23) ----------------------------------------


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
        raise ValueError(_("Salle inconnue dans cet établissement."))
    if unit.unit_type != UnitType.SIXAIN or unit.table_session_id or unit.status != ItemStatus.IN_STOCK:
        raise ValueError(_("Le sixain de remplacement est un sixain en parfait état, en dépôt."))
    if _quarantined(unit):
        raise RuleViolation(rule_id(est, "CARD-19", "CARD-38"), _("Ce sixain fait l'objet d'un incident ouvert."))
    if selectors.replacement_for(seance, room.pk) is not None:
        raise ValueError(_("Un sixain de remplacement est déjà désigné pour cette salle et cette séance."))
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
        raise ValueError(_("%(unit)s n'est pas en service à une table.") % {"unit": table_unit})
    if not card.strip() or not croupier.strip():
        raise ValueError(_("Indiquez la carte échangée et le croupier."))
    if not shown_both_sides:
        _refuse_mc(
            est, "CARD-16", _("Le croupier montre ostensiblement la carte détériorée, recto et verso, avant l'échange.")
        )
    # INC-03: the damaged card is replaced by the inspecteur, from the designated sixain only.
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
        raise ValueError(_("Cet échange est déjà rapproché."))
    if not note.strip():
        raise ValueError(_("Décrivez le rapprochement."))
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
        raise ValueError(_("Cette décision n'est prévue que par la réglementation monégasque."))
    role = require_role(actor, est, custody.DIRECTION["MC"])
    if not reason.strip():
        raise RuleViolation("CARD-23", _("La décision d'un nouveau mélange en cours de taille doit être motivée."))
    if session.status != TableSession.Status.OPEN:
        raise ValueError(_("La table n'est pas en jeu."))
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


# --- Destruction (CARD-09 to CARD-11, CARD-30, CARD-31) ----------------------------------------


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
            raise ValueError(_("%(unit)s est détruit avec son sixain.") % {"unit": unit})
        if unit.status not in WITHDRAWN_STATUSES:
            raise ValueError(
                _("%(unit)s doit d'abord être déclaré hors d'usage, marqué ou détérioré.") % {"unit": unit}
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
    session = custody.destruction_complete(
        session=session,
        domain=CARDS,
        actor=actor,
        witness=witness,
        observations=observations,
        withheld=withheld,
        finding=finding,
        checks={"complete_and_unmarked": not withheld},
    )
    destroyed = CardUnit.objects.filter(pk__in=session.items.values_list("object_id", flat=True)).exclude(
        pk__in=[u.pk for u in withheld]
    )
    decks = []
    for unit in destroyed.prefetch_related("members"):
        for deck in unit.members.all():
            deck.status = unit.status
            decks.append(deck)
    _save_decks(decks, fields=["status"], actor=actor, reason=str(session.get_method_display()))
    return session
