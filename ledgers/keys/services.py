"""Writes on keys: register a key, hand it over for a purpose and take it back (with one to three
people releasing it and every signer re-authenticated by the caller), surrender a socle key to the
caissier principal (KEY-07), and record a blind inventory. Each write appends its line to the
registre des clés in the same transaction.

The views and the API authenticate every person other than the actor (``ledgers.core.countersign``)
and the actor's own password (``authz.reauthenticate``) before calling these services."""

import datetime
import logging
from collections.abc import Mapping, Sequence

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Count
from django.utils import timezone, translation
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

from ledgers.core.authz import require_role, roles_of, save_audited
from ledgers.core.errors import RuleViolation, impossible
from ledgers.core.models import Establishment, Location, LocationKind
from ledgers.core.roles import Role
from ledgers.notifications.models import Notice, NoticeKind
from ledgers.notifications.services import notice_send
from ledgers.registers.models import Entry
from ledgers.registers.selectors import current_register
from ledgers.registers.services import display_name, entry_append

from . import policy, selectors
from .models import Key, KeyInventory, KeyIssue, KeySignature, SocleKeySurrender
from .policy import FIRST, KEY_ADMIN, SAME, LockType, Rule, rule_for
from .purposes import PurposeKind, fleet_size, get_purpose_type
from .registers import REGISTRE_CLES

SURRENDER_ROLES = (Role.SUPERVISEUR, Role.MECANICIEN, *KEY_ADMIN)
INVENTORY_ROLES = (*KEY_ADMIN, Role.COMPTABILITE)
UPPER_THRESHOLD = 75  # SET-43 default: the "75 machines à sous au plus" of art. 68-14

logger = logging.getLogger(__name__)


def _fr(value) -> str:
    """Register entries are written in French whatever the user's interface language."""
    with translation.override("fr"):
        return str(value)


def _roles_label(roles: Sequence[str]) -> str:
    return ", ".join(str(Role(r).label) for r in roles)


def _held(user: AbstractBaseUser, est: Establishment, allowed: Sequence[str]) -> str | None:
    held = roles_of(user, est)
    return next((str(r) for r in allowed if r in held), None)


def _member_role(user: AbstractBaseUser, est: Establishment) -> str:
    role = next(iter(sorted(roles_of(user, est))), None)
    if role is None:
        raise ValidationError(_("%(user)s n'est pas affecté à cet établissement.") % {"user": display_name(user)})
    return role


def _signed(user: AbstractBaseUser, role: str) -> str:
    return f"{display_name(user)} ({_fr(Role(role).label)})"


def _key_label(key: Key) -> str:
    label = f"{key.code} — {_fr(key.get_lock_type_display())} — {key.opens}"
    if not key.assets:
        return label
    return f"{label} ({selectors.assets_text(key.assets, selectors.place_names(key.establishment))})"


def _at(est: Establishment, moment: datetime.datetime | None) -> str:
    return est.localtime(moment).strftime("%Y-%m-%d %H:%M") if moment else ""


def _record(
    est: Establishment,
    *,
    actor: AbstractBaseUser,
    role: str,
    event,
    key: Key | None,
    at,
    purpose: str = "",
    holder: str = "",
    due: str = "",
    signatures: Sequence[str] = (),
    observations: str = "",
) -> Entry:
    return entry_append(
        register=current_register(est, REGISTRE_CLES.code),
        actor=actor,
        role=role,
        payload={
            "event": _fr(event),
            "at": _at(est, at),
            "key": _key_label(key) if key else "",
            "purpose": purpose,
            "holder": holder,
            "due": due,
            "signatures": list(signatures),
            "observations": observations,
        },
    )


def release_refusal(key: Key, actor: AbstractBaseUser) -> RuleViolation | ValidationError | None:
    """Why ``actor`` may not hand ``key`` over (the refusal ``key_issue`` gives), None when they may:
    the page asks it before offering the hand-over's form."""
    est = key.establishment
    rule = rule_for(est, key.lock_type)
    if _held(actor, est, rule.givers) is not None:
        return None
    try:
        _refuse(
            rule,
            _("Les clés « %(type)s » ne sont remises que par : %(roles)s.")
            % {"type": key.get_lock_type_display(), "roles": _roles_label(rule.givers)},
            code=rule.giver_code,
        )
    except (RuleViolation, ValidationError) as exc:
        return exc
    return None


