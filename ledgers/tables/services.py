"""Writes on the table-parties' staff and limits. Each service checks the actor's role and the
texts' rules (``rules.py``), saves with its history and appends its entry to the table-partie
log (``registers.TABLE_LOG``) in the same transaction."""

import datetime
import math
from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from ledgers.authority.models import ApprovedBanker, Declaration
from ledgers.authority.selectors import arrete_in_force, authorised_minimums, declaration_implemented
from ledgers.core.authz import require_role, role_named_by_text, roles_of, save_audited
from ledgers.core.errors import RuleViolation
from ledgers.core.models import Seance, TableSession
from ledgers.core.readable import euros
from ledgers.core.roles import Role
from ledgers.core.services import TABLE_MANAGERS
from ledgers.registers.services import display_name, entry_write, register_language

from . import rules, selectors
from .models import ClosingExtension, PartieBanker, StaffAssignment, TableLimits
from .registers import TABLE_LOG
from .rules import Position
from .selectors import seats_of


def _live(session: TableSession) -> TableSession:
    session = (
        TableSession.objects.select_for_update().select_related("seance__establishment", "table").get(pk=session.pk)
    )
    if session.status == TableSession.Status.CLOSED or session.seance.status != Seance.Status.OPEN:
        raise ValidationError(_("La partie de la table %(table)s est terminée.") % {"table": session.table.number})
    return session


def _entry(
    session: TableSession,
    *,
    actor: AbstractBaseUser,
    role: str,
    event,
    detail: str,
    at: datetime.datetime,
    flags: list[dict[str, str]] = (),
) -> None:
    est = session.seance.establishment
    with register_language():
        payload = {
            "event": str(event),
            "date": session.seance.date.isoformat(),
            "seance": str(session.seance.get_period_display()),
            "table": session.table.number,
            "table_session": session.pk,
            "time": est.localtime(at).strftime("%H:%M"),
            "detail": str(detail),
            "signature": display_name(actor),
            "flags": [f"{f['code']} : {f['text']}" for f in flags],
        }
    entry_write(establishment=est, kind=TABLE_LOG.code, actor=actor, role=role, payload=payload)


def _label(position: str) -> str:
    with register_language():
        return str(Position(position).label)


def _check_assignment(session: TableSession, position: str, person: AbstractBaseUser) -> list[dict[str, str]]:
    """Refuse what the composition forbids; return the flags (FLAG rows) of this assignment."""
    est, table = session.seance.establishment, session.table
    if not roles_of(person, est):
        raise ValidationError(
            _("%(person)s n'appartient pas au personnel de l'établissement.") % {"person": display_name(person)}
        )
    if selectors.on_duty(session).filter(person=person).exists():
        raise ValidationError(_("%(person)s est déjà de service à cette table.") % {"person": display_name(person)})
    staffing = rules.staffing_for(table, seats_of(session))
    if staffing is not None and position != Position.VALET_DE_PIED:
        bounds = staffing.positions.get(position)
        if bounds is None or selectors.on_duty(session, position).count() + 1 > bounds[1]:
            raise RuleViolation(
                staffing.code,
                _("La composition de la table %(table)s (%(game)s) ne prévoit pas un %(position)s de plus.")
                % {"table": table.number, "game": table.get_game_display(), "position": Position(position).label},
            )
    if position == Position.CHEF_TABLE:
        cap = (est.setting("SET-10") or {}).get(table.game)
        duties = StaffAssignment.objects.filter(
            person=person, position=Position.CHEF_TABLE, ended_at__isnull=True, table_session__seance=session.seance
        ).exclude(table_session__status=TableSession.Status.CLOSED)
        if cap is not None and duties.count() + 1 > cap:
            code = rules.STAFFING[(est.jurisdiction, table.game)][0].code
            raise RuleViolation(code, _("Un chef de table contrôle au plus %(n)s tables à ce jeu.") % {"n": cap})
    if position == Position.VALET_DE_PIED:
        return _footmen_flags(session)
    return []


