"""Writes on the organisation: establishments, staff roles, séances and table sessions."""

import copy
import datetime
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any
from zoneinfo import ZoneInfo

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser, Group
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.validators import validate_slug
from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from . import establishment_settings, hooks
from .authz import require_role, roles_of, save_audited
from .errors import RuleViolation, impossible
from .games import GAMES
from .models import (
    DEPOT_KINDS,
    DirectoryAccount,
    Establishment,
    GamingTable,
    Location,
    LocationKind,
    Membership,
    RolePeriod,
    Room,
    Seance,
    TableSession,
)
from .roles import ADMINISTRATOR_ROLE, DIRECTORATE, Role

SEANCE_MANAGERS = (*DIRECTORATE, Role.INSPECTEUR)
TABLE_MANAGERS = (*SEANCE_MANAGERS, Role.CHEF_TABLE, Role.CHEF_PARTIE)


@transaction.atomic
def membership_grant(
    *,
    user: AbstractBaseUser,
    establishment: Establishment,
    role: str,
    actor: AbstractBaseUser | None,
    since: datetime.date | None = None,
) -> Membership:
    """Give ``user`` a role here, by the directorate, the platform's administrator or (without
    ``actor``) the system; written in the register of authorisations. The role's group carries its
    Django permissions. ``since``: the day a person already in post has held the role from, as the
    directorate declares it when the house's staff is taken over (the line is written now and says
    so; the role's period starts that day)."""
    acting = setup_role(actor, establishment)
    membership = Membership.objects.filter(user=user, establishment=establishment, role=role).first()
    if membership is None:
        membership = save_audited(Membership(user=user, establishment=establishment, role=role), actor=actor)
        # The period it is held from: dated, ended by its revocation, never deleted.
        start = (
            datetime.datetime.combine(since, datetime.time.min, tzinfo=ZoneInfo(establishment.timezone))
            if since is not None
            else timezone.now()
        )
        period = RolePeriod(user=user, establishment=establishment, role=role, valid_from=start, granted_by=actor)
        save_audited(period, actor=actor, reason="attribution")
        if since is None:
            text = _("%(person)s peut agir en qualité de %(role)s à compter de ce jour, sur décision de %(actor)s.")
        else:
            text = _(
                "%(person)s agit en qualité de %(role)s depuis le %(since)s, date déclarée par %(actor)s à "
                "l'inscription du personnel en poste."
            )
        hooks.record(
            hooks.STAFF_ACT,
            establishment=establishment,
            actor=actor,
            role=acting,
            subject=_("Attribution d'un rôle"),
            text=lambda: str(
                text
                % {
                    "person": person_name(user),
                    "role": Role(role).label,
                    "actor": actor_name(actor),
                    "since": since.strftime("%d/%m/%Y") if since else "",
                }
            ),
            person=user.get_username(),
            granted=role,
            **({"valid_from": since.isoformat()} if since is not None else {}),
        )
    # get_or_create: the groups come from a data migration, which a flushed database no longer has.
    user.groups.add(Group.objects.get_or_create(name=role)[0])
    return membership


@transaction.atomic
def membership_revoke(*, membership: Membership, actor: AbstractBaseUser | None, reason: str = "") -> None:
    """Take a role away, written in the register of authorisations; the role's group goes when the
    user holds that role nowhere else. The period the user held it ends (``RolePeriod.valid_until``)
    and stays."""
    user, role, establishment = membership.user, membership.role, membership.establishment
    acting = setup_role(actor, establishment)
    ended = timezone.now()
    for period in RolePeriod.objects.select_for_update().filter(
        user=user, establishment=establishment, role=role, valid_until=None
    ):
        period.valid_until, period.ended_by, period.end_reason = ended, actor, reason[:200]
        save_audited(period, actor=actor, reason="retrait")
    membership._history_user = actor
    membership._change_reason = reason
    membership.delete()
    hooks.record(
        hooks.STAFF_ACT,
        establishment=establishment,
        actor=actor,
        role=acting,
        subject=_("Retrait d'un rôle"),
        text=lambda: str(
            _("%(person)s n'agit plus en qualité de %(role)s à compter de ce jour, sur décision de %(actor)s.")
            % {"person": person_name(user), "role": Role(role).label, "actor": actor_name(actor)}
            + (f" ({reason})" if reason else "")
        ),
        person=user.get_username(),
        revoked=role,
    )
    if not Membership.objects.filter(user=user, role=role).exists():
        user.groups.remove(*Group.objects.filter(name=role))


