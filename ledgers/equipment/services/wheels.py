"""Wheels: registration, commissioning, installation, pre-séance checks and lid locks."""

from collections.abc import Sequence

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ledgers.core.authz import require_role, role_named_by_text, roles_of, save_audited
from ledgers.core.errors import RuleViolation
from ledgers.core.models import Establishment, GamingTable, TableSession
from ledgers.core.roles import Role
from ledgers.incidents.categories import EQUIPMENT_CHECK
from ledgers.incidents.services import incident_open
from ledgers.registers.models import Entry
from ledgers.registers.services import display_name, entry_write

from ..models import (
    AssetStatus,
    LidLock,
    Wheel,
    WheelCheck,
)
from ..registers import (
    MAIN_COURANTE_ROUE,
    VERIFICATIONS_MATERIEL,
)
from ..specs import (
    CHECK_RULES,
    KINDS_BY_JURISDICTION,
    LID_GAMES,
    WHEEL_FOR_GAME,
    clean_spec,
    validate_spec,
)
from .common import MANAGERS, _equipment_entry, _fr, _live_session, _session_fields


def _verifications_write(est: Establishment, *, actor: AbstractBaseUser, role: str, payload: dict) -> Entry:
    """Every line of the registre des vérifications du matériel is written here."""
    return entry_write(establishment=est, kind=VERIFICATIONS_MATERIEL.code, actor=actor, role=role, payload=payload)


def _spec_details(wheel: Wheel) -> list[str]:
    return [f"{key} : {value}" for key, value in sorted(wheel.spec.items())]


@transaction.atomic
def wheel_register(
    *, establishment: Establishment, number: str, kind: str, spec: dict, actor: AbstractBaseUser, serial: str = ""
) -> Wheel:
    """Record a roulette, boule plateau or wheel with its specification as found."""
    role = require_role(actor, establishment, MANAGERS[establishment.jurisdiction])
    if kind not in KINDS_BY_JURISDICTION[establishment.jurisdiction]:
        raise ValidationError({"kind": _("Ce matériel n'est pas exploité dans cette juridiction.")})
    if not number.strip():
        raise ValidationError({"number": _("Le numéro d'inventaire est obligatoire.")})
    if Wheel.objects.filter(establishment=establishment, number=number.strip()).exists():
        raise ValidationError({"number": _("Ce numéro d'inventaire est déjà attribué.")})
    wheel = save_audited(
        Wheel(
            establishment=establishment,
            number=number.strip(),
            serial=serial.strip(),
            kind=kind,
            spec=clean_spec(kind, spec),
        ),
        actor=actor,
        reason="enregistrement",
    )
    _equipment_entry(
        establishment, actor=actor, role=role, event=_("Enregistrement"), equipment=wheel, details=_spec_details(wheel)
    )
    return wheel


@transaction.atomic
def wheel_commission(*, wheel: Wheel, actor: AbstractBaseUser) -> Wheel:
    """Put into service only equipment whose recorded specification is the text's (WHEEL-01,
    WHEEL-03, WHEEL-04, WHEEL-05, WHEEL-07)."""
    wheel = Wheel.objects.select_for_update().get(pk=wheel.pk)
    est = wheel.establishment
    role = require_role(actor, est, MANAGERS[est.jurisdiction])
    if wheel.status != AssetStatus.REGISTERED:
        raise ValidationError(_("Ce matériel a déjà été mis en service."))
    validate_spec(wheel.kind, wheel.spec, est.jurisdiction)
    wheel.status = AssetStatus.IN_SERVICE
    save_audited(wheel, actor=actor, reason="mise en service")
    _equipment_entry(
        est,
        actor=actor,
        role=role,
        event=_("Mise en service — caractéristiques conformes"),
        equipment=wheel,
        details=_spec_details(wheel),
    )
    return wheel


@transaction.atomic
def wheel_install(*, wheel: Wheel, table: GamingTable, actor: AbstractBaseUser) -> Wheel:
    """Install a wheel in service at a table of its game."""
    wheel = Wheel.objects.select_for_update().get(pk=wheel.pk)
    est = wheel.establishment
    role = require_role(actor, est, MANAGERS[est.jurisdiction])
    if table.establishment_id != est.pk:
        raise ValidationError(_("Cette table n'appartient pas à cet établissement."))
    if WHEEL_FOR_GAME.get(table.game) != wheel.kind:
        raise ValidationError(_("Ce matériel ne sert pas au jeu de cette table."))
    if wheel.status != AssetStatus.IN_SERVICE:
        raise ValidationError(
            _("Le matériel doit être mis en service (caractéristiques validées) avant d'être installé.")
        )
    if Wheel.objects.filter(table=table).exclude(pk=wheel.pk).exists():
        raise ValidationError(_("Un autre matériel est installé à cette table."))
    wheel.table = table
    save_audited(wheel, actor=actor, reason="installation")
    _equipment_entry(
        est, actor=actor, role=role, event=_("Installation à la table"), equipment=wheel, table_number=table.number
    )
    return wheel


def _pair_roles(
    actor: AbstractBaseUser, cosigner: AbstractBaseUser, est: Establishment, roles: tuple[str, str], code: str
) -> tuple[str, str]:
    """The two signatories of a check hold the two roles the text names, one each."""
    mine, theirs = roles_of(actor, est), roles_of(cosigner, est)
    first, second = roles
    if actor.pk != cosigner.pk:
        if first in mine and second in theirs:
            return first, second
        if second in mine and first in theirs:
            return second, first
    raise RuleViolation(
        code,
        _("La vérification est faite et signée par deux personnes : %(a)s et %(b)s.")
        % {"a": Role(first).label, "b": Role(second).label},
    )