def _refuse(rule: Rule, message, code: str = "") -> None:
    """A refusal of the texts, or a bad request where the rule is only best practice (no row to cite)."""
    if rule.bp and not code:
        raise ValidationError(message)
    raise RuleViolation(code or rule.code, message)


# --- the register of keys -------------------------------------------------------------------


def _check_one_lock_type(est: Establishment, code: str, lock_type: str) -> None:
    """KEY-01 (MC): one key ID, one lock type; KEY-12 (FR): the same, best practice (setting KEY-BP)."""
    others = Key.objects.filter(establishment=est, code=code).exclude(lock_type=lock_type)
    if not others.exists():
        return
    if est.jurisdiction == "MC":
        raise RuleViolation(
            "KEY-01",
            _(
                "La clé %(code)s ferme déjà une serrure d'un autre type : la machine, le "
                "socle, le bloc lecteur de billets et les boîtes à billets ont des clés "
                "distinctes."
            )
            % {"code": code},
        )
    if policy.bp(est, "KEY-12"):
        raise RuleViolation(
            "KEY-12",
            _(
                "La clé %(code)s ferme déjà une serrure d'un autre type : un identifiant de "
                "clé par type de serrure (bonne pratique)."
            )
            % {"code": code},
        )


def key_register_check(
    *,
    establishment: Establishment,
    code: str,
    lock_type: str,
    opens: str,
    asset_ref: str = "",
    copies: int = 1,
    home: Location | None = None,
    custodian: AbstractBaseUser | None = None,
    holder_organisation: str = "",
) -> str:
    """The rules a key entering the register answers to, whatever brings it in (its registration,
    the take-over of the keys from paper): its home and custodian as the texts require (KEY-01 to
    KEY-04, KEY-11, KEY-13 to KEY-16; SET-35, SET-36). Writes nothing; the custodian's role."""
    est = establishment
    code, asset_ref = code.strip(), asset_ref.strip()
    if lock_type not in LockType.values:
        raise ValidationError(_("Type de serrure inconnu."))
    if not code or not opens.strip():
        raise ValidationError(_("L'identifiant de la clé et ce qu'elle ouvre sont obligatoires."))
    if copies < 1:
        raise ValidationError(_("Une clé a au moins un exemplaire."))
    if home is not None and home.establishment_id != est.pk:
        raise ValidationError(_("Ce lieu de garde n'appartient pas à l'établissement."))
    _check_one_lock_type(est, code, lock_type)
    if Key.objects.filter(establishment=est, code=code, lock_type=lock_type).exists():
        raise ValidationError(_("La clé %(code)s est déjà inscrite au registre.") % {"code": code})
    rule = rule_for(est, lock_type)
    type_label = LockType(lock_type).label
    if rule.home_kind and (home is None or home.kind != rule.home_kind):
        _refuse(
            rule,
            _("Les clés « %(type)s » sont gardées à : %(home)s.")
            % {"type": type_label, "home": LocationKind(rule.home_kind).label},
        )
    custodian_role = ""
    if custodian is not None:
        custodian_role = _held(custodian, est, rule.holders) if rule.holders else _member_role(custodian, est)
        if custodian_role is None:
            _refuse(
                rule,
                _("Les clés « %(type)s » ne peuvent être gardées que par : %(roles)s.")
                % {"type": type_label, "roles": _roles_label(rule.holders)},
            )
    elif rule.personal:
        _refuse(
            rule,
            _("Les clés « %(type)s » sont détenues par une personne nommée (%(roles)s) : indiquez-la.")
            % {"type": type_label, "roles": _roles_label(rule.holders)},
        )
    if lock_type == LockType.LOGIC_BOARD and not holder_organisation.strip():
        _refuse(
            rule,
            _(
                "Une clé d'accès à la carte logique est détenue par la SFM (référence de son agrément) ou par "
                "le service de police des jeux : indiquez l'organisme."
            ),
        )
    if rule.max_copies is not None:
        twin = Key.objects.filter(establishment=est, lock_type=lock_type, asset_ref=asset_ref).exclude(
            status=Key.Status.RETIRED
        )
        if copies > rule.max_copies or twin.exists():
            _refuse(
                rule,
                _(
                    "L'armoire n'a qu'une clé, en un seul exemplaire : un second exemplaire ou une seconde clé "
                    "est refusé."
                ),
            )
    return custodian_role or ""


