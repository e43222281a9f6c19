"""What the card services share: who may act, the act written to the registers, and the helpers
that lock, stamp and refuse."""

import datetime
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db.models import Case, Exists, OuterRef, Q, Value, When
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ledgers.core.authz import check_text_lengths, save_audited
from ledgers.core.errors import RuleViolation
from ledgers.core.models import Establishment, Location, TableSession
from ledgers.core.roles import Role
from ledgers.custody import services as custody
from ledgers.incidents.categories import CARD_ANOMALY, CUSTODY_CHECK
from ledgers.incidents.models import Incident
from ledgers.incidents.services import incident_open
from ledgers.keys.selectors import cabinet_key_holder
from ledgers.registers.digests import update_with_history
from ledgers.registers.models import Entry
from ledgers.registers.selectors import current_register
from ledgers.registers.services import display_name, entry_append, register_language

from .. import selectors
from ..domains import CARDS, rule_id
from ..models import (
    CardEvent,
    CardUnit,
    UnitType,
)
from ..registers import CARDS_IN_SERVICE

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


def _lock(units: Iterable[CardUnit], est: Establishment, **annotations) -> list[CardUnit]:
    """The units and their decks locked (``_lock_rows``), with ``annotations`` read in the same
    query."""
    return _lock_rows(units, est, **annotations)[0]


def _post_controlled() -> Exists:
    """Whether the unit passed its post-partie control at the table it is at (FR, CARD-37)."""
    return Exists(
        CardEvent.objects.filter(kind=Kind.POST_CONTROL, unit=OuterRef("pk"), table_session=OuterRef("table_session"))
    )


def _lock_for_table(
    units: Iterable[CardUnit], est: Establishment, session: TableSession
) -> tuple[list[CardUnit], list[CardUnit]]:
    """The units to issue, locked as ``_lock`` does, and those already at the table session (as
    ``selectors.units_at`` reads them, with their decks), locked and read in the same query: the
    composition is checked (SET-02) against what the table holds once a return or an exchange
    under way there is over. The caller holds the session with FOR NO KEY UPDATE, which lets
    those acts finish (their rows point to the session) rather than deadlock."""
    locked, rows = _lock_rows(units, est, Q(table_session=session) | Q(parent__table_session=session))
    at = {u.pk for u in rows if u.table_session_id == session.pk}
    present = [u for u in rows if u.pk in at and u.parent_id not in at]
    return locked, present


def _lock_rows(
    units: Iterable[CardUnit], est: Establishment, also: Q | None = None, **annotations
) -> tuple[list[CardUnit], list[CardUnit]]:
    ids = [u.pk for u in units]
    if not ids:
        raise ValidationError(_("Choisissez au moins une unité de cartes."))
    # The units and their decks locked in one query (in serial order, as every movement locks
    # them): the checks and the movement read each unit's decks from there rather than asking.
    # Each row says whether an open incident names it or its sixain (CARD-19 / CARD-38, read by
    # ``_quarantined``) in the same query.
    incidents = selectors.under_open_incident(est)
    wanted = Q(pk__in=ids) | Q(parent_id__in=ids)
    if also is not None:
        wanted |= also
    rows = list(
        CardUnit.objects.select_for_update(of=("self",))
        .filter(wanted)
        .select_related("location", "table_session__table", "table_session__seance")
        .annotate(
            under_incident=Exists(incidents.filter(object_id=OuterRef("pk"))),
            parent_under_incident=Exists(incidents.filter(object_id=OuterRef("parent_id"))),
            **annotations,
        )
        .order_by("serial")
    )
    asked = set(ids)
    locked = [u for u in rows if u.pk in asked]
    if len(locked) != len(asked) or any(u.establishment_id != est.pk for u in locked):
        raise ValidationError(_("Unité de cartes inconnue dans cet établissement."))
    decks: dict[int, list[CardUnit]] = {}
    for row in rows:
        if row.parent_id:
            decks.setdefault(row.parent_id, []).append(row)
    for unit in rows:
        unit.establishment = est
        members = unit.members.all()  # no query: filled from the rows locked above
        members._result_cache = sorted(decks.get(unit.pk, []), key=lambda d: d.position or 0)
        members._prefetch_done = True
        unit._prefetched_objects_cache = {"members": members}
    return locked, rows


def _set(unit: CardUnit, *, actor: AbstractBaseUser, reason: str, follow: bool = True, **fields) -> None:
    """Change a unit and, when ``follow``, the decks that follow it (status, table, freshness)."""
    for name, value in fields.items():
        setattr(unit, name, value)
    if not follow or unit.unit_type == UnitType.DECK:
        save_audited(unit, actor=actor, reason=reason)
        return
    # The unit and its decks in one UPDATE and one INSERT of their history rows; the decks keep
    # their own location (a deck of a unit has none: it is where its unit is).
    decks = list(unit.members.all())
    for deck in decks:
        for name, value in fields.items():
            if name != "location":
                setattr(deck, name, value)
    check_text_lengths(unit)
    _save_decks([unit, *decks], fields=list(fields), actor=actor, reason=reason)


def _save_decks(decks: list[CardUnit], *, fields: list[str], actor: AbstractBaseUser, reason: str) -> None:
    """Units (a unit and its decks) updated with their history rows, attributed to ``actor`` with
    ``reason`` as ``save_audited`` would, in one statement on PostgreSQL, which also reads the
    digests the act's entry seals (``update_with_history``): a huitain in 1 query instead of 18.
    A column takes one value for all, or one per set of units that share it (the decks take their
    unit's, but its location), rather than the per-row CASE expressions of a ``bulk_update``."""
    if not (decks and fields):
        return
    changes = {}
    for name in fields:
        field = CardUnit._meta.get_field(name)
        takers: dict[object, list[int]] = {}
        for deck in decks:
            takers.setdefault(getattr(deck, field.attname), []).append(deck.pk)
        if len(takers) == 1:
            changes[field.attname] = next(iter(takers))
            continue
        cases = [When(pk__in=ids, then=Value(value, output_field=field)) for value, ids in takers.items()]
        changes[field.attname] = Case(*cases, output_field=field)
    update_with_history(decks, changes, user=actor, reason=reason)


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
    """Under an open incident, itself, one of its decks or its sixain (CARD-19 / CARD-38): as
    ``_lock`` read it with the unit."""
    return unit.under_incident or unit.parent_under_incident or any(deck.under_incident for deck in unit.members.all())


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
        raise ValidationError(_("Aucun dépôt principal n'est déclaré dans cet établissement."))
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
    holder = cabinet_key_holder(est, location.code if location is not None else "")
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
