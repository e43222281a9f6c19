"""Shared custody workflows. Each domain (cards, dice, shoes) supplies its objects, registers and
requirement IDs through its ``CustodyDomain``; these services enforce the common rules and write
the register entries in the same transaction as the change."""

import datetime
from collections import Counter, defaultdict
from collections.abc import Sequence

from django.contrib.auth.models import AbstractBaseUser
from django.contrib.contenttypes.models import ContentType
from django.db import transaction
from django.utils import timezone
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from ledgers.core.authz import require_role, save_audited
from ledgers.core.errors import RuleViolation, impossible
from ledgers.core.models import Establishment, Location, LocationKind, Seance, TableSession
from ledgers.core.roles import Role
from ledgers.incidents.categories import CUSTODY_CHECK
from ledgers.incidents.selectors import has_open_incident
from ledgers.incidents.services import incident_open
from ledgers.registers.chain import format_timestamp
from ledgers.registers.models import Register
from ledgers.registers.selectors import current_register
from ledgers.registers.services import display_name, entry_append, register_language, visa_sign

from .domains import CustodyDomain, all_domains
from .models import (
    GONE_STATUSES,
    WITHDRAWN_STATUSES,
    DepotDay,
    DestructionItem,
    DestructionSession,
    ItemStatus,
    PurchaseOrder,
    StockVerification,
    Supplier,
    TrackedItem,
)
from .registers import PURCHASE_ORDERS, TABLE_MOVEMENTS
from .selectors import book_stock, intake_registers, located_stock

DIRECTION = {"MC": (Role.DIRECTEUR_JEUX, Role.SOUS_DIRECTEUR), "FR": (Role.DIRECTEUR_RESPONSABLE, Role.COMITE)}
AUTHORITY = {"MC": (Role.SCJ,), "FR": (Role.POLICE,)}


def _french(text: Promise | str | object, **params) -> str:
    """Text for a register entry: in the registers' language, whatever the user's."""
    with register_language():
        return str(text) % params if params else str(text)


def _rule(domain: CustodyDomain, name: str, est: Establishment) -> str | None:
    return domain.rule(name, est.jurisdiction)


def _refuse(domain: CustodyDomain, name: str, est: Establishment, message) -> None:
    code = _rule(domain, name, est)
    if code is None:  # the rule does not exist in this jurisdiction
        return
    raise RuleViolation(code, message)


def _serials(items: Sequence[TrackedItem]) -> list[str]:
    return [item.serial for item in items]


# --- Suppliers and purchase orders -------------------------------------------------------------


@transaction.atomic
def supplier_register(
    *,
    establishment: Establishment,
    domain: CustodyDomain,
    name: str,
    actor: AbstractBaseUser,
    approval_reference: str = "",
    approval_issuer: str = "",
    approved_from: datetime.date | None = None,
    approved_until: datetime.date | None = None,
) -> Supplier:
    require_role(actor, establishment, DIRECTION[establishment.jurisdiction])
    supplier = Supplier(
        establishment=establishment,
        domain=domain.code,
        name=name.strip(),
        approval_reference=approval_reference,
        approval_issuer=approval_issuer,
        approved_from=approved_from,
        approved_until=approved_until,
    )
    return save_audited(supplier, actor=actor, reason="enregistrement")


def _check_supplier(domain: CustodyDomain, supplier: Supplier, on: datetime.date) -> None:
    if not supplier.approval_valid(on):
        _refuse(
            domain,
            "supplier_approval",
            supplier.establishment,
            _("Le fournisseur « %(name)s » n'a pas d'agrément valide au %(date)s.")
            % {"name": supplier.name, "date": on.strftime("%d/%m/%Y")},
        )


def _order_entry(order: PurchaseOrder, *, actor: AbstractBaseUser, role: str, event: Promise) -> None:
    register = current_register(order.establishment, PURCHASE_ORDERS.code, order.domain)
    with register_language():
        event = str(event)
    entry_append(
        register=register,
        actor=actor,
        role=role,
        payload={
            "order": str(order),
            "number": order.number,
            "carnet": order.carnet,
            "event": event,
            "supplier": order.supplier.name,
            "lines": [f"{line['category']} × {line['quantity']}" for line in order.lines],
            "visa": f"{order.visa_statement} — {display_name(order.visa_by)}" if order.visa_by else "",
        },
    )