@transaction.atomic
def key_register(
    *,
    establishment: Establishment,
    actor: AbstractBaseUser,
    code: str,
    lock_type: str,
    opens: str,
    asset_ref: str = "",
    copies: int = 1,
    home: Location | None = None,
    custodian: AbstractBaseUser | None = None,
    holder_organisation: str = "",
    source: str = "",
) -> Key:
    """Enter a key in the register with its home and custodian as the texts require
    (``key_register_check``). ``source``: a key taken over from paper cites the paper register
    and page it comes from."""
    est = establishment
    role = require_role(actor, est, KEY_ADMIN)
    custodian_role = key_register_check(
        establishment=est,
        code=code,
        lock_type=lock_type,
        opens=opens,
        asset_ref=asset_ref,
        copies=copies,
        home=home,
        custodian=custodian,
        holder_organisation=holder_organisation,
    )
    code, asset_ref = code.strip(), asset_ref.strip()
    key = Key(
        establishment=est,
        code=code,
        lock_type=lock_type,
        opens=opens.strip(),
        asset_ref=asset_ref,
        copies=copies,
        home=home,
        custodian=custodian,
        custodian_role=custodian_role or "",
        holder_organisation=holder_organisation.strip(),
    )
    save_audited(key, actor=actor)
    custody = " — ".join(
        filter(
            None, [str(home or ""), _signed(custodian, custodian_role) if custodian else "", key.holder_organisation]
        )
    )
    _record(
        est,
        actor=actor,
        role=role,
        event=_("Inscription de la clé"),
        key=key,
        at=key.registered_at,
        holder=custody,
        signatures=[_signed(actor, role)],
        observations=" — ".join(
            filter(None, [_fr(ngettext_lazy("%(n)d exemplaire", "%(n)d exemplaires", copies) % {"n": copies}), source])
        ),
    )
    return key


# --- hand-over and return ---------------------------------------------------------------------


def _purpose(est: Establishment, rule: Rule, purpose_type: str, purpose_id: int):
    """The open purpose a key leaves for (never nothing): its type and object."""
    kind = get_purpose_type(purpose_type)
    if kind is None or not kind.issuable:
        raise ValidationError(
            _("Motif inconnu : une clé ne sort que pour un objet enregistré (relève, intervention, comptée, séance…).")
        )
    if rule.purposes is not None and kind.kind not in rule.purposes:
        _refuse(
            rule,
            _("Cette clé ne sort que pour : %(kinds)s.")
            % {"kinds": ", ".join(str(PurposeKind(k).label) for k in sorted(rule.purposes))},
            code=rule.purpose_code or ("" if rule.bp else rule.code),
        )
    obj = kind.get(purpose_id)
    if obj is None or kind.establishment(obj).pk != est.pk:
        raise ValidationError(_("Objet introuvable dans cet établissement."))
    if not kind.is_open(obj):
        _refuse(
            rule,
            _("%(purpose)s n'est pas en cours : la clé ne sort que pendant l'opération qui la justifie.")
            % {"purpose": kind.describe(obj)},
            code=rule.purpose_code or ("" if rule.bp else rule.code),
        )
    return kind, obj


def _upper_witness_roles(est: Establishment) -> tuple[str, ...] | None:
    """Who must be present with the directeur responsable or comité member at an upper-part opening
    (KEY-17): the mechanic, or the employee in charge where the fleet is at most SET-43 machines;
    None where the rule does not apply (the looser reading of AMB-51, when KEY-BP turns it off)."""
    threshold = est.setting("SET-43") or UPPER_THRESHOLD
    if isinstance(threshold, dict):
        threshold = threshold.get("threshold", UPPER_THRESHOLD)
    fleet = fleet_size(est)
    small = fleet is not None and fleet <= threshold
    if not small and not policy.bp(est, "AMB-51"):
        return None
    return policy.UPPER_EMPLOYEE if small else policy.UPPER_MECHANIC


