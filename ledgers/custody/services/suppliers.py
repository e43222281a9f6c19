"""Suppliers and purchase orders."""

import datetime

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from ledgers.core.authz import require_role, save_audited
from ledgers.core.errors import impossible
from ledgers.core.models import Establishment
from ledgers.core.roles import Role
from ledgers.registers.selectors import current_register
from ledgers.registers.services import display_name, entry_append, register_language

from ..domains import CustodyDomain
from ..models import (
    PurchaseOrder,
    Supplier,
)
from ..registers import PURCHASE_ORDERS
from .common import AUTHORITY, DIRECTION, _french, _refuse


def _approval_text(supplier: Supplier) -> str:
    """The supplier's approval as its line in the carnet says it, in the registers' language."""
    if not supplier.approval_reference:
        return _french(_("Sans agrément"))
    start, end = (f"{day:%d/%m/%Y}" if day else "" for day in (supplier.approved_from, supplier.approved_until))
    dates = " ".join(
        filter(None, (start and _french(_("du %(date)s"), date=start), end and _french(_("au %(date)s"), date=end)))
    )
    return " — ".join(filter(None, (supplier.approval_reference, supplier.approval_issuer, dates)))


def _supplier_entry(supplier: Supplier, *, actor: AbstractBaseUser, role: str, event: Promise) -> None:
    """A supplier's registration or approval in the carnet of its domain's orders: each order is
    refused from a maker without a valid approval (CARD-32, DICE-15), and the authority that visas
    the orders (CARD-07, CARD-33, DICE-16) reads there the approval they relied on."""
    est = supplier.establishment
    entry_append(
        register=current_register(est, PURCHASE_ORDERS.code, supplier.domain),
        actor=actor,
        role=role,
        payload={
            "date": est.localtime(timezone.now()).date().isoformat(),
            "event": _french(event),
            "supplier": supplier.name,
            "approval": _approval_text(supplier),
        },
    )


def _check_approval_dates(approved_from: datetime.date | None, approved_until: datetime.date | None) -> None:
    if approved_from and approved_until and approved_until < approved_from:
        raise ValidationError({"approved_until": _("La fin de l'agrément précède son début.")})


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
    """Enter a maker or supplier with its approval (FR: the Minister's, CARD-32, DICE-15), a line of
    the carnet of the domain's orders."""
    role = require_role(actor, establishment, DIRECTION[establishment.jurisdiction])
    _check_approval_dates(approved_from, approved_until)
    supplier = Supplier(
        establishment=establishment,
        domain=domain.code,
        name=name.strip(),
        approval_reference=approval_reference.strip(),
        approval_issuer=approval_issuer.strip(),
        approved_from=approved_from,
        approved_until=approved_until,
    )
    save_audited(supplier, actor=actor, reason="enregistrement")
    _supplier_entry(supplier, actor=actor, role=role, event=_("Enregistrement du fournisseur"))
    return supplier


@transaction.atomic
def supplier_approval_change(
    *,
    supplier: Supplier,
    approval_reference: str,
    actor: AbstractBaseUser,
    approval_issuer: str = "",
    approved_from: datetime.date | None = None,
    approved_until: datetime.date | None = None,
) -> Supplier:
    """Record the supplier's approval as it now stands (renewed, or first given), a line of the
    carnet of the domain's orders; the orders and receipts that follow are checked against it
    (CARD-32, DICE-15)."""
    supplier = Supplier.objects.select_for_update().select_related("establishment").get(pk=supplier.pk)
    role = require_role(actor, supplier.establishment, DIRECTION[supplier.establishment.jurisdiction])
    if not approval_reference.strip():
        raise ValidationError({"approval_reference": _("Indiquez la référence de l'agrément.")})
    _check_approval_dates(approved_from, approved_until)
    approval = {
        "approval_reference": approval_reference.strip(),
        "approval_issuer": approval_issuer.strip(),
        "approved_from": approved_from,
        "approved_until": approved_until,
    }
    if all(getattr(supplier, name) == value for name, value in approval.items()):
        raise ValidationError(_("Le fournisseur a déjà cet agrément."))
    for name, value in approval.items():
        setattr(supplier, name, value)
    save_audited(supplier, actor=actor, reason="agrément")
    _supplier_entry(supplier, actor=actor, role=role, event=_("Agrément du fournisseur"))
    return supplier


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
    est = order.establishment
    register = current_register(est, PURCHASE_ORDERS.code, order.domain)
    visa = ""
    with register_language():
        event = str(event)
        if order.visa_by:  # the officer's name, service and date (CARD-33, DICE-16)
            service = est.profile.authority_names.get(order.visa_role) or Role(order.visa_role).label
            visa = (
                f"{order.visa_statement} — {display_name(order.visa_by)}, {service}, "
                f"{est.localtime(order.visa_at):%d/%m/%Y}"
            )
    entry_append(
        register=register,
        actor=actor,
        role=role,
        payload={
            "order": str(order),
            "number": order.number,
            "carnet": order.carnet,
            "date": est.localtime(order.issued_at).date().isoformat(),
            "event": event,
            "supplier": order.supplier.name,
            "approval": _approval_text(order.supplier),
            "lines": [f"{line['category']} × {line['quantity']}" for line in order.lines],
            "visa": visa,
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
        raise ValidationError(
            {"supplier": _("Ce fournisseur n'est pas enregistré pour ce matériel dans cet établissement.")}
        )
    if not lines or any(int(line.get("quantity", 0)) <= 0 for line in lines):
        raise ValidationError({"lines": _("Un bon de commande porte au moins une ligne de quantité positive.")})
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
        raise ValidationError({"number": _("Le prochain bon de ce carnet est le n° %(next)s.") % {"next": last + 1}})
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