def _footmen_flags(session: TableSession) -> list[dict[str, str]]:
    """FLAG more footmen in the room than the text allows for its open tables (GAME-15, GAME-42)."""
    est, table = session.seance.establishment, session.table
    rule = rules.FOOTMEN.get((est.jurisdiction, table.game))
    if rule is None:
        return []
    code, per, fraction = rule
    games = [g for (j, g), r in rules.FOOTMEN.items() if j == est.jurisdiction and r[0] == code]
    room_sessions = TableSession.objects.filter(seance=session.seance, table__room=table.room, table__game__in=games)
    tables = room_sessions.exclude(status=TableSession.Status.CLOSED).count()
    allowed = math.ceil(tables / per) if fraction else tables // per
    footmen = (
        StaffAssignment.objects.filter(
            table_session__in=room_sessions, position=Position.VALET_DE_PIED, ended_at__isnull=True
        ).count()
        + 1
    )
    if footmen <= allowed:
        return []
    with register_language():  # the flag is written in the register
        return [
            {
                "code": code,
                "text": str(
                    _("%(n)s valets de pied pour %(t)s tables ouvertes dans la salle.") % {"n": footmen, "t": tables}
                ),
            }
        ]


@transaction.atomic
def staff_assign(
    *,
    session: TableSession,
    position: str,
    person: AbstractBaseUser,
    actor: AbstractBaseUser,
    at: datetime.datetime | None = None,
) -> StaffAssignment:
    """Put ``person`` at ``position`` of the table-partie (chef de table, inspecteur, Direction)."""
    session = _live(session)
    role = require_role(actor, session.seance.establishment, TABLE_MANAGERS)
    Position(position)  # ValueError on an unknown position
    flags = _check_assignment(session, position, person)
    at = at or timezone.now()
    duty = save_audited(
        StaffAssignment(
            table_session=session, position=position, person=person, started_at=at, recorded_by=actor, flags=flags
        ),
        actor=actor,
        reason="affectation",
    )
    _entry(
        session,
        actor=actor,
        role=role,
        event=_("Prise de poste"),
        at=at,
        flags=flags,
        detail=f"{_label(position)} : {display_name(person)}",
    )
    return duty


@transaction.atomic
def staff_relieve(
    *,
    assignment: StaffAssignment,
    person: AbstractBaseUser,
    actor: AbstractBaseUser,
    at_break: bool = True,
    at: datetime.datetime | None = None,
) -> StaffAssignment:
    """Relief: ``person`` takes over ``assignment``'s position at ``at``. ``at_break``: at the end
    of a deck / between two hands, which the texts require of some dealers (GAME-10, 32, 34)."""
    assignment = StaffAssignment.objects.select_for_update().get(pk=assignment.pk)
    session = _live(assignment.table_session)
    est = session.seance.establishment
    role = require_role(actor, est, TABLE_MANAGERS)
    if assignment.ended_at is not None:
        raise ValidationError(_("Cette personne n'est plus de service à cette table."))
    flags = []
    relief = rules.RELIEF.get((est.jurisdiction, session.table.game))
    if relief is not None and assignment.position in rules.DEALERS and not at_break:
        code, mode = relief
        message = (
            _("Le croupier n'est relevé qu'en fin de paquet.")
            if code == "GAME-10"
            else _("Le croupier ne peut être relevé pendant un coup (donne, jeu ou paiements).")
        )
        if mode == "refuse":
            raise RuleViolation(code, message)
        with register_language():
            flags.append({"code": code, "text": str(message)})
    at = at or timezone.now()
    if at < assignment.started_at:
        raise ValidationError(_("La relève ne peut précéder la prise de poste."))
    assignment.ended_at = at
    save_audited(assignment, actor=actor, reason="relève")
    flags += _check_assignment(session, assignment.position, person)
    successor = save_audited(
        StaffAssignment(
            table_session=session,
            position=assignment.position,
            person=person,
            started_at=at,
            relief_of=assignment,
            at_break=at_break,
            recorded_by=actor,
            flags=flags,
        ),
        actor=actor,
        reason="relève",
    )
    _entry(
        session,
        actor=actor,
        role=role,
        event=pgettext_lazy("staff relief", "Relève"),
        at=at,
        flags=flags,
        detail=f"{_label(assignment.position)} : {display_name(person)} ← {display_name(assignment.person)}",
    )
    return successor