def issue_signers(key: Key) -> tuple[int, tuple[str, ...] | None]:
    """Who signs a hand-over of ``key`` besides the person releasing it and the holder: how many
    more people release it (dual control, KEY-BP), and the roles one of whom must witness it (an
    upper-part opening, KEY-17), None when no witness is needed."""
    est = key.establishment
    needed, _back = policy.dual_control(est, key.lock_type)
    witness = _upper_witness_roles(est) if key.lock_type == LockType.UPPER and est.jurisdiction == "FR" else None
    return needed - 1, witness


def return_co_receivers(issue: KeyIssue) -> int:
    """How many people take the copy back besides the actor: every other releaser where the key
    returns to the same people, none where it returns to the first (dual control, KEY-BP)."""
    _needed, back = policy.dual_control(issue.key.establishment, issue.key.lock_type)
    return issue.signatures.filter(act=KeySignature.Act.RELEASE).count() - 1 if back == SAME else 0


def _holder_role(key: Key, holder: AbstractBaseUser) -> str:
    """The role in which ``holder`` may hold ``key`` (its custody rule), else the refusal."""
    est = key.establishment
    rule = rule_for(est, key.lock_type)
    holder_role = _held(holder, est, rule.holders) if rule.holders else _member_role(holder, est)
    if holder_role is None:
        _refuse(
            rule,
            _("Les clés « %(type)s » ne peuvent être détenues que par : %(roles)s.")
            % {"type": key.get_lock_type_display(), "roles": _roles_label(rule.holders)},
        )
    if (
        key.lock_type == LockType.BILL_CONTENT
        and est.jurisdiction == "MC"
        and policy.bp(est, "KEY-03")
        and roles_of(holder, est) & policy.SLOT_FLOOR
    ):
        raise RuleViolation(
            "KEY-03",
            _(
                "Les clés des boîtes à billets, détenues par la comptabilité générale, ne sont "
                "pas confiées au personnel de la salle des machines (bonne pratique)."
            ),
        )
    return holder_role


def holder_refusal(key: Key, holder: AbstractBaseUser) -> RuleViolation | ValidationError | None:
    """Why ``holder`` may not hold ``key`` (the refusal a hand-over gives), None when they may."""
    try:
        _holder_role(key, holder)
    except (RuleViolation, ValidationError) as exc:
        return exc
    return None


def _copy_free(key: Key, alongside: int = 0) -> None:
    """A copy of ``key`` is left in its home (``alongside``: copies going out with this one)."""
    if key.issues.filter(returned_at__isnull=True).count() + alongside >= key.copies:
        raise impossible(_("Tous les exemplaires de la clé %(code)s sont sortis.") % {"code": key.code})


def copy_refusal(key: Key, alongside: int = 0) -> RuleViolation | None:
    """Why no copy of ``key`` can go out now, None when one can."""
    try:
        _copy_free(key, alongside)
    except RuleViolation as exc:
        return exc
    return None