@transaction.atomic
def directory_account_sync(
    *, user: AbstractBaseUser, dn: str, grants: Iterable[tuple[Establishment, str]]
) -> DirectoryAccount:
    """Align a directory user's memberships on the (establishment, role) pairs their directory
    groups map to; a user in no mapped group is disabled (the directory is the authority)."""
    grants = set(grants)
    for membership in Membership.objects.filter(user=user).select_related("establishment"):
        if (membership.establishment, membership.role) not in grants:
            membership_revoke(membership=membership, actor=None, reason="annuaire")
    for establishment, role in grants:
        membership_grant(user=user, establishment=establishment, role=role, actor=None)
    active = bool(grants)
    if user.is_active != active:
        user.is_active = active
        user.save(update_fields=["is_active"])
    account = DirectoryAccount.objects.filter(user=user).first() or DirectoryAccount(user=user)
    account.dn, account.synced_at, account.left_at = dn, timezone.now(), None
    return save_audited(account, actor=None, reason="annuaire")


@transaction.atomic
def directory_account_leave(*, account: DirectoryAccount) -> DirectoryAccount:
    """The directory no longer has this person: no more roles, no more sign-in (their open
    sessions end too: the session backends refuse an inactive user)."""
    for membership in Membership.objects.filter(user=account.user):
        membership_revoke(membership=membership, actor=None, reason="sorti de l'annuaire")
    account.user.is_active = False
    account.user.save(update_fields=["is_active"])
    account.left_at = timezone.now()
    return save_audited(account, actor=None, reason="sorti de l'annuaire")


@transaction.atomic
def seance_open(*, establishment: Establishment, date: datetime.date, period: str, actor: AbstractBaseUser) -> Seance:
    """Open the séance, written in the main courante (hooks.SEANCE_OPENED)."""
    role = require_role(actor, establishment, SEANCE_MANAGERS)
    if Seance.objects.filter(establishment=establishment, date=date, period=period).exists():
        raise ValidationError(_("Cette séance est déjà ouverte (ou clôturée) pour cette date et cette période."))
    hooks.run_seance_opening_checks(establishment, date)
    seance = Seance(establishment=establishment, date=date, period=period, opened_at=timezone.now())
    save_audited(seance, actor=actor, reason="ouverture de séance")
    hooks.record(hooks.SEANCE_OPENED, seance=seance, actor=actor, role=role)
    return seance


@transaction.atomic
def seance_close(*, seance: Seance, actor: AbstractBaseUser) -> Seance:
    seance = Seance.objects.select_for_update(of=("self",)).select_related("establishment").get(pk=seance.pk)
    role = require_role(actor, seance.establishment, SEANCE_MANAGERS)
    if seance.status == Seance.Status.CLOSED:
        raise ValueError(_("La séance est déjà clôturée."))
    # The table-parties still to end are locked first, then read with their facts in a later
    # statement, which sees every act committed before the locks: the séance's checks read them
    # (``seances_read_together``) and each partie's closing checks read them again as it ends (a
    # partie's end writes its status and its log line, which no other partie's facts read).
    locked = _locked(seance.table_sessions.exclude(status=TableSession.Status.CLOSED))
    parties = list(hooks.parties_with_facts(seance=seance))
    # Everything missing first, so the refusal lists all of it (the table-parties still open
    # included, through their closing checks: ledgers.core.seances); then the parties end.
    with hooks.seances_read_together([seance], parties):
        missing = hooks.seance_missing(seance)
    if missing:
        raise RuleViolation(
            "REG-25",
            _("La séance ne peut être clôturée : %(missing)s.")
            % {"missing": " ; ".join(f"{m.what} ({m.code})" for m in missing)},
        )
    for session in parties:
        if session.status != TableSession.Status.CLOSED:
            # No savepoint of its own: a refusal aborts the whole closing. A partie prepared since
            # the locks is locked now.
            _table_session_end(session if session.pk in locked else _locked_session(session), actor)
    seance.status, seance.closed_at = Seance.Status.CLOSED, timezone.now()
    save_audited(seance, actor=actor, reason="clôture de séance")
    hooks.record(hooks.SEANCE_CLOSED, seance=seance, actor=actor, role=role)
    return seance