@transaction.atomic
def staff_release(
    *, assignment: StaffAssignment, actor: AbstractBaseUser, at: datetime.datetime | None = None
) -> StaffAssignment:
    """End a duty without a successor (the table closes, a position is no longer needed)."""
    assignment = StaffAssignment.objects.select_for_update().get(pk=assignment.pk)
    session = assignment.table_session
    role = require_role(actor, session.seance.establishment, TABLE_MANAGERS)
    if assignment.ended_at is not None:
        raise ValidationError(_("Cette personne n'est plus de service à cette table."))
    assignment.ended_at = at or timezone.now()
    save_audited(assignment, actor=actor, reason="fin de service")
    _entry(
        session,
        actor=actor,
        role=role,
        event=_("Fin de service"),
        at=assignment.ended_at,
        detail=f"{_label(assignment.position)} : {display_name(assignment.person)}",
    )
    return assignment


# --- Seats and stakes ---------------------------------------------------------------------------


def _check_limits(
    session: TableSession,
    *,
    seats: int,
    minimum: Decimal,
    maximum: Decimal | None,
    bet_maximums: Mapping[str, Decimal],
    agreement_reference: str,
    pay_table: str,
) -> None:
    est, game = session.seance.establishment, session.table.game
    key = (est.jurisdiction, game)
    seat_rule = rules.SEATS.get(key)
    if seat_rule is not None and not seat_rule.minimum <= seats <= (seat_rule.maximum or seats):
        raise RuleViolation(
            seat_rule.code,
            _("Cette table se joue avec %(low)s à %(high)s places.")
            % {"low": seat_rule.minimum, "high": seat_rule.maximum},
        )
    if minimum <= 0 or (maximum is not None and maximum < minimum):
        raise ValidationError(_("La mise minimale doit être positive et ne pas dépasser la mise maximale."))
    limits = rules.LIMITS.get(key)
    if limits is None:
        if bet_maximums or pay_table:
            raise ValidationError(_("Ce jeu n'a pas de maximums par chance."))
        return
    unknown = set(bet_maximums) - set(limits.bets) - ({"aggregate"} if limits.no_aggregate else set())
    if unknown:
        raise ValidationError(_("Chances inconnues pour ce jeu : %(bets)s.") % {"bets": ", ".join(sorted(unknown))})
    if pay_table and pay_table not in limits.pay_tables:
        raise ValidationError(_("Table de paiement inconnue pour ce jeu."))
    if limits.pay_tables and bet_maximums and not pay_table:
        raise RuleViolation(
            limits.code,
            _("Le directeur responsable choisit la table de paiement (%(tables)s) pour toute la partie.")
            % {"tables": " / ".join(limits.pay_tables)},
        )
    if limits.floor is not None and minimum < limits.floor:
        raise RuleViolation(
            limits.code, _("La mise minimale ne peut être inférieure à %(floor)s €.") % {"floor": euros(limits.floor)}
        )
    # AUTH-04: the minimum of the arrêté in force on the séance's day, else the establishment's SET-08.
    authorised = (
        authorised_minimums(arrete_in_force(est, session.seance.date), est.setting("SET-08")).get(game)
        if limits.authorised
        else None
    )
    if authorised is not None and minimum < authorised:
        raise RuleViolation(
            "AUTH-04",
            _("La mise minimale ne peut être inférieure au minimum de l'arrêté d'autorisation (%(min)s €).")
            % {"min": euros(authorised)},
        )
    if limits.agreement and not agreement_reference.strip():
        raise RuleViolation(
            limits.code,
            _("Les limites sont fixées en accord avec l'Administration : indiquez la référence de l'accord."),
        )
    if limits.notified in bet_maximums and not agreement_reference.strip():
        raise RuleViolation(
            limits.code,
            _("« %(bet)s » : indiquez la référence de l'information donnée à l'autorité concédante.")
            % {"bet": rules.BET_LABELS[limits.notified]},
        )
    if limits.no_aggregate and "aggregate" in bet_maximums:
        raise RuleViolation(
            limits.code,
            _(
                "La direction ne peut fixer de maximum au total des mises de différents "
                "joueurs : le maximum s'entend par joueur et par cylindre."
            ),
        )
    if limits.multiples and (maximum is None or maximum not in {minimum * m for m in limits.multiples}):
        raise RuleViolation(
            limits.code,
            _("La mise maximale est de %(multiples)s fois la mise minimale.")
            % {"multiples": ", ".join(str(m) for m in limits.multiples)},
        )
    for bet, times in limits.bets.items():
        amount = bet_maximums.get(bet)
        if amount is not None and times is not None and amount > minimum * times:
            raise RuleViolation(
                limits.code,
                _("Le maximum « %(bet)s » ne peut dépasser %(times)s fois la mise minimale.")
                % {"bet": rules.BET_LABELS[bet], "times": times},
            )


