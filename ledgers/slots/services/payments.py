"""Writes on jackpot payments: thresholds, payments, disputes and top-ups."""

import datetime
from decimal import Decimal
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ledgers.core.authz import require_role, role_named_by_text
from ledgers.core.errors import RuleViolation
from ledgers.core.models import Establishment
from ledgers.core.readable import euros
from ledgers.core.roles import Role
from ledgers.registers.models import Entry
from ledgers.registers.services import (
    display_name,
    register_language,
)

from ..models import (
    JackpotPayment,
    JackpotThreshold,
    Machine,
    PaymentDispute,
    PaymentMethod,
    TopUp,
)
from ..registers import JACKPOTS, TOP_UPS
from .common import INVENTORY_ROLES, _line, _register_write, _signature

PAY_ROLES = {"MC": (Role.SUPERVISEUR,), "FR": (Role.CAISSIER,)}


def _payment_line(
    machine: Machine,
    *,
    kind: Any,
    actor: AbstractBaseUser,
    role: str,
    event: Any,
    at: datetime.datetime,
    amount: Decimal,
    detail: str,
    **extra: Any,
) -> Entry:
    est = machine.establishment
    with register_language():
        payload = _line(
            machine, event=event, at=at, detail=detail, actor=actor, role=role, est=est, amount=str(amount), **extra
        )
    return _register_write(est, kind, payload, actor=actor, role=role)


@transaction.atomic
def jackpot_threshold_set(
    *, establishment: Establishment, amount: Decimal, effective_from: datetime.datetime, actor: AbstractBaseUser
) -> JackpotThreshold:
    """A new identity threshold fixed by the Direction (SET-18), from its effective date; the past
    payments keep the threshold of their time."""
    role = require_role(actor, establishment, INVENTORY_ROLES[establishment.jurisdiction])
    if establishment.jurisdiction != "MC":  # AMB-28: the French texts set no identity threshold
        raise ValidationError(_("Le seuil d'identification des gagnants est une règle monégasque."))
    if amount <= 0:
        raise ValidationError({"amount": _("Montant positif attendu.")})
    with register_language():
        payload = _line(
            None,
            event=_("Seuil d'identification des gagnants"),
            at=effective_from,
            detail=f"{amount} €",
            actor=actor,
            role=role,
            est=establishment,
            amount=str(amount),
        )
    entry = _register_write(establishment, JACKPOTS, payload, actor=actor, role=role)
    return JackpotThreshold.objects.create(
        establishment=establishment, amount=amount, effective_from=effective_from, set_by=actor, entry=entry
    )


@transaction.atomic
def jackpot_pay(
    *,
    machine: Machine,
    amount: Decimal,
    method: str,
    actor: AbstractBaseUser,
    station: int = 1,
    combination: str = "",
    id_type: str = "",
    id_number: str = "",
    pre_check: str = "",
    controller: AbstractBaseUser | None = None,
    paid_at: datetime.datetime | None = None,
) -> JackpotPayment:
    """A manual jackpot payment. MC: by the superviseur (SLOT-22), in cash, cheque or transfer
    (SLOT-17), the winner's identity document above the threshold in force (SLOT-16). FR: by the
    cashier at the cash desk, controlled and signed by a comité member, on a numbered bon de
    paiement (SLOT-35, REG-42); an amount not above the machine's automatic payment limit is
    flagged."""
    est = machine.establishment
    jur = est.jurisdiction
    role = role_named_by_text(
        actor,
        est,
        PAY_ROLES[jur],
        "SLOT-22" if jur == "MC" else "SLOT-35",
        _("Seul un superviseur approuve un paiement manuel.")
        if jur == "MC"
        else _("Le paiement est fait à la caisse par le caissier."),
    )
    paid_at = paid_at or timezone.now()
    if amount <= 0:
        raise ValidationError({"amount": _("Montant positif attendu.")})
    if method not in PaymentMethod.values:
        raise RuleViolation("SLOT-17", _("Un jackpot est payé en espèces, par chèque ou par virement."))
    flags = []
    bon = None
    if jur == "MC":
        threshold = JackpotThreshold.objects.filter(establishment=est, effective_from__lte=paid_at).first()
        if threshold is not None and amount > threshold.amount and not (id_type.strip() and id_number.strip()):
            raise RuleViolation(
                "SLOT-16",
                _("Au-delà de %(t)s €, un gain n'est payé que sur présentation d'une pièce d'identité.")
                % {"t": euros(threshold.amount)},
            )
    else:
        if controller is None or controller.pk == actor.pk:
            raise RuleViolation("SLOT-35", _("Le paiement est contrôlé et signé par un membre du comité de direction."))
        if not combination.strip():  # a mention of the bon and of the register (68-20; REG-37)
            raise ValidationError({"combination": _("Indiquez la combinaison des figures constituant le jackpot.")})
        role_named_by_text(
            controller,
            est,
            (Role.COMITE,),
            "SLOT-35",
            _("Le paiement est contrôlé et signé par un membre du comité de direction."),
        )
        if machine.payment_limit is not None and amount <= machine.payment_limit:
            flags.append("SLOT-35")
        # Bons are numbered without gaps (REG-42, BP): the next number under the establishment's row lock.
        Establishment.objects.select_for_update().get(pk=est.pk)
        bon = (JackpotPayment.objects.filter(machine__establishment=est).aggregate(n=Max("bon_number"))["n"] or 0) + 1
    ident = f" — {id_type.strip()} {id_number.strip()}" if id_number.strip() else ""
    control = f" — {_('contrôlé par')} {display_name(controller)}" if controller else ""
    signed = {}
    if controller:  # FR: the register's line is signed by the cashier and the comité member (68-20; REG-37)
        with register_language():
            signed["signature"] = f"{_signature(actor, role)} ; {_signature(controller, Role.COMITE)}"
    entry = _payment_line(
        machine,
        kind=JACKPOTS,
        actor=actor,
        role=role,
        event=_("Paiement manuel"),
        at=paid_at,
        amount=amount,
        detail=f"{combination.strip()}{ident} — {PaymentMethod(method).label}"
        f"{control}" + (f" — {_('bon')} n° {bon}" if bon else ""),
        station=station,
        flags=flags,
        **signed,
    )
    return JackpotPayment.objects.create(
        machine=machine,
        station=station,
        paid_at=paid_at,
        amount=amount,
        combination=combination.strip(),
        method=method,
        id_type=id_type.strip(),
        id_number=id_number.strip(),
        pre_check=pre_check.strip(),
        paid_by=actor,
        controlled_by=controller,
        bon_number=bon,
        flags=flags,
        entry=entry,
    )


