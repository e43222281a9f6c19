"""Use at the tables: issue from a depot, return at the end of the partie."""

from collections import Counter
from collections.abc import Sequence

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import OuterRef
from django.db.models.functions import JSONObject
from django.utils.translation import gettext_lazy as _

from ledgers.core.authz import save_audited
from ledgers.core.errors import RuleViolation
from ledgers.core.hooks import party_fact, party_facts
from ledgers.core.models import Establishment, Location, Seance, TableSession
from ledgers.core.selectors import objects_of, rows_of
from ledgers.core.services import table_session_locked
from ledgers.incidents.selectors import has_open_incident
from ledgers.registers.models import Entry
from ledgers.registers.selectors import current_register
from ledgers.registers.services import display_name, entry_append

from ..domains import CustodyDomain, all_domains
from ..models import (
    GONE_STATUSES,
    WITHDRAWN_STATUSES,
    ItemStatus,
    TrackedItem,
)
from ..registers import TABLE_MOVEMENTS
from .common import _french, _refuse, _serials
from .places import check_location


def _movements_write(
    est: Establishment, domain: CustodyDomain, *, actor: AbstractBaseUser, role: str, payload: dict
) -> Entry:
    """Every line of the registre des sorties en table (the domain's volume) is written here."""
    return entry_append(
        register=current_register(est, TABLE_MOVEMENTS.code, domain.code), actor=actor, role=role, payload=payload
    )


def _lock_items(items: Sequence[TrackedItem]) -> list[TrackedItem]:
    if not items:
        raise ValidationError(_("Aucun objet sélectionné."))
    model = type(items[0])
    return list(model.objects.select_for_update().filter(pk__in=[i.pk for i in items]).order_by("pk"))


@transaction.atomic
def items_issue(
    *,
    domain: CustodyDomain,
    items: Sequence[TrackedItem],
    session: TableSession,
    actor: AbstractBaseUser,
    role: str,
    received_by: str = "",
    extra: dict | None = None,
) -> list[TrackedItem]:
    """Take objects out of their depot for use at a table-partie that is being prepared or is open,
    at the moment of use (CARD-12, SHOE-02). The calling domain service has checked the actor's
    role for its own act (who may issue differs per domain and game) and passes it; ``extra``
    adds the domain's own fields to the entry of the table movements register."""
    session = table_session_locked(session)
    est = session.seance.establishment
    if session.status == TableSession.Status.CLOSED or session.seance.status != Seance.Status.OPEN:
        message = _("La table %(table)s n'a pas de partie ouverte : aucune sortie de matériel.") % {
            "table": session.table
        }
        _refuse(domain, "issue", est, message)
        raise ValidationError(message)
    locked = _lock_items(items)
    for item in locked:
        if item.establishment_id != est.pk:
            raise ValidationError(_("« %(item)s » n'appartient pas à cet établissement.") % {"item": item})
        if item.status in WITHDRAWN_STATUSES:
            message = _("« %(item)s » est hors d'usage : il ne peut être mis en service.") % {"item": item}
            _refuse(domain, "withdrawn_issue", est, message)
            raise ValidationError(message)
        if item.status != ItemStatus.IN_STOCK or item.table_session_id or item.location_id is None:
            raise ValidationError(_("« %(item)s » n'est pas disponible en dépôt.") % {"item": item})
        if has_open_incident(item):
            message = _("« %(item)s » fait l'objet d'un incident ouvert : il est consigné.") % {"item": item}
            _refuse(domain, "quarantine", est, message)
            raise ValidationError(message)
    origins = sorted({item.location.name for item in locked})
    for item in locked:
        item.location, item.table_session, item.status = None, session, ItemStatus.ISSUED
        save_audited(item, actor=actor, reason="sortie en table")
    _movements_write(
        est,
        domain,
        actor=actor,
        role=role,
        payload={
            "movement": "ISSUE",
            "date": session.seance.date.isoformat(),
            "table": session.table.number,
            "seance": _french(session.seance),
            "table_session": session.pk,
            "categories": dict(Counter(item.category for item in locked)),
            "serials": _serials(locked),
            "from": ", ".join(origins),
            "to": "",
            "handled_by": display_name(actor),
            "received_by": received_by.strip(),
            "signed_by": display_name(actor),
            **(extra or {}),
        },
    )
    return locked


@transaction.atomic
def items_return(
    *,
    domain: CustodyDomain,
    items: Sequence[TrackedItem],
    to_location: Location,
    actor: AbstractBaseUser,
    role: str,
    returned_by: str = "",
    status: str = ItemStatus.IN_STOCK,
    extra: dict | None = None,
) -> list[TrackedItem]:
    """Put objects back in a depot at the end of the partie (CARD-18, SHOE-02: MC, under the
    surveillance of the inspecteur de service, who signs: the caller passes his role). ``status``
    is the status on return (cards: awaiting the cartier's control)."""
    locked = _lock_items(items)
    est = to_location.establishment
    for item in locked:
        if item.establishment_id != est.pk:
            raise ValidationError(_("« %(item)s » n'appartient pas à cet établissement.") % {"item": item})
        if item.table_session_id is None:
            raise ValidationError(_("« %(item)s » n'est pas en service à une table.") % {"item": item})
        check_location(domain, to_location, item)
    sessions = {item.table_session for item in locked}
    for item in locked:
        item.table_session, item.location, item.status = None, to_location, status
        save_audited(item, actor=actor, reason="rentrée au dépôt")
    first = min(sessions, key=lambda s: s.pk)
    _movements_write(
        est,
        domain,
        actor=actor,
        role=role,
        payload={
            "movement": "RETURN",
            "date": first.seance.date.isoformat(),
            "table": ", ".join(sorted(s.table.number for s in sessions)),
            "seance": _french(first.seance),
            "table_session": first.pk if len(sessions) == 1 else None,
            "categories": dict(Counter(item.category for item in locked)),
            "serials": _serials(locked),
            "from": "",
            "to": to_location.name,
            "handled_by": returned_by.strip() or display_name(actor),
            "received_by": "",
            "signed_by": display_name(actor),
            **(extra or {}),
        },
    )
    return locked


def _returned_domains() -> list[CustodyDomain]:
    return [domain for domain in all_domains() if domain.rules.get("return")]


def _left_at_table() -> JSONObject:
    """For each domain whose objects go back to a depot at the end of a partie, the first five of
    them still at the table-partie, each as the values of its fields (enough to name it)."""
    left = {}
    for domain in _returned_domains():
        items = domain.model.objects.filter(table_session=OuterRef("pk")).exclude(status__in=GONE_STATUSES)
        left[domain.code] = rows_of(items.order_by("pk")[:5])
    return JSONObject(**left)


# What is still at each table-partie, read with the séances' parties.
party_facts(custody_left=_left_at_table)


def check_all_returned(session: TableSession) -> None:
    """Closing hook: no partie ends while an object issued to it is still at the table
    (CARD-18, CARD-37, SHOE-02, SHOE-09), for every custody domain."""
    est = session.seance.establishment
    left_at_table = party_fact(session, "custody_left")
    for domain in _returned_domains():
        code = domain.rule("return", est.jurisdiction)
        if code is None:
            continue
        left = objects_of(domain.model, left_at_table[domain.code])
        if left:
            raise RuleViolation(
                code,
                _("Fin de partie impossible : %(items)s n'a pas été rentré au dépôt.")
                % {"items": ", ".join(str(item) for item in left)},
            )