@transaction.atomic
def key_issue(
    *,
    key: Key,
    actor: AbstractBaseUser,
    holder: AbstractBaseUser,
    purpose_type: str,
    purpose_id: int,
    due_at: datetime.datetime,
    co_releasers: Sequence[AbstractBaseUser] = (),
    witness: AbstractBaseUser | None = None,
    note: str = "",
) -> KeyIssue:
    """Hand one copy of ``key`` to ``holder`` for an open purpose, due back at ``due_at``. ``actor``
    releases it (with ``co_releasers`` where the key's dual control asks for more people);
    ``witness``: the mechanic or employee present at an upper-part opening (KEY-17)."""
    key = Key.objects.select_for_update().select_related("establishment").get(pk=key.pk)
    est = key.establishment
    rule = rule_for(est, key.lock_type)
    type_label = key.get_lock_type_display()
    if key.status != Key.Status.IN_SERVICE:
        raise ValidationError(_("La clé %(code)s n'est pas en service.") % {"code": key.code})
    refusal = release_refusal(key, actor)
    if refusal is not None:
        raise refusal
    giver_role = _held(actor, est, rule.givers)
    releasers = [actor, *co_releasers]
    more, witness_roles = issue_signers(key)
    if len({user.pk for user in releasers}) != len(releasers) or len(releasers) != more + 1:
        raise ValidationError(
            _("Cette clé est remise par %(n)d personne(s) distinctes (contrôle à plusieurs, bonne pratique).")
            % {"n": more + 1}
        )
    release_roles = [giver_role]
    for user in co_releasers:
        role = _held(user, est, rule.givers)
        if role is None:
            _refuse(
                rule,
                _("Les clés « %(type)s » ne sont remises que par : %(roles)s.")
                % {"type": type_label, "roles": _roles_label(rule.givers)},
                code=rule.giver_code,
            )
        release_roles.append(role)
    holder_role = _holder_role(key, holder)
    kind, obj = _purpose(est, rule, purpose_type, purpose_id)
    now = timezone.now()
    if due_at <= now:
        raise ValidationError(_("L'heure de retour prévue doit être à venir."))
    witness_role = ""
    if witness_roles is not None:
        witness_role = _held(witness, est, witness_roles) if witness is not None else None
        if witness_role is None or witness.pk == holder.pk:
            raise RuleViolation(
                "KEY-17",
                _(
                    "L'ouverture de la partie supérieure demande la présence du directeur "
                    "responsable ou d'un membre du comité de direction (le détenteur) et "
                    "de : %(roles)s."
                )
                % {"roles": _roles_label(witness_roles)},
            )
    _copy_free(key)
    issue = KeyIssue(
        key=key,
        purpose_type=kind.code,
        purpose_id=obj.pk,
        purpose_label=kind.describe(obj)[:200],
        holder=holder,
        holder_role=holder_role,
        issued_by=actor,
        issued_by_role=giver_role,
        issued_at=now,
        due_at=due_at,
        note=note.strip(),
    )
    save_audited(issue, actor=actor)
    signatures = [
        KeySignature(issue=issue, act=KeySignature.Act.RELEASE, user=user, role=role, signed_at=now, position=n)
        for n, (user, role) in enumerate(zip(releasers, release_roles, strict=True), start=1)
    ]
    signatures.append(
        KeySignature(issue=issue, act=KeySignature.Act.TAKE, user=holder, role=holder_role, signed_at=now)
    )
    if witness_role:
        signatures.append(
            KeySignature(issue=issue, act=KeySignature.Act.WITNESS, user=witness, role=witness_role, signed_at=now)
        )
    KeySignature.objects.bulk_create(signatures)
    _record(
        est,
        actor=actor,
        role=giver_role,
        event=_("Remise de la clé"),
        key=key,
        at=now,
        purpose=f"{_fr(kind.label)} : {issue.purpose_label}",
        holder=_signed(holder, holder_role),
        due=_at(est, due_at),
        signatures=[_fr(s.get_act_display()) + " : " + _signed(s.user, s.role) for s in signatures],
        observations=issue.note,
    )
    return issue


@transaction.atomic
def key_out_take_over(
    *,
    key: Key,
    actor: AbstractBaseUser,
    holder: AbstractBaseUser,
    released_by: AbstractBaseUser,
    issued_at: datetime.datetime,
    due_at: datetime.datetime,
    purpose_type: str,
    purpose_id: int,
    purpose_label: str,
    source: str,
) -> KeyIssue:
    """A copy of ``key`` already out when the house takes its keys over from paper: in the hands
    of ``holder`` (who may hold it) since ``issued_at``, handed over by ``released_by`` (who may
    hand it over), due back at ``due_at``, for the purpose the paper register names. The purpose
    is the take-over inventory (a purpose of kind "reprise", which no ordinary hand-over names).
    Recorded by the keepers of the register of keys: its line cites the paper register and page
    (``source``). Nobody signed that hand-over here: the copy comes back to anyone who may hand
    the key over (``key_return``)."""
    key = Key.objects.select_for_update().select_related("establishment").get(pk=key.pk)
    est = key.establishment
    role = require_role(actor, est, KEY_ADMIN)
    kind = get_purpose_type(purpose_type)
    if kind is None or kind.kind != PurposeKind.TAKEOVER:
        raise ValidationError(_("Seule la reprise de l'existant inscrit une clé déjà sortie."))
    if key.status != Key.Status.IN_SERVICE:
        raise ValidationError(_("La clé %(code)s n'est pas en service.") % {"code": key.code})
    for refusal in (release_refusal(key, released_by), holder_refusal(key, holder), copy_refusal(key)):
        if refusal is not None:
            raise refusal
    if not purpose_label.strip():
        raise ValidationError(_("Indiquez pour quoi la clé est sortie, comme le registre papier le porte."))
    if issued_at > timezone.now() or due_at < issued_at:
        raise ValidationError(_("Une clé reprise est sortie avant ce jour, et à rendre après sa sortie."))
    giver_role, holder_role = _held(released_by, est, rule_for(est, key.lock_type).givers), _holder_role(key, holder)
    issue = save_audited(
        KeyIssue(
            key=key,
            purpose_type=kind.code,
            purpose_id=purpose_id,
            purpose_label=purpose_label.strip()[:200],
            holder=holder,
            holder_role=holder_role,
            issued_by=released_by,
            issued_by_role=giver_role,
            issued_at=issued_at,
            due_at=due_at,
            note=source[:300],
        ),
        actor=actor,
    )
    _record(
        est,
        actor=actor,
        role=role,
        event=_("Clé sortie reprise du registre papier"),
        key=key,
        at=issued_at,
        purpose=f"{_fr(kind.label)} : {issue.purpose_label}",
        holder=_signed(holder, holder_role),
        due=_at(est, due_at),
        signatures=[
            _fr(KeySignature.Act.RELEASE.label) + " : " + _signed(released_by, giver_role),
            _signed(actor, role),
        ],
        observations=source,
    )
    return issue