@transaction.atomic
def wheel_check_record(
    *,
    session: TableSession,
    actor: AbstractBaseUser,
    cosigner: AbstractBaseUser,
    points: Sequence[str],
    passed: bool,
    observations: str = "",
) -> WheelCheck:
    """The check before the séance, signed by both people the text names (MC WHEEL-06: maintenance
    staff in the presence of an inspecteur, REG-12; FR WHEEL-08: a comité member and the croupier,
    in the main courante, REG-11). A failed check opens an incident and the table stays closed
    (INC-08). ``cosigner`` is authenticated by the caller."""
    session = _live_session(session)
    est, table = session.seance.establishment, session.table
    rule = CHECK_RULES[est.jurisdiction].get(table.game)
    if rule is None:
        raise ValidationError(_("Aucune vérification avant séance n'est prescrite pour ce jeu."))
    code, roles = rule
    actor_role, cosigner_role = _pair_roles(actor, cosigner, est, roles, code)
    if session.status != TableSession.Status.PREPARING:
        raise ValidationError(_("La vérification a lieu avant l'ouverture de la table."))
    wheel = Wheel.objects.filter(table=table).first()
    if wheel is None:
        raise ValidationError(_("Aucun matériel n'est installé à cette table."))
    points = [str(p).strip() for p in points if str(p).strip()]
    if not points:
        raise ValidationError({"points": _("Indiquez les points vérifiés.")})
    if not passed and not observations.strip():
        raise ValidationError({"observations": _("Décrivez ce qui n'est pas conforme.")})
    incident = None
    if not passed:
        incident = incident_open(
            establishment=est,
            category=EQUIPMENT_CHECK.code,
            actor=actor,
            subjects=[wheel],
            table_session=session,
            description=_fr(_("Vérification avant séance non conforme : %(wheel)s.") % {"wheel": wheel}),
            circumstances=observations,
        )
    check = WheelCheck.objects.create(
        establishment=est,
        table_session=session,
        wheel=wheel,
        checked_at=timezone.now(),
        points=points,
        passed=passed,
        observations=observations.strip(),
        signer=actor,
        signer_role=actor_role,
        cosigner=cosigner,
        cosigner_role=cosigner_role,
        incident=incident,
    )
    names = {actor_role: display_name(actor), cosigner_role: display_name(cosigner)}
    payload = {
        **_session_fields(session),
        "wheel": _fr(wheel),
        "points": points,
        "result": _fr(_("conforme") if passed else _("non conforme")),
        "observations": check.observations,
        "incident": incident.pk if incident else None,
    }
    if est.jurisdiction == "MC":
        payload.update(
            event=_fr(_("Vérification avant séance")),
            technician=names[Role.ENTRETIEN],
            inspecteur=names[Role.INSPECTEUR],
        )
        _verifications_write(est, actor=actor, role=actor_role, payload=payload)
    else:
        payload.update(comite=names[Role.COMITE], croupier=names[Role.CROUPIER])
        entry_write(establishment=est, kind=MAIN_COURANTE_ROUE.code, actor=actor, role=actor_role, payload=payload)
    return check


@transaction.atomic
def wheel_lid_lock(*, session: TableSession, actor: AbstractBaseUser, key_holder: AbstractBaseUser) -> LidLock:
    """End of partie at the roulette: the cylinder covered with its lid, locked, and the key handed
    back to its holder (WHEEL-02, KEY-08; holders: SET-31). ``key_holder`` is authenticated by the
    caller (or is the actor)."""
    session = _live_session(session)
    est, table = session.seance.establishment, session.table
    if table.game not in LID_GAMES[est.jurisdiction]:
        raise ValidationError(_("Cette table n'a pas de cylindre fermé à clé."))
    role = require_role(actor, est, (Role.CROUPIER, Role.CHEF_TABLE, Role.INSPECTEUR))
    holders = tuple(est.setting("SET-31") or ())
    key_role = role_named_by_text(
        key_holder,
        est,
        holders,
        "KEY-08",
        _("La clé du couvercle est remise à son détenteur désigné (%(roles)s).")
        % {"roles": ", ".join(str(Role(r).label) for r in holders) or "—"},
    )
    if session.status != TableSession.Status.OPEN:
        raise ValidationError(_("Le cylindre se ferme à la fin de la partie, table ouverte."))
    if LidLock.objects.filter(table_session=session).exists():
        raise ValidationError(_("Le couvercle est déjà fermé pour cette partie."))
    wheel = Wheel.objects.filter(table=table).first()
    if wheel is None:
        raise ValidationError(_("Aucun cylindre n'est installé à cette table."))
    lock = LidLock.objects.create(
        table_session=session,
        wheel=wheel,
        locked_at=timezone.now(),
        locked_by=actor,
        locked_by_role=role,
        key_holder=key_holder,
        key_holder_role=key_role,
    )
    _verifications_write(
        est,
        actor=actor,
        role=role,
        payload={
            **_session_fields(session),
            "wheel": _fr(wheel),
            "event": _fr(_("Fermeture du cylindre")),
            "points": [_fr(_("Couvercle posé et fermé à clé")), _fr(_("Clé remise à son détenteur"))],
            "result": _fr(_("fermé")),
            "observations": "",
            "technician": display_name(actor),
            "inspecteur": f"{display_name(key_holder)} ({_fr(Role(key_role).label)})",
        },
    )
    return lock
