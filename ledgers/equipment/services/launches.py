"""Launching the ball at roulette and boule (WHEEL-09): the roster and the turns."""

import datetime
import math
from collections.abc import Sequence

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext_lazy as _

from ledgers.core.authz import require_role, role_named_by_text, roles_of
from ledgers.core.errors import RuleViolation
from ledgers.core.models import Establishment, TableSession
from ledgers.registers.models import Entry
from ledgers.registers.services import display_name, entry_write

from .. import selectors
from ..models import (
    LaunchRoster,
    LaunchRosterPlace,
    LaunchTurn,
)
from ..registers import (
    ROULEMENT_LANCEURS,
)
from ..specs import (
    LAUNCH_LOG_KEEPERS,
    LAUNCH_STAFF,
    ROSTER_MEMBERS,
    ROSTER_SETTERS,
    ROTATION_GAMES,
)
from .common import _fr, _live_session, _session_fields


def _roster_write(est: Establishment, *, actor: AbstractBaseUser, role: str, payload: dict) -> Entry:
    """Every line of the roulement des lanceurs is written here."""
    return entry_write(establishment=est, kind=ROULEMENT_LANCEURS.code, actor=actor, role=role, payload=payload)


def _rotation_session(session: TableSession) -> TableSession:
    session = _live_session(session)
    if session.table.game not in ROTATION_GAMES[session.seance.establishment.jurisdiction]:
        raise ValidationError(_("L'ordre de roulement des lanceurs concerne la roulette et la boule (Monaco)."))
    return session


def _clock(moment: datetime.datetime, est: Establishment) -> str:
    return est.localtime(moment).strftime("%H:%M")


@transaction.atomic
def launch_roster_set(
    *, session: TableSession, croupiers: Sequence[AbstractBaseUser], actor: AbstractBaseUser, note: str = ""
) -> LaunchRoster:
    """The ordre de roulement of a roulette or boule table for the séance, set by the Direction des
    Jeux (WHEEL-09, art. 8.1, 10.1): the croupiers, in the order in which they launch the ball and
    relieve each other. Setting it again during the séance replaces it from then on."""
    session = _rotation_session(session)
    est = session.seance.establishment
    role = role_named_by_text(
        actor,
        est,
        ROSTER_SETTERS,
        "WHEEL-09",
        _("L'ordre de roulement est établi par la Direction des Jeux (directeur des jeux ou sous-directeur)."),
    )
    order = list(croupiers)
    if len({user.pk for user in order}) != len(order):
        raise ValidationError(_("Un croupier ne figure qu'une fois dans l'ordre de roulement."))
    for user in order:
        if not roles_of(user, est) & set(ROSTER_MEMBERS):
            raise RuleViolation(
                "WHEEL-09",
                _(
                    "%(name)s n'est pas croupier : seuls les croupiers affectés au jeu sont chargés successivement du "
                    "lancement."
                )
                % {"name": display_name(user)},
            )
    if len(order) < 2:
        raise RuleViolation(
            "WHEEL-09",
            _(
                "L'ordre de roulement comprend au moins deux croupiers : aucun ne peut être "
                "spécialisé dans le lancement."
            ),
        )
    replaces = session.launch_rosters.exists()
    roster = LaunchRoster.objects.create(
        establishment=est,
        table_session=session,
        set_at=timezone.now(),
        set_by=actor,
        set_by_role=role,
        note=note.strip(),
    )
    LaunchRosterPlace.objects.bulk_create(
        LaunchRosterPlace(roster=roster, position=position, croupier=user) for position, user in enumerate(order, 1)
    )
    _roster_write(
        est,
        actor=actor,
        role=role,
        payload={
            **_session_fields(session),
            "roster": roster.pk,
            "event": _fr(_("Nouvel ordre de roulement") if replaces else _("Ordre de roulement")),
            "order": [f"{position}. {display_name(user)}" for position, user in enumerate(order, 1)],
            "launcher": "",
            "since": _clock(roster.set_at, est),
            "flags": [],
            "observations": roster.note,
        },
    )
    return roster