@transaction.atomic
def purchase_order_issue(
    *,
    establishment: Establishment,
    domain: CustodyDomain,
    supplier: Supplier,
    lines: list[dict],
    actor: AbstractBaseUser,
    carnet: str = "",
    number: int | None = None,
) -> PurchaseOrder:
    """Issue a bon de commande. Numbers run without gaps within a carnet (CARD-33, DICE-16)."""
    role = require_role(actor, establishment, DIRECTION[establishment.jurisdiction])
    Establishment.objects.select_for_update().get(pk=establishment.pk)  # serialises numbering
    if supplier.establishment_id != establishment.pk or supplier.domain != domain.code:
        raise ValueError(_("Ce fournisseur n'est pas enregistré pour ce matériel dans cet établissement."))
    if not lines or any(int(line.get("quantity", 0)) <= 0 for line in lines):
        raise ValueError(_("Un bon de commande porte au moins une ligne de quantité positive."))
    today = timezone.localdate()
    _check_supplier(domain, supplier, today)
    if establishment.jurisdiction == "FR" and not carnet.strip():
        _refuse(domain, "order_visa", establishment, _("Le numéro du carnet modèle 21 est obligatoire."))
    last = (
        PurchaseOrder.objects.filter(establishment=establishment, domain=domain.code, carnet=carnet)
        .order_by("-number")
        .values_list("number", flat=True)
        .first()
    ) or 0
    if number is None:
        number = last + 1
    elif number != last + 1:
        _refuse(
            domain,
            "order_visa",
            establishment,
            _("Numérotation sans lacune : le prochain bon de ce carnet est le n° %(next)s.") % {"next": last + 1},
        )
        raise ValueError(_("Le prochain bon de ce carnet est le n° %(next)s.") % {"next": last + 1})
    order = PurchaseOrder(
        establishment=establishment,
        domain=domain.code,
        supplier=supplier,
        carnet=carnet.strip(),
        number=number,
        lines=[{"category": str(line["category"]), "quantity": int(line["quantity"])} for line in lines],
        issued_at=timezone.now(),
        issued_by=actor,
    )
    save_audited(order, actor=actor, reason="établissement")
    _order_entry(order, actor=actor, role=role, event=_("Établissement du bon"))
    return order


@transaction.atomic
def purchase_order_visa(*, order: PurchaseOrder, actor: AbstractBaseUser, statement: str = "") -> PurchaseOrder:
    """The authority's visa on the order (MC: SCJ at its verifications; FR: the police officer)."""
    order = PurchaseOrder.objects.select_for_update().get(pk=order.pk)
    est = order.establishment
    role = require_role(actor, est, AUTHORITY[est.jurisdiction])
    if order.is_visaed:
        raise impossible(_("Ce bon de commande est déjà visé."))
    order.visa_by, order.visa_role, order.visa_at = actor, role, timezone.now()
    order.visa_statement = statement.strip() or _french(_("Vu"))
    if order.status == PurchaseOrder.Status.ISSUED:
        order.status = PurchaseOrder.Status.VISAED
    save_audited(order, actor=actor, reason="visa")
    _order_entry(order, actor=actor, role=role, event=_("Visa du bon"))
    return order


@transaction.atomic
def purchase_order_send(*, order: PurchaseOrder, domain: CustodyDomain, actor: AbstractBaseUser) -> PurchaseOrder:
    order = PurchaseOrder.objects.select_for_update().get(pk=order.pk)
    est = order.establishment
    role = require_role(actor, est, DIRECTION[est.jurisdiction])
    if est.jurisdiction == "FR" and not order.is_visaed:
        _refuse(domain, "order_visa", est, _("Le bon de commande doit être visé par la police avant son envoi."))
    if order.status not in (PurchaseOrder.Status.ISSUED, PurchaseOrder.Status.VISAED):
        raise impossible(_("Ce bon de commande a déjà été envoyé."))
    order.status, order.sent_at = PurchaseOrder.Status.SENT, timezone.now()
    save_audited(order, actor=actor, reason="envoi")
    _order_entry(order, actor=actor, role=role, event=_("Envoi au fournisseur"))
    return order


# --- Intake registers: definitive IN and OUT -----------------------------------------------------


