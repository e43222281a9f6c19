"""GAME-04: the Split Aces progressive (Monaco)."""

import datetime
from collections.abc import Iterable
from decimal import Decimal

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from ledgers.core.authz import require_role, role_named_by_text
from ledgers.core.errors import RuleViolation, impossible
from ledgers.core.models import Establishment, GamingTable, Seance
from ledgers.core.roles import Role
from ledgers.registers.selectors import current_register
from ledgers.registers.services import display_name, entry_append, register_language

from .. import selectors
from ..models import (
    ProgressiveConfig,
    ProgressivePayout,
    ProgressiveReading,
)
from ..registers import (
    SPLIT_ACES,
)
from .common import _local, _required

PROGRESSIVE_APPROVERS = (Role.DIRECTEUR_JEUX, Role.SOUS_DIRECTEUR)


PROGRESSIVE_READERS = (*PROGRESSIVE_APPROVERS, Role.INSPECTEUR, Role.CHEF_TABLE)


def _require_mc(establishment: Establishment, what: str | Promise) -> None:
    if establishment.jurisdiction != "MC":
        raise ValidationError(_("%(what)s n'est tenu que dans les casinos monégasques.") % {"what": what})


def _split_aces_entry(
    establishment: Establishment,
    *,
    actor: AbstractBaseUser,
    role: str,
    event: str | Promise,
    detail: str,
    seance: Seance | None = None,
    table: str = "",
    amount: Decimal | None = None,
    flags: Iterable[str] = (),
) -> int:
    with register_language():
        payload = {
            "event": str(event),
            "seance": str(seance) if seance else "",
            "table": table,
            "detail": str(detail),
            "amount": str(amount) if amount is not None else "",
            "signed_by": display_name(actor),
            "flags": [str(f) for f in flags],
        }
    return entry_append(
        register=current_register(establishment, SPLIT_ACES.code), actor=actor, role=role, payload=payload
    ).seq


@transaction.atomic
def progressive_configure(
    *,
    establishment: Establishment,
    actor: AbstractBaseUser | None,
    effective_from: datetime.date | None,
    combinations: str,
    stake: Decimal,
    percentage: Decimal,
    tables: Iterable[str],
) -> ProgressiveConfig:
    """A new version of the Split Aces parameters the operator fixes (SET-22). REFUSED without its
    author (the approving officer of the Direction des Jeux) or its date of effect (GAME-04)."""
    _require_mc(establishment, SPLIT_ACES.title)
    if actor is None or effective_from is None:
        raise RuleViolation("GAME-04", _("Une configuration du progressif porte son auteur et sa date d'effet."))
    role = role_named_by_text(
        actor,
        establishment,
        PROGRESSIVE_APPROVERS,
        "GAME-04",
        _("La configuration du progressif est approuvée par la Direction des Jeux."),
    )
    fields = _required(combinations=combinations)
    if stake <= 0 or not 0 < percentage <= 100:
        raise ValidationError(_("La mise est positive ; le pourcentage est compris entre 0 et 100."))
    numbers = sorted({n.strip() for n in tables if n.strip()})
    known = set(
        GamingTable.objects.filter(establishment=establishment, number__in=numbers, game="blackjack").values_list(
            "number", flat=True
        )
    )
    if not numbers or set(numbers) - known:
        raise ValidationError({"tables": _("Indiquez les tables de black-jack reliées au progressif.")})
    Establishment.objects.select_for_update().get(pk=establishment.pk)
    last = ProgressiveConfig.objects.filter(establishment=establishment).order_by("-version").first()
    if last is not None and effective_from <= last.effective_from:
        raise ValidationError(
            {
                "effective_from": _("Une nouvelle version prend effet après la précédente (%(date)s).")
                % {"date": last.effective_from.strftime("%d/%m/%Y")}
            }
        )
    version = (last.version if last else 0) + 1
    seq = _split_aces_entry(
        establishment,
        actor=actor,
        role=role,
        event=_("Configuration, version %(v)s") % {"v": version},
        detail=f"{effective_from.isoformat()} — {fields['combinations']} — {stake} € — {percentage} % — "
        f"{', '.join(numbers)}",
    )
    config = ProgressiveConfig(
        establishment=establishment,
        version=version,
        effective_from=effective_from,
        combinations=fields["combinations"],
        stake=stake,
        percentage=percentage,
        tables=numbers,
        approved_by=actor,
        entry_seq=seq,
    )
    config.save()
    return config


