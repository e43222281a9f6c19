"""Stock verification at any time."""

from collections import Counter
from collections.abc import Sequence

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ledgers.core.authz import require_role
from ledgers.core.models import Establishment, Location
from ledgers.incidents.categories import CUSTODY_CHECK
from ledgers.incidents.services import incident_open
from ledgers.registers.services import visa_sign

from ..domains import CustodyDomain
from ..models import (
    PurchaseOrder,
    StockVerification,
)
from ..selectors import book_stock, located_stock
from .common import AUTHORITY, _french
from .destruction import _registers_concerned
from .suppliers import purchase_order_visa


def verifier_role(actor: AbstractBaseUser, est: Establishment) -> str:
    """The role in which ``actor`` verifies a stock: the jurisdiction's authority."""
    return require_role(actor, est, AUTHORITY[est.jurisdiction])


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
    role = verifier_role(actor, establishment)
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
            raise ValidationError(
                {"orders_seen": _("Ce bon de commande ne concerne pas ce matériel ou cet établissement.")}
            )
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
