"""GAME-20, REG-18: complex called bets (Monaco)."""

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ledgers.core.authz import require_role, role_named_by_text, roles_of, save_audited
from ledgers.core.errors import RuleViolation, impossible
from ledgers.core.models import TableSession
from ledgers.core.roles import Role
from ledgers.registers.models import Entry, Register
from ledgers.registers.selectors import current_register
from ledgers.registers.services import display_name, entry_append, entry_seq_next

from ..models import (
    CalledBet,
    CalledBetScjNotice,
)
from ..registers import (
    CALLED_BETS,
)
from .common import _required

BET_WRITERS = (Role.CHEF_TABLE, Role.INSPECTEUR, Role.CROUPIER)


def _write(register: Register, *, actor: AbstractBaseUser, role: str, payload: dict) -> Entry:
    """Every line of the register of complex announced bets is written here."""
    return entry_append(register=register, actor=actor, role=role, payload=payload)


BET_AUTHORISERS = (Role.DIRECTEUR_JEUX, Role.SOUS_DIRECTEUR)


def _bet_payload(bet: CalledBet, actor: AbstractBaseUser, event: str) -> dict:
    scj = (
        f"{bet.table_session.seance.establishment.localtime(bet.scj_informed_at):%Y-%m-%d %H:%M} ({bet.scj_channel})"
        if bet.scj_informed_at
        else None
    )
    return {
        "bet": bet.number,
        "event": event,
        "table": bet.table_session.table.number,
        "seance": str(bet.table_session.seance),
        "content": bet.content,
        "player": bet.player,
        "inspecteur": display_name(bet.inspecteur),
        "scj": scj,
        "signed_by": display_name(actor),
    }


@transaction.atomic
def called_bet_record(
    *, session: TableSession, actor: AbstractBaseUser, content: str, inspecteur: AbstractBaseUser, player: str = ""
) -> CalledBet:
    """A complex called bet handed in writing at an open table-partie, with the inspecteur present
    (000 art. 8.3)."""
    session = (
        TableSession.objects.select_for_update().select_related("seance__establishment", "table").get(pk=session.pk)
    )
    est = session.seance.establishment
    if est.jurisdiction != "MC":
        raise ValidationError(_("Les annonces marquées complexes relèvent de la réglementation monégasque."))
    role = require_role(actor, est, BET_WRITERS)
    if session.status != TableSession.Status.OPEN:
        raise ValidationError(_("La partie de cette table n'est pas ouverte."))
    if Role.INSPECTEUR not in roles_of(inspecteur, est):
        raise RuleViolation(
            "GAME-20",
            _("Une annonce complexe ne se joue qu'en présence d'un inspecteur : %(name)s n'est pas inspecteur ici.")
            % {"name": display_name(inspecteur)},
        )
    fields = _required(content=content)
    register = current_register(est, CALLED_BETS.code)
    number = CalledBet.objects.filter(table_session__seance__establishment=est).count() + 1
    bet = CalledBet(
        table_session=session,
        register=register,
        number=number,
        content=fields["content"],
        player=player.strip(),
        inspecteur=inspecteur,
        written_by=actor,
        handed_at=timezone.now(),
        entry_seq=entry_seq_next(register),
    )
    save_audited(bet, actor=actor, reason="remise")
    _write(register, actor=actor, role=role, payload=_bet_payload(bet, actor, "remise par écrit"))
    return bet


def _bet_for_update(bet: CalledBet) -> CalledBet:
    return (
        CalledBet.objects.select_for_update()
        .select_related("table_session__seance__establishment", "table_session__table")
        .get(pk=bet.pk)
    )


def _direction_role(actor: AbstractBaseUser, bet: CalledBet) -> str:
    return role_named_by_text(
        actor,
        bet.table_session.seance.establishment,
        BET_AUTHORISERS,
        "GAME-20",
        _("Seule la direction des jeux autorise une annonce complexe, en visant l'annonce écrite."),
    )


@transaction.atomic
def called_bet_scj_notify(*, bet: CalledBet, channel: str, actor: AbstractBaseUser) -> CalledBet:
    """The direction des jeux tells the SCJ of the bet (GAME-20), before or as soon as possible
    after its visa: the time is the system's when the notice is recorded, never typed in (a typed
    time could be back-dated to clear the flag), and it is given once. A bet visaed when the time
    was typed with the visa has no notice yet: it may get one, its copy then taking the notice's
    time, while the typed time stays in the visa's line and the bet's history."""
    bet = _bet_for_update(bet)
    role = _direction_role(actor, bet)
    if CalledBetScjNotice.objects.filter(bet=bet).exists():
        raise impossible(_("Le SCJ est déjà informé de cette annonce."))
    if not channel.strip():
        raise ValidationError({"channel": _("Indiquez comment le SCJ a été informé.")})
    notice = save_audited(
        CalledBetScjNotice(bet=bet, notified_at=timezone.now(), channel=channel.strip(), recorded_by=actor),
        actor=actor,
    )
    bet.scj_informed_at, bet.scj_channel = notice.notified_at, notice.channel
    save_audited(bet, actor=actor, reason="information du SCJ")
    _write(bet.register, actor=actor, role=role, payload=_bet_payload(bet, actor, "information du SCJ"))
    return bet


@transaction.atomic
def called_bet_authorise(*, bet: CalledBet, actor: AbstractBaseUser) -> CalledBet:
    """The direction des jeux's visa on the written bet, which authorises it (GAME-20). The SCJ
    must be informed as soon as possible: a visa before the system has recorded that information
    is flagged."""
    bet = _bet_for_update(bet)
    role = _direction_role(actor, bet)
    if bet.status == CalledBet.Status.AUTHORISED:
        raise RuleViolation("GAME-20", _("Cette annonce est déjà visée."))
    bet.status, bet.visa_by, bet.visaed_at = CalledBet.Status.AUTHORISED, actor, timezone.now()
    payload = _bet_payload(bet, actor, "visa de la direction")
    payload["flags"] = (
        []
        if bet.scj_informed_at
        else [{"code": "GAME-20", "text": "Annonce visée sans information du Service de Contrôle des Jeux."}]
    )
    save_audited(bet, actor=actor, reason="visa")
    _write(bet.register, actor=actor, role=role, payload=payload)
    return bet