def _check_declared_minimum(session: TableSession, minimum: Decimal) -> None:
    """FR: a table's minimum stake differing from the one of its previous table-partie is a change
    of the minimum stakes, which needs a prior declaration (003 art. 7, 9 bis 6°) whose
    implementation date is reached, after that previous partie (AUTH-01). The roue de la chance's
    minimum raised at opening is the text's own option (GAME-38), not a change of the authorised
    minimum."""
    est = session.seance.establishment
    if est.jurisdiction != "FR" or (est.jurisdiction, session.table.game) in rules.RAISED_AT_OPENING:
        return
    previous = (
        TableSession.objects.filter(
            table=session.table, minimum_stake__isnull=False, seance__date__lte=session.seance.date
        )
        .exclude(pk=session.pk)
        .order_by("-seance__date", "-opened_at", "-pk")
        .first()
    )
    if previous is None or previous.minimum_stake == minimum:
        return
    if (
        declaration_implemented(
            est, Declaration.Operation.DISTRIBUTION, on=session.seance.date, after=previous.seance.date
        )
        is None
    ):
        raise RuleViolation(
            "AUTH-01",
            _(
                "La mise minimale de la table passe de %(old)s € à %(new)s € : ce changement exige une déclaration "
                "préalable (6°) dont la date de mise en œuvre est atteinte."
            )
            % {"old": euros(previous.minimum_stake), "new": euros(minimum)},
        )


def _check_fixed_for_the_day(
    session: TableSession, minimum: Decimal, maximum: Decimal | None, bets: Mapping[str, Decimal]
) -> None:
    """A game whose limits are fixed at the opening until the next day's séance (GAME-38): a later
    table-partie of the table on the same day opens at the limits its first one opened at."""
    fixed = (
        TableLimits.objects.filter(
            table_session__table=session.table,
            table_session__seance__date=session.seance.date,
            table_session__opened_at__isnull=False,
        )
        .exclude(table_session=session)
        .order_by("-set_at", "-pk")
        .first()
    )
    if fixed is None:
        return
    kept = {key: Decimal(value) for key, value in fixed.bet_maximums.items()}
    if (fixed.minimum_stake, fixed.maximum_stake, kept) != (minimum, maximum, dict(bets)):
        raise RuleViolation(
            "GAME-38",
            _(
                "Les limites de la table %(table)s ont été fixées à l'ouverture du %(day)s (%(limits)s) : elles ne "
                "changent pas avant la séance du lendemain."
            )
            % {
                "table": session.table.number,
                "day": session.seance.date.strftime("%d/%m/%Y"),
                "limits": _limits_text(fixed),
            },
        )