@transaction.atomic
def dispute_decide(
    *,
    machine: Machine,
    claim: str,
    mechanic: AbstractBaseUser,
    mechanic_statement: str,
    decision: str,
    actor: AbstractBaseUser,
    amount_paid: Decimal = Decimal("0"),
) -> PaymentDispute:
    """The superviseur decides a payment dispute after hearing the mechanic (SLOT-18, INC-04)."""
    est = machine.establishment
    role = role_named_by_text(
        actor, est, (Role.SUPERVISEUR,), "INC-04", _("Une contestation de paiement est tranchée par le superviseur.")
    )
    role_named_by_text(mechanic, est, (Role.MECANICIEN,), "INC-04", _("Le superviseur entend un mécanicien."))
    if not mechanic_statement.strip():
        raise RuleViolation("INC-04", _("La décision suppose l'avis du mécanicien entendu."))
    if not claim.strip() or not decision.strip():
        raise ValidationError(_("La réclamation et la décision sont obligatoires."))
    now = timezone.now()
    entry = _payment_line(
        machine,
        kind=JACKPOTS,
        actor=actor,
        role=role,
        event=_("Contestation de paiement"),
        at=now,
        amount=amount_paid,
        detail=f"{claim.strip()} — {_('mécanicien')} {display_name(mechanic)} : "
        f"{mechanic_statement.strip()} — {_('décision')} : {decision.strip()}",
    )
    return PaymentDispute.objects.create(
        machine=machine,
        claim=claim.strip(),
        mechanic=mechanic,
        mechanic_statement=mechanic_statement.strip(),
        heard_at=now,
        decision=decision.strip(),
        amount_paid=amount_paid,
        decided_by=actor,
        decided_at=now,
        entry=entry,
    )


@transaction.atomic
def top_up_pay(
    *,
    machine: Machine,
    combination: str,
    amount_due: Decimal,
    paid_by_machine: Decimal,
    difference: Decimal,
    customer: str,
    mechanic_opinion: str,
    actor: AbstractBaseUser,
) -> TopUp:
    """The superviseur pays the difference between a winning combination and what the machine paid,
    written in the cahier des compléments (SLOT-20, REG-17)."""
    est = machine.establishment
    role = role_named_by_text(actor, est, (Role.SUPERVISEUR,), "SLOT-20", _("Le superviseur paie le complément."))
    if not (combination.strip() and customer.strip() and mechanic_opinion.strip()):
        raise RuleViolation("SLOT-20", _("La combinaison, le client et l'avis du mécanicien sont obligatoires."))
    if difference != amount_due - paid_by_machine or difference <= 0:
        raise RuleViolation(
            "SLOT-20", _("Le complément est la différence, positive, entre le montant dû et ce que la machine a payé.")
        )
    now = timezone.now()
    entry = _payment_line(
        machine,
        kind=TOP_UPS,
        actor=actor,
        role=role,
        event=_("Complément de paiement"),
        at=now,
        amount=difference,
        detail=f"{combination.strip()} — {_('dû')} {amount_due} € — {_('payé par la machine')} "
        f"{paid_by_machine} € — {customer.strip()} — {mechanic_opinion.strip()}",
    )
    return TopUp.objects.create(
        machine=machine,
        paid_at=now,
        combination=combination.strip(),
        amount_due=amount_due,
        paid_by_machine=paid_by_machine,
        difference=difference,
        customer=customer.strip(),
        mechanic_opinion=mechanic_opinion.strip(),
        paid_by=actor,
        entry=entry,
    )