def _launch_flags(
    est: Establishment, roster: LaunchRoster | None, turns: Sequence[LaunchTurn], launcher: AbstractBaseUser
) -> list[dict]:
    """What a new turn of ``launcher`` after ``turns`` reports (WHEEL-09): a launcher outside the
    order in force, or a pattern of specialisation — more consecutive turns, or a larger share of
    the partie's turns, than the establishment's thresholds (setting "WHEEL-09")."""
    name = display_name(launcher)
    limits = est.setting("WHEEL-09") or {}
    launchers = [turn.launcher_id for turn in turns] + [launcher.pk]
    run = next((i for i, pk in enumerate(reversed(launchers)) if pk != launcher.pk), len(launchers))
    total, mine, share = len(launchers), launchers.count(launcher.pk), limits.get("max_share_percent")
    texts = []
    with translation.override("fr"):  # flags are part of the register entry
        if roster is None:
            texts.append(
                _("Aucun ordre de roulement établi par la Direction des Jeux : %(name)s lance hors roulement.")
                % {"name": name}
            )
        elif not any(place.croupier_id == launcher.pk for place in roster.places.all()):
            texts.append(
                _("%(name)s n'est pas inscrit à l'ordre de roulement établi à %(at)s.")
                % {"name": name, "at": _clock(roster.set_at, est)}
            )
        if limits.get("max_consecutive") is not None and run > limits["max_consecutive"]:
            texts.append(
                _(
                    "%(name)s lance pour le %(n)se tour consécutif (plus de %(max)s de suite) : "
                    "spécialisation dans le lancement."
                )
                % {"name": name, "n": run, "max": limits["max_consecutive"]}
            )
        if share is not None and total >= limits.get("min_turns", 0) and mine > math.ceil(total * share / 100):
            texts.append(
                _(
                    "%(name)s a lancé %(mine)s des %(total)s tours de la partie (plus de %(max)s %%) : "
                    "spécialisation dans le lancement."
                )
                % {"name": name, "mine": mine, "total": total, "max": share}
            )
    return [{"code": "WHEEL-09", "text": text} for text in texts]


@transaction.atomic
def launch_turn_record(
    *,
    session: TableSession,
    launcher: AbstractBaseUser,
    actor: AbstractBaseUser,
    started_at: datetime.datetime | None = None,
    observations: str = "",
) -> LaunchTurn:
    """Who launches the ball from when at a roulette or boule table-partie — the first launcher,
    then each relief — written by the chef de table (at boule, the chef de partie). Allowed in any
    case; a launcher outside the ordre de roulement in force, or a pattern of specialisation, is
    flagged (WHEEL-09)."""
    session = _rotation_session(session)  # locked: the turns of one table are written one at a time
    est = session.seance.establishment
    role = require_role(actor, est, LAUNCH_LOG_KEEPERS)
    if session.status != TableSession.Status.OPEN:
        raise ValidationError(_("Les lanceurs s'inscrivent pendant la partie, table ouverte."))
    if not roles_of(launcher, est) & set(LAUNCH_STAFF):
        raise ValidationError(
            {
                "launcher": _("%(name)s ne fait pas partie du personnel des tables de cet établissement.")
                % {"name": display_name(launcher)}
            }
        )
    now = timezone.now()
    started_at = started_at or now
    turns = list(selectors.launch_turns(session))
    if started_at > now:
        raise ValidationError({"started_at": _("L'heure de prise du lancement ne peut être dans le futur.")})
    if started_at < (turns[-1].started_at if turns else session.opened_at):
        raise ValidationError(
            {
                "started_at": _(
                    "Les tours s'inscrivent dans l'ordre : cette heure précède le tour "
                    "précédent ou l'ouverture de la table."
                )
            }
        )
    roster = selectors.roster_in_force(session, started_at)
    flags = _launch_flags(est, roster, turns, launcher)
    turn = LaunchTurn.objects.create(
        establishment=est,
        table_session=session,
        launcher=launcher,
        started_at=started_at,
        roster=roster,
        recorded_at=now,
        recorded_by=actor,
        recorded_by_role=role,
        observations=observations.strip(),
        flags=flags,
    )
    previous = turns[-1].launcher if turns else None
    with translation.override("fr"):
        if previous is None:
            event = str(_("Premier lanceur de la partie"))
        elif previous.pk == launcher.pk:
            event = str(_("Nouveau tour du même lanceur"))
        else:
            event = _("Relève de %(name)s") % {"name": display_name(previous)}
    _roster_write(
        est,
        actor=actor,
        role=role,
        payload={
            **_session_fields(session),
            "roster": roster.pk if roster else None,
            "event": event,
            "order": [],
            "launcher": display_name(launcher),
            "since": _clock(started_at, est),
            "flags": [f"{flag['code']} : {flag['text']}" for flag in flags],
            "observations": turn.observations,
        },
    )
    return turn