@transaction.atomic
def table_session_prepare(*, seance: Seance, table: GamingTable, actor: AbstractBaseUser) -> TableSession:
    """Create the table-partie so that equipment can be issued to it before it opens; written in
    the table-partie log (hooks.TABLE_PREPARED)."""
    role = require_role(actor, seance.establishment, TABLE_MANAGERS)
    if seance.status != Seance.Status.OPEN:
        raise impossible(_("La séance est clôturée."))
    if table.establishment_id != seance.establishment_id:
        raise ValueError("table and séance belong to different establishments")
    existing = TableSession.objects.filter(seance=seance, table=table).first()
    if existing is not None:
        return existing
    session = save_audited(TableSession(seance=seance, table=table), actor=actor, reason="préparation")
    hooks.record(hooks.TABLE_PREPARED, session=session, actor=actor, role=role)
    return session


def table_session_locked(session: TableSession) -> TableSession:
    """A fresh copy of the table-partie for an act at the table, its row locked with its séance's
    and its table's until the end of the transaction; the séance's establishment is read in the
    same query (every such act checks the actor's role there), without a lock."""
    return (
        TableSession.objects.select_for_update(of=("self", "seance", "table"))
        .select_related("seance__establishment", "table")
        .get(pk=session.pk)
    )


def _locked(parties: QuerySet[TableSession]) -> set[int]:
    """The ids of ``parties``, their rows alone locked, in id order (two closings lock alike); read
    them after it (``hooks.parties_with_facts``) to see every act committed before the locks."""
    return set(parties.select_for_update(of=("self",)).order_by("pk").values_list("pk", flat=True))


def _locked_session(session: TableSession) -> TableSession:
    """A fresh copy of the table-partie, its row alone locked, with its séance, table and their
    establishment read in the same query: every domain's checks read them."""
    return (
        TableSession.objects.select_for_update(of=("self",))
        .select_related("seance__establishment", "table__establishment")
        .get(pk=session.pk)
    )


@transaction.atomic
def table_session_open(*, session: TableSession, actor: AbstractBaseUser) -> TableSession:
    """Open the table for play; every domain's opening checks must pass (hooks). Written in the
    table-partie log (hooks.TABLE_OPENED)."""
    session = _locked_session(session)
    role = require_role(actor, session.seance.establishment, TABLE_MANAGERS)
    if session.status != TableSession.Status.PREPARING:
        raise impossible(_("Cette table est déjà ouverte ou fermée."))
    hooks.run_opening_checks(session)
    session.status, session.opened_at = TableSession.Status.OPEN, timezone.now()
    save_audited(session, actor=actor, reason="ouverture de la table")
    hooks.record(hooks.TABLE_OPENED, session=session, actor=actor, role=role)
    return session


@transaction.atomic
def table_session_close(*, session: TableSession, actor: AbstractBaseUser) -> TableSession:
    """Fin de partie; every domain's closing checks must pass (hooks). Written in the table-partie
    log (hooks.TABLE_CLOSED)."""
    # Its row locked first, then read with every app's facts (hooks.party_facts) in a later
    # statement, which sees every act committed before the lock: its closing checks read them
    # without a query each.
    _locked(TableSession.objects.filter(pk=session.pk))
    return _table_session_end(hooks.parties_with_facts(pk=session.pk).get(), actor)