@transaction.atomic
def table_limits_set(
    *,
    session: TableSession,
    actor: AbstractBaseUser,
    minimum_stake: Decimal,
    maximum_stake: Decimal | None = None,
    seats: int | None = None,
    bet_maximums: Mapping[str, Decimal] | None = None,
    agreement_reference: str = "",
    display_updated: bool = False,
    pay_table: str = "",
    players: int | None = None,
) -> TableLimits:
    """Fix the seats and the stakes of a table-partie, by whom the text names (``LIMIT_SETTERS``),
    within the text's bounds. Before opening they are the stakes at opening (kept on the table-partie,
    which the art. 49 avance reads); during play a change is recorded as such, where the text allows it."""
    session = _live(session)
    est, game = session.seance.establishment, session.table.game
    limits = rules.LIMITS.get((est.jurisdiction, game))
    code = limits.code if limits else "GAME-41" if est.jurisdiction == "FR" else "GAME-25"
    setters, held = rules.LIMIT_SETTERS[est.jurisdiction], roles_of(actor, est)
    role = next((str(r) for r in setters if r in held), None)
    if role is None:
        raise RuleViolation(
            code,
            _("Les limites de mise sont fixées par : %(roles)s.") % {"roles": ", ".join(str(r.label) for r in setters)},
        )
    seats = seats or seats_of(session)
    if players is not None and players > seats:
        raise ValidationError(_("Plus de joueurs assis que de places."))
    bets = {k: Decimal(str(v)) for k, v in (bet_maximums or {}).items() if v not in (None, "")}
    _check_limits(
        session,
        seats=seats,
        minimum=minimum_stake,
        maximum=maximum_stake,
        bet_maximums=bets,
        agreement_reference=agreement_reference,
        pay_table=pay_table,
    )
    during_play = session.status == TableSession.Status.OPEN
    if not during_play:
        _check_declared_minimum(session, minimum_stake)
        if limits is not None and limits.change == "locked":
            _check_fixed_for_the_day(session, minimum_stake, maximum_stake, bets)
    if during_play and limits is not None:
        in_force = selectors.limits_of(session).last()
        if limits.pay_tables and in_force is not None and in_force.pay_table != pay_table:
            raise RuleViolation(limits.code, _("La table de paiement est choisie pour toute la partie."))
        if limits.change == "locked":
            raise RuleViolation(
                "GAME-38", _("Les limites fixées à l'ouverture ne changent pas avant la séance du lendemain.")
            )
        if limits.change == "display" and not display_updated:
            raise RuleViolation(
                limits.code, _("Le changement en cours de séance exige que l'affichage de la table le montre.")
            )
    now = timezone.now()
    record = TableLimits.objects.create(
        table_session=session,
        seats=seats,
        players=players,
        minimum_stake=minimum_stake,
        maximum_stake=maximum_stake,
        bet_maximums={k: str(v) for k, v in bets.items()},
        pay_table=pay_table,
        agreement_reference=agreement_reference.strip(),
        display_updated=display_updated,
        during_play=during_play,
        set_at=now,
        set_by=actor,
    )
    if not during_play:
        session.minimum_stake, session.maximum_stake = minimum_stake, maximum_stake
        save_audited(session, actor=actor, reason="limites de mise")
    _entry(
        session,
        actor=actor,
        role=role,
        at=now,
        event=_("Changement de limites") if during_play else _("Limites à l'ouverture"),
        detail=_limits_text(record),
    )
    return record


def _limits_text(record: TableLimits) -> str:
    parts: list[Any] = [f"{record.seats} places", f"min. {record.minimum_stake:.2f} €"]
    if record.players is not None:
        parts.insert(1, f"{record.players} joueurs assis")
    if record.maximum_stake is not None:
        parts.append(f"max. {record.maximum_stake:.2f} €")
    parts += [f"max. {rules.BET_LABELS.get(k, k)} {Decimal(v):.2f} €" for k, v in record.bet_maximums.items()]
    if record.pay_table:
        parts.append(f"table de paiement {record.pay_table}")
    if record.agreement_reference:
        parts.append(f"accord {record.agreement_reference}")
    if record.display_updated:
        parts.append("affichage mis à jour")
    with register_language():
        return ", ".join(str(p) for p in parts)