def _intake_register(domain: CustodyDomain, est: Establishment, category: str) -> Register:
    kind, qualifier = domain.intake_register(est, category)
    return current_register(est, kind, qualifier)


def check_receivable(
    domain: CustodyDomain, order: PurchaseOrder | None, supplier: Supplier | None, est: Establishment
) -> list[dict]:
    """Refuse a receipt the texts forbid; return the flags (allowed, but reported) it raises."""
    flags: list[dict] = []
    supplier = supplier or (order.supplier if order is not None else None)  # the order's supplier is checked too
    if supplier is not None:
        _check_supplier(domain, supplier, timezone.localdate())
    if order is None:
        if est.jurisdiction == "FR":
            _refuse(domain, "order_visa", est, _("Toute réception doit se rattacher à un bon de commande visé."))
        flags.append({"code": _rule(domain, "intake", est), "text": _french(_("Réception sans bon de commande"))})
        return flags
    if order.establishment_id != est.pk or order.domain != domain.code:
        raise ValueError(_("Ce bon de commande ne concerne pas ce matériel ou cet établissement."))
    if est.jurisdiction == "FR" and not order.is_visaed:
        _refuse(domain, "order_visa", est, _("Réception refusée : le bon de commande n'est pas visé par la police."))
    return flags


@transaction.atomic
def intake_record_in(
    *,
    domain: CustodyDomain,
    establishment: Establishment,
    items: Sequence[TrackedItem],
    actor: AbstractBaseUser,
    role: str,
    order: PurchaseOrder | None = None,
    delivery_note: str = "",
    flags: Sequence[dict] = (),
    details: dict[str, list] | None = None,
) -> None:
    """Write the IN entries (one per category) for objects just received; ``details`` may carry
    per-category lists (e.g. the member decks of each sixain)."""
    by_category: dict[str, list[TrackedItem]] = defaultdict(list)
    for item in items:
        by_category[item.category].append(item)
    for category, group in by_category.items():
        register = _intake_register(domain, establishment, category)
        extra_flags = list(flags)
        if order is not None:
            received = domain.stock_items().filter(purchase_order=order, category=category).count()
            ordered = order.ordered_quantity(category)
            if received != ordered:
                extra_flags.append(
                    {
                        "code": _rule(domain, "order_quantity", establishment)
                        or _rule(domain, "intake", establishment),
                        "text": _french(_("Quantité reçue %(r)s ≠ quantité commandée %(o)s"), r=received, o=ordered),
                    }
                )
        entry_append(
            register=register,
            actor=actor,
            role=role,
            payload={
                "movement": "IN",
                "category": category,
                "quantity": len(group),
                "serials": _serials(group),
                "supplier": group[0].supplier.name if group[0].supplier_id else "",
                "order": str(order) if order else "",
                "delivery_note": delivery_note,
                "details": (details or {}).get(category, []),
                "flags": extra_flags,
            },
        )
    if order is not None and all(
        domain.stock_items().filter(purchase_order=order, category=line["category"]).count() >= line["quantity"]
        for line in order.lines
    ):
        order.status = PurchaseOrder.Status.RECEIVED
        save_audited(order, actor=actor, reason="réception")


def _record_out(
    *,
    domain: CustodyDomain,
    establishment: Establishment,
    items: Sequence[TrackedItem],
    actor: AbstractBaseUser,
    role: str,
    reason: str,
    reference: str,
    new_status: str,
    details: dict | None = None,
) -> list:
    entries = []
    by_category: dict[str, list[TrackedItem]] = defaultdict(list)
    for item in items:
        by_category[item.category].append(item)
    for category, group in by_category.items():
        register = _intake_register(domain, establishment, category)
        entries.append(
            entry_append(
                register=register,
                actor=actor,
                role=role,
                payload={
                    "movement": "OUT",
                    "category": category,
                    "quantity": len(group),
                    "serials": _serials(group),
                    "reason": reason,
                    "reference": reference,
                    **(details or {}),
                },
            )
        )
    for item in items:
        item.status, item.location, item.table_session = new_status, None, None
        save_audited(item, actor=actor, reason=reason)
    return entries


# --- Places: depots, transfers, daily annex ledger ----------------------------------------------