def _table_session_end(session: TableSession, actor: AbstractBaseUser) -> TableSession:
    """``table_session_close`` of a table-partie whose row this transaction has locked, read with
    its séance, table and their establishment, in the caller's transaction."""
    role = require_role(actor, session.seance.establishment, TABLE_MANAGERS)
    if session.status == TableSession.Status.CLOSED:
        return session
    hooks.run_closing_checks(session)
    session.status, session.closed_at = TableSession.Status.CLOSED, timezone.now()
    save_audited(session, actor=actor, reason="fin de partie")
    hooks.record(hooks.TABLE_CLOSED, session=session, actor=actor, role=role)
    return session


# Set-up of the organisation. ``actor=None`` is the command line (seed_demo, an administrator's
# script); a person doing it in the application must belong to the directorate. A gaming table's
# set-up is a line of a register, signed: it always takes a person of the directorate.


def setup_role(actor: AbstractBaseUser | None, establishment: Establishment) -> str:
    """The role in which ``actor`` sets up the establishment or its staff: a role of the
    directorate they hold, else, for a platform administrator, ``ADMINISTRATOR_ROLE``; refused to
    anyone else. "" without ``actor`` (the system: its lines carry the system's marker)."""
    if actor is None:
        return ""
    held = roles_of(actor, establishment)
    for role in DIRECTORATE:
        if role in held:
            return str(role)
    if actor.is_superuser:
        return ADMINISTRATOR_ROLE
    return require_role(actor, establishment, DIRECTORATE)


def person_name(user: AbstractBaseUser) -> str:
    """A person as a register line's text names them: their name (their login when they have
    none); the line's payload keeps the login (``person``)."""
    return user.get_full_name().strip() or user.get_username()


def actor_name(actor: AbstractBaseUser | None) -> str:
    return person_name(actor) if actor is not None else str(_("le système"))


@transaction.atomic
def establishment_create(
    *,
    code: str,
    name: str,
    jurisdiction: str,
    actor: AbstractBaseUser | None,
    timezone_name: str = "Europe/Monaco",
    address: str = "",
    options: dict[str, Any] | None = None,
) -> Establishment:
    """Create an establishment, with its first settings (``options``): its set-up, before any of
    its registers exists; its settings change later through ``establishment_setting_change`` or
    their own acts, each written in a register."""
    if actor is not None and not actor.is_superuser:
        raise PermissionDenied(_("Seul un administrateur peut créer un établissement."))
    establishment = Establishment(
        code=code, name=name, jurisdiction=jurisdiction, timezone=timezone_name, address=address, options=options or {}
    )
    establishment.full_clean()
    save_audited(establishment, actor=actor, reason="création")
    hooks.record(
        hooks.STAFF_ACT,
        establishment=establishment,
        actor=actor,
        role=ADMINISTRATOR_ROLE,
        subject=_("Création de l'établissement"),
        text=lambda: str(
            _("Établissement %(name)s (%(code)s), juridiction %(jurisdiction)s, créé par %(actor)s.")
            % {
                "name": establishment.name,
                "code": establishment.code,
                "jurisdiction": establishment.get_jurisdiction_display(),
                "actor": actor_name(actor),
            }
        ),
    )
    return establishment


# Who changes the establishment's settings: its director (FR the directeur responsable, MC the
# directeur des jeux).
SETTING_CHANGERS = {"FR": (Role.DIRECTEUR_RESPONSABLE,), "MC": (Role.DIRECTEUR_JEUX,)}