# --- GAME-29: chemin de fer past the closing time; GAME-31: the banker of banque à tout va (Monaco) ---

DIRECTION_DES_JEUX = (Role.DIRECTEUR_JEUX, Role.SOUS_DIRECTEUR)


@transaction.atomic
def closing_extension_record(
    *, session: TableSession, actor: AbstractBaseUser, new_end: datetime.datetime, reason: str
) -> ClosingExtension:
    """The Direction des Jeux lets a chemin de fer table-partie go on past the closing time, the
    players present and the activity justifying it (000 art. 11.10, GAME-29)."""
    session = _live(session)
    est = session.seance.establishment
    if est.jurisdiction != "MC" or session.table.game != "chemin_de_fer":
        raise RuleViolation(
            "GAME-29", _("Seule une partie de chemin de fer monégasque se poursuit au-delà de l'heure de fermeture.")
        )
    role = role_named_by_text(
        actor,
        est,
        DIRECTION_DES_JEUX,
        "GAME-29",
        _("La prolongation est laissée à l'appréciation de la Direction des Jeux."),
    )
    if not reason.strip():
        raise ValidationError(
            {"reason": _("Indiquez les joueurs présents et l'activité qui justifient la prolongation.")}
        )
    closing = selectors.closing_time(session.seance)
    if closing is None or not closing < new_end <= closing + datetime.timedelta(hours=12):
        raise ValidationError(
            {"new_end": _("La nouvelle heure de fin suit l'heure de fermeture de la séance, de douze heures au plus.")}
        )
    extension = ClosingExtension.objects.create(
        table_session=session, new_end=new_end, reason=reason.strip(), decided_by=actor
    )
    _entry(
        session,
        actor=actor,
        role=role,
        at=timezone.now(),
        event=_("Prolongation de la partie"),
        detail=f"{est.localtime(new_end):%Y-%m-%d %H:%M} — {reason.strip()}",
    )
    return extension


@transaction.atomic
def banker_name(*, session: TableSession, actor: AbstractBaseUser, banker: ApprovedBanker) -> PartieBanker:
    """The banker of a banque à tout va table-partie, who must be approved by the Direction on the
    séance's date (000 art. 12.3): REFUSED otherwise (GAME-31)."""
    session = _live(session)
    est = session.seance.establishment
    if est.jurisdiction != "MC" or session.table.game != "banque_tout_va":
        raise ValidationError(_("Un banquier se désigne à une table de banque à tout va."))
    role = require_role(actor, est, TABLE_MANAGERS)
    banker = ApprovedBanker.objects.get(pk=banker.pk)  # the register's state now, withdrawals included
    if banker.establishment_id != est.pk or not banker.approved(session.seance.date):
        raise RuleViolation(
            "GAME-31",
            _("%(banker)s n'est pas un banquier agréé par la Direction à cette date.") % {"banker": banker.full_name},
        )
    named = PartieBanker.objects.create(table_session=session, banker=banker, named_by=actor)
    _entry(
        session,
        actor=actor,
        role=role,
        at=named.named_at,
        event=_("Banquier"),
        detail=f"{banker} — {_('agréé le')} {banker.approved_on:%d/%m/%Y}",
    )
    return named


def partie_act_record(
    session: TableSession, *, actor: AbstractBaseUser, role: str, event: Promise, at: datetime.datetime
) -> None:
    """The log's line of the partie's own acts (prepared, opened, ended: core's services, through
    its hooks), naming the game played at the table."""
    with register_language():
        game = session.table.get_game_display()
    _entry(session, actor=actor, role=role, at=at, event=event, detail=game)
