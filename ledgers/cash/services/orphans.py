"""FR orphans (art. 41): the carnet modèle 11 bis, restitutions, tirelires and the season's clearing."""

import datetime
from collections.abc import Sequence
from decimal import Decimal

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max, Sum
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from ledgers.core import amounts
from ledgers.core.authz import require_role, save_audited
from ledgers.core.errors import RuleViolation
from ledgers.core.models import Establishment
from ledgers.core.readable import euros
from ledgers.core.roles import Role
from ledgers.registers.models import Entry, Register
from ledgers.registers.selectors import current_register
from ledgers.registers.services import display_name, entry_append, entry_seq_next, register_language

from .. import rules
from ..models import Orphan
from ..registers import (
    CARNET_ORPHELINS,
)
from .common import CASHIERS

ORPHAN_KEEPERS = (*CASHIERS, Role.DIRECTEUR_RESPONSABLE, Role.COMITE)


def _orphans_write(
    est: Establishment, *, actor: AbstractBaseUser, role: str, payload: dict, register: Register | None = None
) -> Entry:
    """Every line of the carnet des orphelins is written here (``register``: its volume, when the
    caller holds it locked)."""
    register = register or current_register(est, CARNET_ORPHELINS.code)
    return entry_append(register=register, actor=actor, role=role, payload=payload)


@transaction.atomic
def orphan_record(
    *,
    establishment: Establishment,
    category: str,
    amount: Decimal,
    place: str,
    found_by: str,
    paid_into: str,
    actor: AbstractBaseUser,
    witness: str = "",
    initial_stake: Decimal | None = None,
    winnings: Decimal | None = None,
) -> Orphan:
    """An orphan paid into the cash desk or a tirelire and written at once in carnet modèle 11 bis
    (COUNT-31); an abandoned stake gives its initial stake and cumulative winnings (COUNT-30)."""
    role = require_role(actor, establishment, ORPHAN_KEEPERS)
    if establishment.jurisdiction != "FR":
        raise ValidationError(_("Le carnet des orphelins est un registre français."))
    amount = amounts.money(amount)
    if category == Orphan.Category.ABANDONED_STAKE:
        if initial_stake is None or winnings is None:
            raise RuleViolation(
                "COUNT-30",
                _(
                    "Une mise abandonnée s'inscrit avec la mise initiale oubliée et ses "
                    "gains cumulés jusqu'au constat de l'abandon."
                ),
            )
        initial_stake, winnings = amounts.money(initial_stake), amounts.money(winnings)
        if initial_stake + winnings != amount:
            raise RuleViolation(
                "COUNT-30",
                _("Le montant de la mise abandonnée est la mise initiale plus ses gains cumulés (%(total)s €).")
                % {"total": euros(initial_stake + winnings)},
            )
    if not place.strip() or not found_by.strip() or not paid_into.strip():
        raise ValidationError(_("Indiquez le lieu, qui l'a trouvé et où il est versé (caisse ou tirelire)."))
    found_at = timezone.now()
    with register_language():
        detail = (
            str(_("%(stake)s € + %(winnings)s € de gains") % {"stake": initial_stake, "winnings": winnings})
            if initial_stake is not None
            else ""
        )
        payload = {
            "found_at": establishment.localtime(found_at).strftime("%Y-%m-%d %H:%M"),
            "category": str(Orphan.Category(category).label),
            "place": place.strip(),
            "detail": detail,
            "paid_into": paid_into.strip(),
            "amount": str(amount),
            "found_by": found_by.strip(),
            "witness": witness.strip(),
            "col9": "",
            "signed_by": f"{display_name(actor)} ({Role(role).label})",
        }
    register = current_register(establishment, CARNET_ORPHELINS.code)
    orphan = save_audited(
        Orphan(
            establishment=establishment,
            category=category,
            place=place.strip(),
            amount=amount,
            initial_stake=initial_stake,
            winnings=winnings,
            found_by=found_by.strip(),
            witness=witness.strip(),
            found_at=found_at,
            paid_into=paid_into.strip(),
            entry_seq=entry_seq_next(register),
        ),
        actor=actor,
        reason="inscription",
    )
    _orphans_write(establishment, actor=actor, role=role, payload=payload, register=register)
    return orphan