@transaction.atomic
def establishment_setting_change(
    *, establishment: Establishment, code: str, value: Any, actor: AbstractBaseUser
) -> Establishment:
    """Change a setting of the establishment (``establishment_settings``): one its jurisdiction
    reads and no act of its own sets, to a value of that setting's make (None: back to the
    jurisdiction's default), by its director; written in the main courante (hooks.SETTING_CHANGED)
    in the same transaction."""
    establishment = Establishment.objects.select_for_update().get(pk=establishment.pk)
    role = require_role(actor, establishment, SETTING_CHANGERS[establishment.jurisdiction])
    setting = establishment_settings.changeable(establishment, code)
    stored = None if value is None else setting.parse(value, establishment)
    return establishment_setting_write(establishment=establishment, code=code, value=stored, actor=actor, role=role)


def establishment_setting_write(
    *, establishment: Establishment, code: str, value: Any, actor: AbstractBaseUser, role: str
) -> Establishment:
    """The write every act on a setting shares, in its transaction: the establishment (locked by
    the caller, who checked the actor's role and the value) saved with ``value`` for ``code``
    (None: the jurisdiction's default again), then the act's line written (hooks.SETTING_CHANGED).
    A value the establishment already has is refused: there is nothing to write."""
    before = establishment.setting(code)
    options = {key: held for key, held in establishment.options.items() if key != code}
    if value is not None:
        options[code] = value
    if options == establishment.options:
        raise ValidationError({"value": _("Ce réglage a déjà cette valeur.")})
    establishment.options = options
    save_audited(establishment, actor=actor, reason=f"réglage {code}")
    hooks.record(hooks.SETTING_CHANGED, establishment=establishment, code=code, before=before, actor=actor, role=role)
    return establishment


def _setup_code(errors: dict, model, establishment: Establishment, code: str, name: str, what: str) -> None:
    """The code and name of a room or place: both given, the code a slug no other of its kind here has."""
    if not code:
        errors["code"] = [_("Ce champ est obligatoire.")]
    else:
        try:
            validate_slug(code)
        except ValidationError:
            errors["code"] = [_("Lettres non accentuées, chiffres, tirets et soulignés seulement.")]
        if model.objects.filter(establishment=establishment, code=code).exists():
            errors["code"] = [_("%(what)s porte déjà le code %(code)s.") % {"what": what, "code": code}]
    if not name:
        errors["name"] = [_("Ce champ est obligatoire.")]


@transaction.atomic
def room_create(*, establishment: Establishment, code: str, name: str, actor: AbstractBaseUser | None) -> Room:
    """A room added by the directorate (or an administrator, or the system), written in the
    register of authorisations (hooks.STAFF_ACT)."""
    role = setup_role(actor, establishment)
    code, name, errors = (code or "").strip(), (name or "").strip(), {}
    _setup_code(errors, Room, establishment, code, name, _("Une salle"))
    if errors:
        raise ValidationError(errors)
    room = save_audited(Room(establishment=establishment, code=code, name=name), actor=actor, reason="création")
    hooks.record(
        hooks.STAFF_ACT,
        establishment=establishment,
        actor=actor,
        role=role,
        subject=_("Ajout d'une salle"),
        text=lambda: str(_("Salle « %(name)s » (code %(code)s) ajoutée.") % {"name": room.name, "code": room.code}),
        room=room.code,
    )
    return room


@transaction.atomic
def location_create(
    *,
    establishment: Establishment,
    code: str,
    name: str,
    kind: str,
    actor: AbstractBaseUser | None,
    room: Room | None = None,
) -> Location:
    """A place where regulated objects are kept (a depot, a cabinet, a cash desk, a safe, a store)
    added by the directorate (or an administrator, or the system), written in the register of
    authorisations (hooks.STAFF_ACT)."""
    role = setup_role(actor, establishment)
    code, name, errors = (code or "").strip(), (name or "").strip(), {}
    _setup_code(errors, Location, establishment, code, name, _("Un emplacement"))
    if kind not in LocationKind.values:
        errors["kind"] = [_("Type d'emplacement inconnu.")]
    if room is not None and room.establishment_id != establishment.pk:
        errors["room"] = [_("Cette salle n'est pas dans l'établissement.")]
    if errors:
        raise ValidationError(errors)
    location = save_audited(
        Location(establishment=establishment, code=code, name=name, kind=kind, room=room),
        actor=actor,
        reason="création",
    )
    hooks.record(
        hooks.STAFF_ACT,
        establishment=establishment,
        actor=actor,
        role=role,
        subject=_("Ajout d'un emplacement"),
        text=lambda: str(
            _("%(kind)s « %(name)s » (code %(code)s)%(room)s ajouté.")
            % {
                "kind": LocationKind(location.kind).label,
                "name": location.name,
                "code": location.code,
                "room": f", {room.name}" if room else "",
            }
        ),
        location=location.code,
        location_kind=location.kind,
    )
    return location