@transaction.atomic
def key_return(
    *,
    issue: KeyIssue,
    actor: AbstractBaseUser,
    returned_by: AbstractBaseUser,
    co_receivers: Sequence[AbstractBaseUser] = (),
    note: str = "",
) -> KeyIssue:
    """The holder (``returned_by``) hands the copy back; ``actor`` (and ``co_receivers``) take it
    back: the same people who released it, or the same first person (dual control, KEY-BP)."""
    issue = KeyIssue.objects.select_for_update().select_related("key__establishment").get(pk=issue.pk)
    key, est = issue.key, issue.key.establishment
    if not issue.is_out:
        raise ValidationError(_("Cette clé a déjà été rendue."))
    if returned_by.pk != issue.holder_id:
        raise ValidationError(
            _("La clé est rendue par celui qui la détient (%(holder)s).") % {"holder": display_name(issue.holder)}
        )
    releases = list(issue.signatures.filter(act=KeySignature.Act.RELEASE).order_by("position"))
    receivers = [actor, *co_receivers]
    if releases:
        _needed, back = policy.dual_control(est, key.lock_type)
        same = {s.user_id for s in releases} == {u.pk for u in receivers} and len(receivers) == len(releases)
        if (back == SAME and not same) or (back == FIRST and (actor.pk != releases[0].user_id or co_receivers)):
            raise ValidationError(
                _("La clé revient à %(who)s (contrôle à plusieurs, bonne pratique).")
                % {"who": ", ".join(display_name(s.user) for s in (releases if back == SAME else releases[:1]))}
            )
        roles = {s.user_id: s.role for s in releases}
    else:  # a copy taken over from paper (key_out_take_over): anyone who may hand the key over takes it back
        refusal = release_refusal(key, actor)
        if refusal is not None:
            raise refusal
        if co_receivers:
            raise ValidationError(_("Cette clé reprise du registre papier est reprise par une seule personne."))
        roles = {actor.pk: _held(actor, est, rule_for(est, key.lock_type).givers)}
    now = timezone.now()
    issue.returned_at, issue.returned_by, issue.received_by = now, returned_by, actor
    if note.strip():
        issue.note = f"{issue.note} / {note.strip()}".strip(" /")[:300]
    save_audited(issue, actor=actor)
    signatures = [
        KeySignature(issue=issue, act=KeySignature.Act.RETURN, user=returned_by, role=issue.holder_role, signed_at=now)
    ]
    signatures += [
        KeySignature(
            issue=issue, act=KeySignature.Act.RECEIVE, user=user, role=roles[user.pk], signed_at=now, position=n
        )
        for n, user in enumerate(receivers, start=1)
    ]
    KeySignature.objects.bulk_create(signatures)
    late = now > issue.due_at
    _record(
        est,
        actor=actor,
        role=roles[actor.pk],
        event=_("Restitution de la clé"),
        key=key,
        at=now,
        purpose=f"{_fr(get_purpose_type(issue.purpose_type).label)} : {issue.purpose_label}",
        holder=_signed(returned_by, issue.holder_role),
        due=_at(est, issue.due_at),
        signatures=[_fr(s.get_act_display()) + " : " + _signed(s.user, s.role) for s in signatures],
        observations=" / ".join(filter(None, [_fr(_("rendue en retard")) if late else "", note.strip()])),
    )
    return issue