@transaction.atomic
def orphan_restitute(
    *, orphan: Orphan, amount: Decimal, name: str, address: str, proof: str, actor: AbstractBaseUser
) -> Orphan:
    """Return an orphan to its owner who proves his right beyond dispute; never an expired ticket;
    column 7 closed at the refund date, column 9 the owner, his proof and the original entry (COUNT-32)."""
    orphan = Orphan.objects.select_for_update().get(pk=orphan.pk)
    est = orphan.establishment
    role = require_role(actor, est, ORPHAN_KEEPERS)
    if orphan.category == Orphan.Category.EXPIRED_TICKET:
        raise RuleViolation("COUNT-32", _("Un ticket périmé n'est jamais remboursé."))
    if not (name.strip() and address.strip() and proof.strip()):
        raise RuleViolation(
            "COUNT-32", _("La restitution porte le nom et l'adresse du bénéficiaire et le justificatif de son droit.")
        )
    amount = amounts.money(amount)
    if amount <= 0 or orphan.refunded + amount > orphan.amount:
        raise RuleViolation(
            "COUNT-32",
            _("La restitution ne peut dépasser le montant de l'orphelin (reste : %(left)s €).")
            % {"left": euros(orphan.amount - orphan.refunded)},
        )
    today = est.localtime().date().isoformat()
    orphan.refunded += amount
    orphan.restitutions = [
        *orphan.restitutions,
        {
            "date": today,
            "amount": str(amount),
            "name": name.strip(),
            "address": address.strip(),
            "proof": proof.strip(),
        },
    ]
    save_audited(orphan, actor=actor, reason="restitution")
    with register_language():
        payload = {
            "found_at": today,
            "category": str(pgettext_lazy("orphan", "Restitution")),
            "place": "",
            "detail": "",
            "paid_into": "",
            "amount": str(-amount),
            "col9": str(
                _("%(name)s, %(address)s — justificatif : %(proof)s — inscription n° %(seq)s")
                % {"name": name.strip(), "address": address.strip(), "proof": proof.strip(), "seq": orphan.entry_seq}
            ),
            "signed_by": f"{display_name(actor)} ({Role(role).label})",
        }
    _orphans_write(est, actor=actor, role=role, payload=payload)
    return orphan


def _orphan_events(est: Establishment, event: str):
    return Entry.objects.filter(register__establishment=est, register__kind=CARNET_ORPHELINS.code, payload__event=event)