def check_location(domain: CustodyDomain, location: Location, item: TrackedItem | None = None) -> None:
    """Objects not at a table are kept only in the domain's depots (CARD-08, CARD-28, DICE-06…);
    withdrawn objects go to the main depot (CARD-17, SHOE-03)."""
    est = location.establishment
    allowed = domain.depot_kinds.get(est.jurisdiction, frozenset())
    if location.kind not in allowed or not location.active:
        _refuse(
            domain, "location", est, _("« %(loc)s » n'est pas un dépôt autorisé pour ce matériel.") % {"loc": location}
        )
        raise ValueError(_("« %(loc)s » n'est pas un dépôt autorisé pour ce matériel.") % {"loc": location})
    if (
        item is not None
        and item.status in WITHDRAWN_STATUSES
        and est.jurisdiction == "MC"
        and location.kind != LocationKind.DEPOT_PRINCIPAL
    ):
        _refuse(
            domain,
            "out_of_use_location",
            est,
            _("Un matériel hors d'usage, marqué ou détérioré ne peut être placé qu'au dépôt principal."),
        )


@transaction.atomic
def items_transfer(
    *,
    domain: CustodyDomain,
    items: Sequence[TrackedItem],
    to_location: Location,
    actor: AbstractBaseUser,
    received_by: str = "",
) -> list[TrackedItem]:
    """Move objects between depots; each transfer is a line of the daily annex ledger (CARD-05)."""
    if not items:
        raise ValueError(_("Aucun objet à transférer."))
    est = to_location.establishment
    if domain.annex_kind is None or est.jurisdiction != "MC":
        raise ValueError(_("Les transferts entre dépôts ne concernent que la comptabilité annexe (Monaco)."))
    role = require_role(actor, est, domain_writer_roles(domain, est))
    model = type(items[0])
    locked = list(model.objects.select_for_update().filter(pk__in=[i.pk for i in items]).order_by("pk"))
    origins = {item.location_id for item in locked}
    if len(origins) != 1 or None in origins:
        _refuse(domain, "transfer", est, _("Un transfert part d'un seul dépôt d'origine vers un dépôt de destination."))
    origin = locked[0].location
    if origin.pk == to_location.pk:
        raise ValueError(_("Le dépôt de destination doit différer du dépôt d'origine."))
    for item in locked:
        if item.status in GONE_STATUSES or item.table_session_id or item.location_id != origin.pk:
            _refuse(
                domain,
                "transfer",
                est,
                _("« %(item)s » n'est pas en stock au dépôt d'origine : stock négatif impossible.")
                % {"item": item.serial},
            )
        check_location(domain, to_location, item)
    for item in locked:
        item.location = to_location
        save_audited(item, actor=actor, reason="transfert")
    register = current_register(est, domain.annex_kind, domain.code)
    categories = dict(Counter(item.category for item in locked))
    entry_append(
        register=register,
        actor=actor,
        role=role,
        payload={
            "movement": "TRANSFER",
            "operation": _french(_("Transfert")),
            "date": timezone.localdate().isoformat(),
            "from": origin.name,
            "to": to_location.name,
            "categories": categories,
            "quantities": [f"{category} × {n}" for category, n in sorted(categories.items())],
            "serials": _serials(locked),
            "handed_over_by": display_name(actor),
            "received_by": received_by,
        },
    )
    return locked


def domain_writer_roles(domain: CustodyDomain, est: Establishment) -> tuple[str, ...]:
    """Who keeps the domain's books: the intake register's writers."""
    kind, _qualifier = domain.intake_register(est, "")
    from ledgers.registers.kinds import get_kind

    return get_kind(kind).record_roles