# --- socle out of operation (KEY-07) --------------------------------------------------------------


@transaction.atomic
def socle_key_surrender(
    *,
    key: Key,
    actor: AbstractBaseUser,
    receiver: AbstractBaseUser | None,
    socle_ref: str,
    lock_ref: str,
    reason: str,
) -> SocleKeySurrender:
    """A socle taken out of operation for technical reasons: its lock and key handed to the
    caissier principal of the caisse centrale (``receiver``, authenticated by the caller), KEY-07."""
    key = Key.objects.select_for_update().select_related("establishment").get(pk=key.pk)
    est = key.establishment
    role = require_role(actor, est, SURRENDER_ROLES)
    if key.lock_type != LockType.SOCLE:
        raise ValidationError(_("Seule une clé de socle est remise au caissier principal."))
    if not (socle_ref.strip() and lock_ref.strip() and reason.strip()):
        raise ValidationError(_("Le socle, la serrure et le motif technique sont obligatoires."))
    receiver_role = _held(receiver, est, (Role.CAISSIER_PRINCIPAL,)) if receiver is not None else None
    if receiver_role is None:
        raise RuleViolation(
            "KEY-07",
            _(
                "La serrure et la clé d'un socle sorti de l'exploitation sont remises au "
                "caissier principal de la caisse centrale."
            ),
        )
    caisse = Location.objects.filter(establishment=est, kind=LocationKind.CAISSE_CENTRALE, active=True).first()
    if caisse is None:
        raise RuleViolation("KEY-07", _("Aucune caisse centrale n'est enregistrée dans l'établissement."))
    if key.issues.filter(returned_at__isnull=True).exists():
        raise ValidationError(_("La clé est sortie : elle doit d'abord être rendue."))
    now = timezone.now()
    surrender = SocleKeySurrender.objects.create(
        key=key,
        socle_ref=socle_ref.strip(),
        lock_ref=lock_ref.strip(),
        reason=reason.strip(),
        handed_by=actor,
        handed_by_role=role,
        received_by=receiver,
        surrendered_at=now,
    )
    key.status, key.home, key.custodian, key.custodian_role = Key.Status.SURRENDERED, caisse, receiver, receiver_role
    save_audited(key, actor=actor, reason="KEY-07")
    _record(
        est,
        actor=actor,
        role=role,
        event=_("Socle sorti de l'exploitation : serrure et clé remises"),
        key=key,
        at=now,
        purpose=f"{surrender.socle_ref} — {surrender.lock_ref}",
        holder=_signed(receiver, receiver_role),
        signatures=[_signed(actor, role), _signed(receiver, receiver_role)],
        observations=surrender.reason,
    )
    return surrender


# --- blind inventory --------------------------------------------------------------------------