@transaction.atomic
def tirelire_open(
    *, establishment: Establishment, tirelire: str, amount: Decimal, witnesses: Sequence[str], actor: AbstractBaseUser
) -> Entry:
    """Open an orphans' tirelire before witnesses and pay its content into the cash desk. Every sum
    in it was written in carnet 11 bis when it was dropped in (COUNT-31): an amount found above the
    sums posted since the last opening is refused until the missing orphans are written."""
    role = require_role(actor, establishment, ORPHAN_KEEPERS)
    if establishment.jurisdiction != "FR":
        raise ValidationError(_("Le carnet des orphelins est un registre français."))
    tirelire, witnesses = tirelire.strip(), [w.strip() for w in witnesses if w.strip()]
    if not tirelire or not witnesses:
        raise ValidationError(_("Indiquez la tirelire et les témoins de son ouverture."))
    amount = amounts.money(amount)
    # Lock the carnet so that an orphan cannot be written while the tirelire is being opened.
    register = Register.objects.select_for_update().get(pk=current_register(establishment, CARNET_ORPHELINS.code).pk)
    last = (
        _orphan_events(establishment, "tirelire")
        .filter(register=register, payload__tirelire=tirelire)
        .aggregate(s=Max("seq"))["s"]
    )
    posted = Orphan.objects.filter(establishment=establishment, paid_into=tirelire, entry_seq__gt=last or 0).aggregate(
        s=Sum("amount")
    )["s"] or Decimal("0.00")
    if amount > posted:
        raise RuleViolation(
            "COUNT-31",
            _(
                "La tirelire %(tirelire)s contient %(amount)s € ; seuls %(posted)s € sont "
                "inscrits au carnet modèle 11 bis : inscrivez d'abord les orphelins "
                "manquants."
            )
            % {"tirelire": tirelire, "amount": euros(amount), "posted": euros(posted)},
        )
    with register_language():
        shortfall = (
            str(_("Manquant de %(amount)s € sur les sommes inscrites.") % {"amount": posted - amount})
            if amount < posted
            else ""
        )
        payload = {
            "event": "tirelire",
            "tirelire": tirelire,
            "found_at": establishment.localtime().strftime("%Y-%m-%d %H:%M"),
            "category": str(_("Ouverture de la tirelire %(tirelire)s") % {"tirelire": tirelire}),
            "place": "",
            "detail": str(
                _("%(amount)s € trouvés, versés à la caisse ; témoins : %(witnesses)s")
                % {"amount": amount, "witnesses": ", ".join(witnesses)}
            ),
            "paid_into": str(_("caisse")),
            "amount": "",
            "col9": shortfall,
            "signed_by": f"{display_name(actor)} ({Role(role).label})",
        }
    return _orphans_write(establishment, actor=actor, role=role, payload=payload, register=register)


@transaction.atomic
def orphans_season_clear(
    *, establishment: Establishment, season_start: datetime.date, account_balance: Decimal, actor: AbstractBaseUser
) -> Entry:
    """The season's clearing of the "orphelins" account: its credit balance equals the grand total
    of carnet 11 bis (orphans of the season less their restitutions), then it is cleared (COUNT-31)."""
    role = require_role(actor, establishment, (Role.DIRECTEUR_RESPONSABLE, Role.COMITE, Role.COMPTABLE_TRESOR))
    if establishment.jurisdiction != "FR":
        raise ValidationError(_("Le carnet des orphelins est un registre français."))
    start = rules.season_start(season_start)
    end = start.replace(year=start.year + 1)
    if establishment.localtime().date() < end:
        raise ValidationError(_("La saison du %(start)s n'est pas terminée.") % {"start": start.isoformat()})
    register = Register.objects.select_for_update().get(pk=current_register(establishment, CARNET_ORPHELINS.code).pk)
    if _orphan_events(establishment, "apurement").filter(payload__season=start.isoformat()).exists():
        raise ValidationError(_("Le compte « orphelins » de cette saison est déjà apuré."))
    orphans = [
        o
        for o in Orphan.objects.filter(establishment=establishment)
        if start <= establishment.localtime(o.found_at).date() < end
    ]
    total = sum((o.amount - o.refunded for o in orphans), Decimal("0.00"))
    balance = amounts.money(account_balance)
    if balance != total:
        raise RuleViolation(
            "COUNT-31",
            _(
                "Le solde créditeur du compte « orphelins » (%(balance)s €) doit égaler le "
                "total général du carnet modèle 11 bis (%(total)s €)."
            )
            % {"balance": euros(balance), "total": euros(total)},
        )
    with register_language():
        payload = {
            "event": "apurement",
            "season": start.isoformat(),
            "found_at": establishment.localtime().strftime("%Y-%m-%d %H:%M"),
            "category": str(
                _("Apurement du compte « orphelins » de la saison %(start)s – %(end)s")
                % {"start": start.isoformat(), "end": (end - datetime.timedelta(days=1)).isoformat()}
            ),
            "place": "",
            "detail": str(_("Total général du carnet : %(total)s €") % {"total": total}),
            "paid_into": "",
            "amount": "",
            "col9": "",
            "signed_by": f"{display_name(actor)} ({Role(role).label})",
        }
    return _orphans_write(establishment, actor=actor, role=role, payload=payload, register=register)
