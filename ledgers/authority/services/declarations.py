"""AUTH-01, AUTH-02: prior declarations and their follow-up."""

import datetime
from collections.abc import Iterable

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ledgers.core.authz import require_role, role_named_by_text, save_audited
from ledgers.core.errors import RuleViolation
from ledgers.core.models import Establishment
from ledgers.core.roles import Role
from ledgers.incidents.services import authority_notice_write
from ledgers.notifications.models import NoticeKind
from ledgers.notifications.services import notice_send
from ledgers.registers.models import Entry, Register
from ledgers.registers.selectors import current_register
from ledgers.registers.services import display_name, entry_append, entry_seq_next, register_language

from ..models import (
    Declaration,
)
from ..registers import (
    DECLARATIONS,
)
from .common import _require_fr, _required


def _write(register: Register, *, actor: AbstractBaseUser, role: str, payload: dict) -> Entry:
    """Every line of the register of prior declarations is written here."""
    return entry_append(register=register, actor=actor, role=role, payload=payload)


@transaction.atomic
def declaration_record(
    *,
    establishment: Establishment,
    actor: AbstractBaseUser,
    operation: str,
    details: str,
    sent_on: datetime.date,
    recipients: Iterable[str],
    proof: str,
    implementation_date: datetime.date,
    tournament_until: datetime.date | None = None,
) -> Declaration:
    """A detailed prior declaration, sent to the three recipients at least SET-28 days before the
    implementation date it states (003 art. 7, 9 bis)."""
    _require_fr(establishment, DECLARATIONS.title)
    role = role_named_by_text(
        actor,
        establishment,
        (Role.DIRECTEUR_RESPONSABLE,),
        "AUTH-01",
        _("Les déclarations préalables sont faites par le directeur responsable."),
    )
    if operation not in Declaration.Operation.values:
        raise ValidationError({"operation": _("Opération inconnue.")})
    fields = _required(details=details, proof=proof)
    if sent_on > establishment.localtime(timezone.now()).date():
        raise ValidationError({"sent_on": _("La date d'envoi ne peut pas être dans le futur.")})
    missing = [str(label) for code, label in Declaration.Recipient.choices if code not in set(recipients)]
    if missing:
        raise RuleViolation(
            "AUTH-01",
            _("La déclaration est adressée aux trois destinataires ; manque : %(who)s.") % {"who": ", ".join(missing)},
        )
    days = int(establishment.setting("SET-28")["days"])
    if implementation_date < sent_on + datetime.timedelta(days=days):
        raise RuleViolation(
            "AUTH-01",
            _(
                "La déclaration doit être envoyée %(days)s jours au moins avant la mise en œuvre : "
                "envoyée le %(sent)s, "
                "mise en œuvre au plus tôt le %(earliest)s."
            )
            % {
                "days": days,
                "sent": sent_on.strftime("%d/%m/%Y"),
                "earliest": (sent_on + datetime.timedelta(days=days)).strftime("%d/%m/%Y"),
            },
        )
    if operation == Declaration.Operation.POKER_TOURNAMENT:
        if tournament_until is None or tournament_until < implementation_date:
            raise ValidationError({"tournament_until": _("Indiquez la fin du tournoi déclaré (après son début).")})
    else:
        tournament_until = None
    register = current_register(establishment, DECLARATIONS.code)
    Establishment.objects.select_for_update().get(pk=establishment.pk)
    number = Declaration.objects.filter(establishment=establishment).count() + 1
    with register_language():
        payload = {
            "declaration": number,
            "event": "déclaration",
            "operation": str(Declaration.Operation(operation).label),
            "details": fields["details"],
            "sent_on": sent_on.isoformat(),
            "recipients": [str(label) for _code, label in Declaration.Recipient.choices],
            "proof": fields["proof"],
            "implementation_date": implementation_date.isoformat(),
            "tournament_until": tournament_until.isoformat() if tournament_until else None,
            "signed_by": display_name(actor),
        }
    declaration = Declaration(
        establishment=establishment,
        register=register,
        number=number,
        operation=operation,
        details=fields["details"],
        sent_on=sent_on,
        recipients=sorted(set(recipients)),
        proof=fields["proof"],
        implementation_date=implementation_date,
        tournament_until=tournament_until,
        declared_by=actor,
        entry_seq=entry_seq_next(register),
    )
    declaration = save_audited(declaration, actor=actor, reason="déclaration")
    _write(register, actor=actor, role=role, payload=payload)
    for _code, label in Declaration.Recipient.choices:  # one line per recipient (AUTH-01)
        authority_notice_write(
            establishment=establishment,
            recipient=label,
            subject=str(
                _("Déclaration préalable n° %(n)s — %(operation)s, mise en œuvre le %(date)s")
                % {"n": number, "operation": payload["operation"], "date": implementation_date.strftime("%d/%m/%Y")}
            ),
            requirement="AUTH-01",
            notified_at=sent_on,
            reference=fields["proof"],
            actor=actor,
            role=role,
        )
    # The police in the casino and the territorial service see it at once, by e-mail (AUTH-01).
    notice_send(
        establishment=establishment,
        kind=NoticeKind.DECLARATION,
        register=register,
        subject=str(
            _("Déclaration préalable n° %(n)s — %(operation)s, mise en œuvre le %(date)s")
            % {"n": number, "operation": payload["operation"], "date": implementation_date.strftime("%d/%m/%Y")}
        ),
        body=fields["details"],
        actor=actor,
        role=role,
        roles=(Role.CHEF_POLICE, Role.POLICE),
        about=f"authority.declaration:{declaration.pk}",
    )
    return declaration


@transaction.atomic
def declaration_follow_up(
    *, declaration: Declaration, actor: AbstractBaseUser, follow_up: str, note: str = ""
) -> Declaration:
    """What became of the declaration: the arrêté d'autorisation amended or not (AUTH-02)."""
    declaration = Declaration.objects.select_for_update().select_related("establishment").get(pk=declaration.pk)
    est = declaration.establishment
    role = require_role(actor, est, (Role.DIRECTEUR_RESPONSABLE, Role.COMITE))
    if follow_up not in Declaration.FollowUp.values or follow_up == Declaration.FollowUp.PENDING:
        raise ValidationError({"follow_up": _("Suite inconnue.")})
    with register_language():
        label = str(Declaration.FollowUp(follow_up).label)
    declaration.follow_up, declaration.follow_up_note = follow_up, note.strip()
    save_audited(declaration, actor=actor, reason="suite")
    _write(
        declaration.register,
        actor=actor,
        role=role,
        payload={
            "declaration": declaration.number,
            "event": "suite",
            "refers_to_seq": declaration.entry_seq,
            "follow_up": label,
            "note": note.strip(),
            "signed_by": display_name(actor),
        },
    )
    return declaration