def _require_game(establishment: Establishment, game: str) -> None:
    if game not in GAMES or establishment.jurisdiction not in GAMES[game].jurisdictions:
        raise ValidationError({"game": _("Ce jeu ne se joue pas dans cet établissement.")})


def _table_set_up(
    table: GamingTable, *, before: GamingTable | None, actor: AbstractBaseUser, role: str, reason: str
) -> GamingTable:
    """Save the table as the set-up act leaves it once every app's checks allow it (hooks), its
    line written in the register of its jurisdiction (hooks.TABLE_SET_UP)."""
    hooks.run_table_setup_checks(table)
    save_audited(table, actor=actor, reason=reason)
    hooks.record(hooks.TABLE_SET_UP, table=table, before=before, actor=actor, role=role)
    return table


def _lock_tables(establishment: Establishment) -> None:
    """One set-up at a time per establishment: each counts the tables in service (AUTH-01)."""
    Establishment.objects.select_for_update().filter(pk=establishment.pk).values_list("pk", flat=True).get()


@transaction.atomic
def gaming_table_create(
    *, room: Room, number: str, game: str, actor: AbstractBaseUser, seats: int = 7, super_prive: bool = False
) -> GamingTable:
    """Add a table, in service, by a member of the directorate; the texts of its jurisdiction may
    refuse it (hooks.on_table_setup: FR, the arrêté d'autorisation and the prior declarations)."""
    establishment = room.establishment
    role = require_role(actor, establishment, DIRECTORATE)
    _require_game(establishment, game)
    if not (number or "").strip():
        raise ValidationError({"number": _("Ce champ est obligatoire.")})
    _lock_tables(establishment)
    table = GamingTable(
        establishment=establishment,
        room=room,
        number=number.strip(),
        game=game,
        seats=seats,
        super_prive=super_prive,
    )
    return _table_set_up(table, before=None, actor=actor, role=role, reason="création")


@transaction.atomic
def gaming_table_change(
    *, table: GamingTable, actor: AbstractBaseUser, game: str | None = None, active: bool | None = None
) -> GamingTable:
    """Change a table's game, or put it in or out of service, by a member of the directorate; not
    while one of its table-parties is under way. The texts of its jurisdiction may refuse it as they
    may refuse a new table (hooks.on_table_setup)."""
    establishment = table.establishment
    role = require_role(actor, establishment, DIRECTORATE)
    _lock_tables(establishment)
    table = GamingTable.objects.select_for_update().select_related("establishment").get(pk=table.pk)
    before = copy.copy(table)
    if game is not None:
        _require_game(establishment, game)
        table.game = game
    if active is not None:
        table.active = active
    if (table.game, table.active) == (before.game, before.active):
        raise ValidationError(_("Rien à changer : la table a déjà ce jeu et cet état."))
    if table.sessions.exclude(status=TableSession.Status.CLOSED).exists():
        raise impossible(
            _("La table %(table)s a une partie en cours : elle change de jeu ou d'état après la fin de partie.")
            % {"table": table.number}
        )
    if table.game != before.game:
        reason = "changement de jeu"
    else:
        reason = "mise en service" if table.active else "mise hors service"
    return _table_set_up(table, before=before, actor=actor, role=role, reason=reason)


# --- The house from an empty database: the establishment with its first director, and what its
# set-up still lacks.