@transaction.atomic
def key_inventory_record(
    *,
    establishment: Establishment,
    actor: AbstractBaseUser,
    counted: Mapping[int, int],
) -> KeyInventory:
    """A blind inventory of every key's copies in their homes (``counted``: key id → copies found).
    Expected: the copies less those out; a surrendered socle key is expected with the caissier
    principal. Every key is counted; the differences are listed on the sanity report."""
    est = establishment
    role = require_role(actor, est, INVENTORY_ROLES)
    keys = list(Key.objects.filter(establishment=est).exclude(status=Key.Status.RETIRED).order_by("code", "lock_type"))
    missing = [key.code for key in keys if key.pk not in counted]
    if missing:
        raise ValidationError(_("Inventaire incomplet : clés non comptées : %(keys)s.") % {"keys": ", ".join(missing)})
    if any(value < 0 for value in counted.values()):
        raise ValidationError(_("Un nombre d'exemplaires ne peut être négatif."))
    out = dict(
        KeyIssue.objects.filter(key__in=keys, returned_at__isnull=True).values_list("key").annotate(n=Count("id"))
    )
    lines = [
        {
            "key": key.pk,
            "code": key.code,
            "lock_type": key.lock_type,
            "expected": key.copies - out.get(key.pk, 0),
            "counted": int(counted[key.pk]),
        }
        for key in keys
    ]
    now = timezone.now()
    inventory = KeyInventory.objects.create(
        establishment=est,
        counted_at=now,
        counted_by=actor,
        counted_by_role=role,
        lines=lines,
        differences=sum(1 for line in lines if line["counted"] != line["expected"]),
    )
    _record(
        est,
        actor=actor,
        role=role,
        event=_("Inventaire des clés (à l'aveugle)"),
        key=None,
        at=now,
        signatures=[_signed(actor, role)],
        observations=_fr(
            _("%(n)d clé(s) comptée(s), %(d)d écart(s) : %(lines)s")
            % {
                "n": len(lines),
                "d": inventory.differences,
                "lines": ", ".join(
                    f"{line['code']} {line['counted']}/{line['expected']}" for line in inventory.difference_lines()
                )
                or "—",
            }
        ),
    )
    return inventory


def _overdue_about(issue: KeyIssue) -> str:
    return f"keys.keyissue:{issue.pk}"


def keys_overdue_notify(*, now: datetime.datetime | None = None) -> int:
    """Tell of every key out past its due time, still out after its purpose closed (KEY-02,
    KEY-05) or at a séance's closing (KEY-05), once per hand-over: its holder and the roles that
    hand that key over, by e-mail, and the subscribers of "key_overdue". A system act (the
    periodic task): each notice is a line of the registre des clés signed by the system, in its
    own transaction, so that an establishment without an open key register does not hold back
    the others. The number of notices sent."""
    now = now or timezone.now()
    sent = 0
    establishments = Establishment.objects.filter(
        pk__in=KeyIssue.objects.filter(returned_at=None).values("key__establishment")
    )
    for est in establishments:
        with translation.override("fr"):  # the reasons go into the register and the mail
            found = selectors.exceptions(est, now=now)
        told = set(
            Notice.objects.filter(
                establishment=est, kind=NoticeKind.KEY_OVERDUE, about__in=[_overdue_about(e.issue) for e in found]
            ).values_list("about", flat=True)
        )
        for exception in found:
            if _overdue_about(exception.issue) in told:
                continue
            try:
                sent += _key_overdue_notice(est, exception) is not None
            except RuleViolation:  # no key register open here: nothing can be recorded, so nothing is sent
                logger.warning("key issue %s overdue: not notified", exception.issue.pk, exc_info=True)
    return sent


@transaction.atomic
def _key_overdue_notice(est: Establishment, exception: selectors.KeyException) -> Notice | None:
    issue = KeyIssue.objects.select_for_update().select_related("key", "holder").get(pk=exception.issue.pk)
    about = _overdue_about(issue)
    if issue.returned_at is not None or Notice.objects.filter(kind=NoticeKind.KEY_OVERDUE, about=about).exists():
        return None  # returned, or told by a concurrent run
    key, holder = _key_label(issue.key), _signed(issue.holder, issue.holder_role)
    due = _at(est, issue.due_at)
    subject = _fr(_("Clé non restituée : %(key)s — %(holder)s") % {"key": issue.key.code, "holder": holder})
    body = "\n".join(
        (
            key,
            _fr(_("Détenteur : %(holder)s") % {"holder": holder}),
            _fr(_("À rendre le : %(due)s") % {"due": due}),
            _fr(_("Motif de sortie : %(purpose)s") % {"purpose": issue.purpose_label}),
            f"{exception.reason} ({exception.code})",
        )
    )
    return notice_send(
        establishment=est,
        kind=NoticeKind.KEY_OVERDUE,
        register=lambda: current_register(est, REGISTRE_CLES.code),
        subject=subject,
        body=body,
        actor=None,
        roles=rule_for(est, issue.key.lock_type).givers,
        people=[(issue.holder, issue.holder_role)],
        about=about,
        columns={
            "at": _at(est, timezone.now()),
            "key": key,
            "purpose": issue.purpose_label,
            "holder": holder,
            "due": due,
            "observations": exception.reason,
        },
    )