@transaction.atomic
def depot_day_close(
    *, domain: CustodyDomain, establishment: Establishment, date: datetime.date, actor: AbstractBaseUser
) -> list[DepotDay]:
    """Close one day of the annex ledger for every depot: opening stock (yesterday's closing),
    transfers in and out, closing stock per category, as counted from the located objects."""
    if domain.annex_kind is None:
        raise ValueError(_("Ce matériel n'a pas de comptabilité annexe."))
    role = require_role(actor, establishment, domain_writer_roles(domain, establishment))
    register = current_register(establishment, domain.annex_kind, domain.code)
    register = Register.objects.select_for_update().get(pk=register.pk)
    if DepotDay.objects.filter(domain=domain.code, location__establishment=establishment, date=date).exists():
        raise ValueError(_("La journée du %(date)s est déjà arrêtée.") % {"date": date.strftime("%d/%m/%Y")})
    moves_in: dict[str, Counter] = defaultdict(Counter)
    moves_out: dict[str, Counter] = defaultdict(Counter)
    for payload in register.entries.filter(kind="record").values_list("payload", flat=True):
        if payload.get("movement") == "TRANSFER" and payload.get("date") == date.isoformat():
            moves_in[payload["to"]].update(payload["categories"])
            moves_out[payload["from"]].update(payload["categories"])
    stock = located_stock(domain, establishment)
    days = []
    depots = Location.objects.filter(
        establishment=establishment,
        kind__in=domain.depot_kinds.get(establishment.jurisdiction, ()),
    ).order_by("code")
    for depot in depots:
        previous = DepotDay.objects.filter(domain=domain.code, location=depot, date__lt=date).order_by("-date").first()
        closing = {cat: n for (loc, cat), n in stock.items() if loc == depot.pk}
        day = DepotDay.objects.create(
            establishment=establishment,
            domain=domain.code,
            location=depot,
            date=date,
            opening=previous.closing if previous else {},
            transfers_in=dict(moves_in[depot.name]),
            transfers_out=dict(moves_out[depot.name]),
            closing=closing,
            closed_by=actor,
            closed_at=timezone.now(),
        )
        entry_append(
            register=register,
            actor=actor,
            role=role,
            payload={
                "movement": "DAY_CLOSE",
                "operation": _french(_("Arrêté de la journée")),
                "date": date.isoformat(),
                "depot": depot.name,
                "from": depot.name,
                "opening": day.opening,
                "in": day.transfers_in,
                "out": day.transfers_out,
                "closing": closing,
                # printed form: one line per category
                "quantities": [
                    _french(
                        _("%(cat)s : ouverture %(o)s, entrées %(i)s, sorties %(x)s, clôture %(c)s"),
                        cat=category,
                        o=day.opening.get(category, 0),
                        i=day.transfers_in.get(category, 0),
                        x=day.transfers_out.get(category, 0),
                        c=closing.get(category, 0),
                    )
                    for category in sorted(set(day.opening) | set(day.transfers_in) | set(closing))
                ],
            },
        )
        days.append(day)
    return days


# --- Use at the tables: issue from a depot, return at the end of the partie ---------------------