def director_role(establishment: Establishment) -> str:
    """The role that directs the house: FR the directeur responsable, MC the directeur des jeux."""
    return str(SETTING_CHANGERS[establishment.jurisdiction][0])


def _first_settings(jurisdiction: str, options: dict[str, Any]) -> dict[str, Any]:
    """The settings an establishment starts with, each parsed as its later change would be."""
    probe = Establishment(jurisdiction=jurisdiction)
    parsed, errors = {}, []
    for code, value in (options or {}).items():
        try:
            setting = establishment_settings.changeable(probe, code)
            parsed[code] = None if value is None else setting.parse(value, probe)
        except ValidationError as exc:
            errors.extend(f"{code} : {message}" for message in exc.messages)
    if errors:
        raise ValidationError({"options": errors})
    return {code: value for code, value in parsed.items() if value is not None}


@transaction.atomic
def establishment_set_up(
    *,
    code: str,
    name: str,
    jurisdiction: str,
    director: str,
    actor: AbstractBaseUser | None,
    timezone_name: str = "",
    address: str = "",
    options: dict[str, Any] | None = None,
) -> Establishment:
    """An administrator (or the command line, ``actor`` None) creates the establishment with its
    jurisdiction, time zone and first settings, and gives its direction to the active account
    ``director`` (login): both acts are lines of the register of authorisations."""
    if actor is not None and not actor.is_superuser:
        raise PermissionDenied(_("Seul un administrateur peut créer un établissement."))
    if jurisdiction not in SETTING_CHANGERS:
        raise ValidationError({"jurisdiction": _("Juridiction inconnue.")})
    person = get_user_model().objects.filter(username=(director or "").strip(), is_active=True).first()
    if person is None:
        raise ValidationError({"director": _("Aucune personne active n'a cet identifiant de connexion.")})
    establishment = establishment_create(
        code=code,
        name=name,
        jurisdiction=jurisdiction,
        actor=actor,
        timezone_name=timezone_name or DEFAULT_TIMEZONES[jurisdiction],
        address=address,
        options=_first_settings(jurisdiction, options or {}),
    )
    membership_grant(user=person, establishment=establishment, role=director_role(establishment), actor=actor)
    return establishment


DEFAULT_TIMEZONES = {"MC": "Europe/Monaco", "FR": "Europe/Paris"}


@dataclass(frozen=True)
class SetupGap:
    """Something the set-up still lacks, and the page that adds it."""

    what: str | Promise
    url_name: str = ""


def setup_missing(establishment: Establishment) -> list[SetupGap]:
    """What the house lacks before its first séance as far as its places and people go: a room, a
    depot, the places its keys' custody names (SET-35, SET-36), a gaming table, its director."""
    gaps = []
    kinds = set(establishment.locations.filter(active=True).values_list("kind", flat=True))
    if not establishment.rooms.exists():
        gaps.append(SetupGap(_("Aucune salle."), "setup-rooms"))
    if not kinds & {str(kind) for kind in DEPOT_KINDS}:
        gaps.append(SetupGap(_("Aucun dépôt ni armoire pour les cartes, les dés et le matériel."), "setup-locations"))
    homes = {(establishment.setting("SET-35") or {}).get("home")}
    homes |= {custody.get("home") for custody in (establishment.setting("SET-36") or {}).values()}
    for kind in sorted(home for home in homes if home and home not in kinds):
        gaps.append(
            SetupGap(
                _("Aucun emplacement « %(kind)s » : les clés qui y sont gardées ne peuvent être inscrites.")
                % {"kind": LocationKind(kind).label},
                "setup-locations",
            )
        )
    if not establishment.tables.filter(active=True).exists():
        gaps.append(SetupGap(_("Aucune table de jeu en service."), "gaming-tables"))
    if not Membership.objects.filter(establishment=establishment, role=director_role(establishment)).exists():
        gaps.append(
            SetupGap(_("Personne n'a le rôle de %(role)s.") % {"role": Role(director_role(establishment)).label})
        )
    return gaps
