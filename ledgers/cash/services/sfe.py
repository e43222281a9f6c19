"""MC chemin de fer: the changeurs hand over certain advances that the Société Financière
d'Encaissement grants customers (art. 11.3, COUNT-11). Each is a slip with the SFE's
authorisation, written in the register of the cash slips (REG-14)."""

from decimal import Decimal

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ledgers.core import amounts
from ledgers.core.authz import role_named_by_text
from ledgers.core.errors import RuleViolation
from ledgers.core.models import TableSession
from ledgers.core.roles import Role
from ledgers.registers.services import display_name, register_language

from ..models import SfeAdvance
from .slips import _bons_write


@transaction.atomic
def sfe_advance_record(
    *, session: TableSession, customer: str, amount: Decimal, authorisation: str, actor: AbstractBaseUser
) -> SfeAdvance:
    """The changeur hands an SFE advance to a customer at an open chemin de fer table."""
    session = TableSession.objects.select_related("seance__establishment", "table").get(pk=session.pk)
    est = session.seance.establishment
    if est.jurisdiction != "MC" or session.table.game != "chemin_de_fer":
        raise ValidationError(_("Les avances de la SFE se font au chemin de fer monégasque."))
    role = role_named_by_text(
        actor,
        est,
        (Role.CHANGEUR,),
        "COUNT-11",
        _("Les avances de la Société Financière d'Encaissement passent par les changeurs."),
    )
    if session.status != TableSession.Status.OPEN:
        raise RuleViolation("COUNT-02", _("La table %(table)s n'est pas en jeu.") % {"table": session.table.number})
    if not authorisation.strip():
        raise RuleViolation(
            "COUNT-11", _("Indiquez la référence de l'autorisation de la Société Financière d'Encaissement.")
        )
    amount = amounts.money(amount)
    if amount <= 0 or not customer.strip():
        raise ValidationError(_("Indiquez le client et un montant positif."))
    advance = SfeAdvance.objects.create(
        table_session=session,
        customer=customer.strip(),
        amount=amount,
        authorisation=authorisation.strip(),
        changeur=actor,
        advanced_at=timezone.now(),
    )
    with register_language():
        payload = {
            "book": "SFE",
            "number": "",
            "event": str(_("Avance de la SFE")),
            "table": session.table.number,
            "seance": str(session.seance),
            "requested": str(
                _("%(customer)s — autorisation %(ref)s") % {"customer": advance.customer, "ref": advance.authorisation}
            ),
            "handed": "",
            "total": str(amount),
            "signatures": [f"{display_name(actor)} ({Role(role).label})"],
        }
    _bons_write(est, actor=actor, role=role, payload=payload)
    return advance