def _lock_items(items: Sequence[TrackedItem]) -> list[TrackedItem]:
    if not items:
        raise ValueError(_("Aucun objet sélectionné."))
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
    session = TableSession.objects.select_for_update().select_related("seance", "table").get(pk=session.pk)
    est = session.seance.establishment
    if session.status == TableSession.Status.CLOSED or session.seance.status != Seance.Status.OPEN:
        message = _("La table %(table)s n'a pas de partie ouverte : aucune sortie de matériel.") % {
            "table": session.table
        }
        _refuse(domain, "issue", est, message)
        raise ValueError(message)
    locked = _lock_items(items)
    for item in locked:
        if item.establishment_id != est.pk:
            raise ValueError(_("« %(item)s » n'appartient pas à cet établissement.") % {"item": item})
        if item.status in WITHDRAWN_STATUSES:
            message = _("« %(item)s » est hors d'usage : il ne peut être mis en service.") % {"item": item}
            _refuse(domain, "withdrawn_issue", est, message)
            raise ValueError(message)
        if item.status != ItemStatus.IN_STOCK or item.table_session_id or item.location_id is None:
            raise ValueError(_("« %(item)s » n'est pas disponible en dépôt.") % {"item": item})
        if has_open_incident(item):
            message = _("« %(item)s » fait l'objet d'un incident ouvert : il est consigné.") % {"item": item}
            _refuse(domain, "quarantine", est, message)
            raise ValueError(message)
    origins = sorted({item.location.name for item in locked})
    for item in locked:
        item.location, item.table_session, item.status = None, session, ItemStatus.ISSUED
        save_audited(item, actor=actor, reason="sortie en table")
    entry_append(
        register=current_register(est, TABLE_MOVEMENTS.code, domain.code),
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
            raise ValueError(_("« %(item)s » n'appartient pas à cet établissement.") % {"item": item})
        if item.table_session_id is None:
            raise ValueError(_("« %(item)s » n'est pas en service à une table.") % {"item": item})
        check_location(domain, to_location, item)
    sessions = {item.table_session for item in locked}
    for item in locked:
        item.table_session, item.location, item.status = None, to_location, status
        save_audited(item, actor=actor, reason="rentrée au dépôt")
    first = min(sessions, key=lambda s: s.pk)
    entry_append(
        register=current_register(est, TABLE_MOVEMENTS.code, domain.code),
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


def check_all_returned(session: TableSession) -> None:
    """Closing hook: no partie ends while an object issued to it is still at the table
    (CARD-18, CARD-37, SHOE-02, SHOE-09), for every custody domain."""
    est = session.seance.establishment
    for domain in all_domains():
        code = domain.rule("return", est.jurisdiction)
        if code is None:
            continue
        left = list(domain.model.objects.filter(table_session=session).exclude(status__in=GONE_STATUSES)[:5])
        if left:
            raise RuleViolation(
                code,
                _("Fin de partie impossible : %(items)s n'a pas été rentré au dépôt.")
                % {"items": ", ".join(str(item) for item in left)},
            )


# --- Verification at any time ---------------------------------------------------------------


@transaction.atomic
def stock_verification_record(
    *,
    domain: CustodyDomain,
    establishment: Establishment,
    counted: dict[tuple[int, str], int],
    actor: AbstractBaseUser,
    opened_by: str = "",
    remarks: str = "",
    visa: bool = True,
    orders_seen: Sequence[PurchaseOrder] = (),
) -> StockVerification:
    """The authority compares the counted stock with the located objects and the book stock
    (Σ IN − Σ OUT of the intake registers); a discrepancy opens an incident in the same
    transaction (INC-11 / INC-14). With ``visa`` the agent visas the registers concerned, and
    every purchase order in ``orders_seen`` not yet visaed (CARD-06, DICE-05)."""
    role = require_role(actor, establishment, AUTHORITY[establishment.jurisdiction])
    located = located_stock(domain, establishment, include_tables=True)
    book = book_stock(domain, establishment)
    names = dict(Location.objects.filter(establishment=establishment).values_list("pk", "name"))
    lines, discrepancy = [], False
    for key in sorted(set(located) | set(counted), key=lambda k: (str(k[0]), k[1])):
        loc, category = key
        n_located, n_counted = located.get(key, 0), counted.get(key, located.get(key, 0))
        discrepancy |= n_located != n_counted
        lines.append(
            {
                "location": names.get(loc, _french(_("En table"))) if loc else _french(_("En table")),
                "category": category,
                "located": n_located,
                "counted": n_counted,
            }
        )
    totals: Counter = Counter()
    for (_loc, category), n in located.items():
        totals[category] += n
    for category in sorted(set(book) | set(totals)):
        if book.get(category, 0) != totals.get(category, 0):
            discrepancy = True
        lines.append(
            {
                "location": _french(_("Stock comptable")),
                "category": category,
                "book": book.get(category, 0),
                "located": totals.get(category, 0),
            }
        )
    incident = None
    if discrepancy:
        incident = incident_open(
            establishment=establishment,
            category=CUSTODY_CHECK.code,
            actor=actor,
            description=_french(
                _("Écart entre le stock compté, le stock localisé et le stock comptable (%(domain)s)."),
                domain=_french(domain.label),
            ),
            circumstances=remarks,
        )
    verification = StockVerification.objects.create(
        establishment=establishment,
        domain=domain.code,
        verified_at=timezone.now(),
        agent=actor,
        agent_role=role,
        opened_by=opened_by,
        lines=lines,
        discrepancy=discrepancy,
        incident=incident,
        remarks=remarks,
    )
    for order in orders_seen:
        if order.establishment_id != establishment.pk or order.domain != domain.code:
            raise ValueError(_("Ce bon de commande ne concerne pas ce matériel ou cet établissement."))
        if not order.is_visaed:
            purchase_order_visa(order=order, actor=actor, statement=_french(_("Vu lors de la vérification du stock.")))
    if visa:
        statement = _french(
            _("Vérification du stock du %(date)s : %(result)s."),
            date=establishment.localtime(verification.verified_at).strftime("%d/%m/%Y %H:%M"),
            result=_french(_("écart constaté, incident ouvert") if discrepancy else _("conforme")),
        )
        for register in _registers_concerned(domain, establishment):
            covered = register.entries.filter(kind="visa").order_by("-seq").values_list("payload", flat=True).first()
            if register.head_seq > (covered["covers_seq"] if covered else 0):
                visa_sign(register=register, actor=actor, up_to_seq=register.head_seq, statement=statement)
    return verification


def _registers_concerned(domain: CustodyDomain, est: Establishment) -> list[Register]:
    registers = intake_registers(domain, est)
    if domain.annex_kind and est.jurisdiction == "MC":
        registers |= Register.objects.filter(establishment=est, kind=domain.annex_kind, qualifier=domain.code)
    return list(registers.filter(status=Register.Status.OPEN).order_by("number"))


# --- Destruction ---------------------------------------------------------------------------


@transaction.atomic
def destruction_plan(
    *,
    domain: CustodyDomain,
    establishment: Establishment,
    method: str,
    planned_at: datetime.datetime,
    items: Sequence[TrackedItem],
    actor: AbstractBaseUser,
) -> DestructionSession:
    """Plan a destruction (FR: destruction only, no neutralisation) of withdrawn objects."""
    require_role(actor, establishment, DIRECTION[establishment.jurisdiction])
    if not items:
        raise ValueError(_("Une séance de destruction porte au moins un objet."))
    if establishment.jurisdiction == "FR" and method != DestructionSession.Method.DESTRUCTION:
        _refuse(
            domain,
            "destruction_method",
            establishment,
            _("En France la neutralisation n'est pas admise : seule la destruction est possible."),
        )
    for item in items:
        if item.status in GONE_STATUSES or item.table_session_id:
            raise ValueError(_("« %(item)s » n'est pas en dépôt.") % {"item": item.serial})
    session = save_audited(
        DestructionSession(
            establishment=establishment, domain=domain.code, method=method, planned_at=planned_at, officer=actor
        ),
        actor=actor,
        reason="programmation",
    )
    ct = ContentType.objects.get_for_model(type(items[0]))
    DestructionItem.objects.bulk_create(
        [DestructionItem(session=session, content_type=ct, object_id=item.pk, label=str(item)[:200]) for item in items]
    )
    return session


@transaction.atomic
def destruction_notify(
    *,
    session: DestructionSession,
    channel: str,
    reference: str,
    actor: AbstractBaseUser,
) -> DestructionSession:
    """Record the prior information of the authority (MC: the SCJ, CARD-11 / DICE-07) as it is
    given: its time is the system's, never typed in, so it cannot be back-dated; given once."""
    session = DestructionSession.objects.select_for_update().get(pk=session.pk)
    require_role(actor, session.establishment, DIRECTION[session.establishment.jurisdiction])
    if session.status != DestructionSession.Status.PLANNED:
        raise impossible(_("Cette séance de destruction est déjà effectuée."))
    if session.notified_at is not None:
        raise impossible(_("L'autorité est déjà informée de cette séance de destruction."))
    session.notified_at, session.notice_channel, session.notice_reference = timezone.now(), channel, reference
    return save_audited(session, actor=actor, reason="information de l'autorité")


def session_items(session: DestructionSession, domain: CustodyDomain) -> list[TrackedItem]:
    ids = list(session.items.values_list("object_id", flat=True))
    return list(domain.model.objects.select_for_update().filter(pk__in=ids).order_by("pk"))


@transaction.atomic
def destruction_complete(
    *,
    session: DestructionSession,
    domain: CustodyDomain,
    actor: AbstractBaseUser,
    witness: AbstractBaseUser | None = None,
    checks: dict | None = None,
    observations: str = "",
    inspector: AbstractBaseUser | None = None,
    withheld: Sequence[TrackedItem] = (),
    finding: str = "",
) -> DestructionSession:
    """Perform the destruction: the OUT entries of the intake registers, the objects gone.

    MC: the SCJ must have been informed before the operation starts, at least the SET-05 notice
    beforehand (CARD-11, DICE-07); an SCJ agent may attend as witness; where the domain has a
    ``destruction_inspector`` rule an inspecteur (authenticated by the caller) must be present and
    sign (DICE-07). FR: a police officer must attend (``witness``, authenticated by the caller) and
    visas the entries in the same transaction (CARD-31, DICE-19).

    ``withheld``: objects of the session that the check at the destruction found non-compliant
    (incomplete deck, marked card, loaded die…). An incident is opened on them in the same
    transaction (INC-14) and they are not destroyed: they stay in custody, quarantined.
    """
    session = DestructionSession.objects.select_for_update().get(pk=session.pk)
    est = session.establishment
    role = require_role(actor, est, DIRECTION[est.jurisdiction])
    if session.status != DestructionSession.Status.PLANNED:
        raise impossible(_("Cette séance de destruction est déjà effectuée."))
    now = timezone.now()
    if est.jurisdiction == "MC":
        # The minimum notice the operator sets (SET-05; the text sets none, AMB-37), counted from
        # the notice the system recorded when it was given.
        notice = datetime.timedelta(minutes=(est.setting("SET-05") or {}).get("scj_notice_minutes", 0))
        if session.notified_at is None:
            _refuse(
                domain,
                "destruction_notice",
                est,
                _("Le Service de Contrôle des Jeux doit être informé avant la destruction ou la neutralisation."),
            )
        if session.notified_at > now - notice:
            _refuse(
                domain,
                "destruction_notice",
                est,
                _(
                    "Préavis au Service de Contrôle des Jeux de %(minutes)s min : la destruction ou la "
                    "neutralisation est possible à partir du %(at)s."
                )
                % {
                    "minutes": int(notice.total_seconds() // 60),
                    "at": est.localtime(session.notified_at + notice).strftime("%d/%m/%Y %H:%M"),
                },
            )
    witness_role = ""
    if witness is not None:
        witness_role = require_role(witness, est, AUTHORITY[est.jurisdiction])
    elif est.jurisdiction == "FR":
        _refuse(
            domain,
            "destruction_witness",
            est,
            _("La destruction s'effectue en présence d'un fonctionnaire de police qui vise le carnet."),
        )
    if _rule(domain, "destruction_inspector", est):
        if inspector is None:
            _refuse(
                domain,
                "destruction_inspector",
                est,
                _("La destruction ou la neutralisation s'effectue en présence d'un inspecteur, qui la signe."),
            )
        require_role(inspector, est, (Role.INSPECTEUR,))
    session.checks, session.observations = dict(checks or {}), observations
    items = session_items(session, domain)
    held = {item.pk for item in withheld}
    if held:
        if not held <= {item.pk for item in items}:
            raise ValueError(_("Un objet retenu n'appartient pas à cette séance de destruction."))
        if not finding.strip():
            raise ValueError(_("Décrivez la constatation qui fait retenir ces objets."))
        kept = [item for item in items if item.pk in held]
        incident = incident_open(
            establishment=est,
            category=CUSTODY_CHECK.code,
            actor=actor,
            subjects=kept,
            description=finding.strip(),
            circumstances=str(session),
        )
        session.checks.update(withheld=_serials(kept), incident=incident.pk)
        items = [item for item in items if item.pk not in held]
    if domain.destruction_checks is not None:
        domain.destruction_checks(session, items)
    new_status = (
        ItemStatus.NEUTRALISED if session.method == DestructionSession.Method.NEUTRALISATION else ItemStatus.DESTROYED
    )
    details = {
        "officer": display_name(actor),
        "inspector": display_name(inspector) if inspector is not None else "",
        "witness": f"{display_name(witness)} — {Role(witness_role).label}" if witness is not None else "",
        "notified_at": format_timestamp(session.notified_at) if session.notified_at else "",
        "checks": session.checks,
        "observations": observations,
    }
    entries = _record_out(
        domain=domain,
        establishment=est,
        items=items,
        actor=actor,
        role=role,
        reason=_french(session.get_method_display()),
        reference=f"{session} — {format_timestamp(now)}",
        new_status=new_status,
        details=details,
    )
    session.status, session.performed_at, session.witness, session.witness_role = (
        DestructionSession.Status.COMPLETED,
        now,
        witness,
        witness_role,
    )
    session.inspector = inspector
    save_audited(session, actor=actor, reason="exécution")
    if witness is not None and est.jurisdiction == "FR":
        for entry in entries:
            visa_sign(
                register=entry.register,
                actor=witness,
                up_to_seq=entry.seq,
                statement=_french(_("Destruction effectuée en ma présence ; contrôle effectué.")),
            )
    return session