@transaction.atomic
def progressive_read(
    *, seance: Seance, actor: AbstractBaseUser, moment: str, amount: Decimal, stakes: Decimal | None = None
) -> ProgressiveReading:
    """The progressive amount at the séance's opening or closing (GAME-04). At the closing, with the
    séance's Split Aces stakes: a change not explained by stakes × percentage and the jackpots paid
    is FLAGGED (BP)."""
    est = seance.establishment
    _require_mc(est, SPLIT_ACES.title)
    role = require_role(actor, est, PROGRESSIVE_READERS)
    if moment not in ProgressiveReading.Moment.values:
        raise ValidationError({"moment": _("Moment inconnu.")})
    config = selectors.progressive_in_force(est, seance.date)
    if config is None:
        raise RuleViolation("GAME-04", _("Aucune configuration du progressif n'est en vigueur à cette date."))
    if amount < 0:
        raise ValidationError({"amount": _("Montant positif ou nul attendu.")})
    if ProgressiveReading.objects.filter(seance=seance, moment=moment).exists():
        raise impossible(_("Ce relevé de la séance est déjà inscrit."))
    unexplained, flags = None, []
    if moment == ProgressiveReading.Moment.CLOSING:
        if stakes is None or stakes < 0:
            raise ValidationError({"stakes": _("Indiquez les mises Split Aces de la séance.")})
        opening = ProgressiveReading.objects.filter(seance=seance, moment=ProgressiveReading.Moment.OPENING).first()
        if opening is None:
            raise ValidationError(_("Le montant d'ouverture de la séance n'est pas inscrit."))
        paid = sum((p.amount for p in ProgressivePayout.objects.filter(seance=seance)), Decimal("0"))
        expected = (opening.amount + stakes * config.percentage / 100 - paid).quantize(Decimal("0.01"))
        unexplained = amount - expected
        if unexplained:
            with register_language():
                gap = _("écart inexpliqué de %(d)s € (attendu %(e)s €)") % {"d": unexplained, "e": expected}
                flags = [f"GAME-04 : {gap}"]
    else:
        stakes = None
    seq = _split_aces_entry(
        est,
        actor=actor,
        role=role,
        event=ProgressiveReading.Moment(moment).label,
        seance=seance,
        amount=amount,
        detail=f"{_('mises')} {stakes} €" if stakes is not None else "",
        flags=flags,
    )
    reading = ProgressiveReading(
        establishment=est,
        seance=seance,
        moment=moment,
        amount=amount,
        stakes=stakes,
        config=config,
        unexplained=unexplained,
        recorded_by=actor,
        entry_seq=seq,
    )
    reading.save()
    return reading


@transaction.atomic
def progressive_payout(
    *,
    seance: Seance,
    table: GamingTable,
    actor: AbstractBaseUser,
    amount: Decimal,
    winner: str,
    paid_at: datetime.datetime | None = None,
) -> ProgressivePayout:
    """A Split Aces jackpot paid at a linked table: table, time, amount, winner (GAME-04)."""
    est = seance.establishment
    _require_mc(est, SPLIT_ACES.title)
    role = require_role(actor, est, PROGRESSIVE_READERS)
    config = selectors.progressive_in_force(est, seance.date)
    if config is None or table.establishment_id != est.pk or table.number not in config.tables:
        raise RuleViolation(
            "GAME-04", _("La table %(n)s n'est pas reliée au progressif Split Aces en vigueur.") % {"n": table.number}
        )
    fields = _required(winner=winner)
    if amount <= 0:
        raise ValidationError({"amount": _("Montant positif attendu.")})
    paid_at = paid_at or timezone.now()
    if paid_at > timezone.now():
        raise ValidationError({"paid_at": _("Le paiement ne peut pas être dans le futur.")})
    seq = _split_aces_entry(
        est,
        actor=actor,
        role=role,
        event=_("Jackpot payé"),
        seance=seance,
        table=table.number,
        amount=amount,
        detail=f"{_local(est, paid_at)} — {fields['winner']}",
    )
    payout = ProgressivePayout(
        establishment=est,
        seance=seance,
        table=table,
        paid_at=paid_at,
        amount=amount,
        winner=fields["winner"],
        recorded_by=actor,
        entry_seq=seq,
    )
    payout.save()
    return payout
