"""Writes to registers. Domain services call ``entry_append`` inside their own transaction, so a
regulated object never changes without its entry, and no entry exists without its change."""

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import connection, transaction
from django.db.models import F, Max, QuerySet
from django.db.models.functions import Coalesce
from django.utils import timezone, translation
from django.utils.translation import gettext_lazy as _

from ledgers.core import hooks
from ledgers.core.authenticators import passkey_required
from ledgers.core.authz import require_role, roles_of, save_audited
from ledgers.core.errors import RuleViolation, impossible
from ledgers.core.models import Establishment
from ledgers.core.roles import REGULATOR_ROLES, Role
from ledgers.signatures.passkeys import PasskeyRequired, sign_entry, signed_payload

from . import store, trees
from .chain import check_payload, entry_hash, format_timestamp
from .checkpoints import checkpoint_bytes
from .digests import transaction_digests
from .kinds import AUTHORISATIONS, DIRECTORATE, MAIN_COURANTE, default_title, get_kind
from .models import SYSTEM_ACTOR, SYSTEM_ROLE, Checkpoint, Entry, EntryKind, Register
from .selectors import current_register, visaed_up_to
from .signing import sign, signing_key
from .verification import Finding, snapshot, verify_in_snapshot
from .written import give_back_written, take_written

EVENT_AT_FORMAT = "%Y-%m-%d %H:%M"  # local time of a fact, as written in a payload


def register_language() -> translation.override:
    """Registers are written in the language of the texts whatever the user's language; refusals,
    raised before the entry is built, stay in the user's."""
    return translation.override(settings.LANGUAGE_CODE)


def display_name(user: AbstractBaseUser) -> str:
    return user.get_full_name() or user.get_username()


def _locked(register: Register) -> Register:
    """A fresh copy of the register, its row locked until the end of the transaction (for the
    services that save the register itself)."""
    return Register.objects.select_for_update().get(pk=register.pk)


def _lock_head(register: Register) -> Register:
    """Lock the register row until the end of the transaction and bring the caller's instance's
    status and head up to date: the light lock of the append path."""
    register.status, register.head_seq, register.head_hash = store.lock_head(register.pk)
    return register


def _entry_values(
    register: Register,
    *,
    seq: int,
    prev_hash: str,
    actor: AbstractBaseUser | None,
    role: str,
    kind: str,
    payload: dict[str, Any],
    corrects: Entry | None,
    written: dict[str, list[int]] | None = None,
) -> dict[str, Any]:
    """The stored fields of a new entry (by attname), its hash computed over their canonical form
    (format 2: with the objects the transaction wrote since its previous entry, taken here unless
    given; format 3 on PostgreSQL: with the digests of their history rows of this transaction).
    The caller has checked the payload (check_payload). No ``actor``: the system's act, signed
    with its marker (``notification_entry_append`` alone writes those). The first entry of an act
    signed at this terminal carries its signers' passkey assertions (``sign_entry``)."""
    payload = sign_entry(register=register.number, kind=str(kind), payload=payload)
    values = {
        "register_id": register.pk,
        "seq": seq,
        "recorded_at": timezone.now(),  # server time: entries are never back-dated (REG-20)
        "actor_user_id": actor.pk if actor else None,
        "actor": actor.get_username() if actor else SYSTEM_ACTOR,
        "role": str(role) if actor else SYSTEM_ROLE,
        "kind": str(kind),
        "payload": payload,
        "corrects_id": corrects.pk if corrects else None,
        "prev_hash": prev_hash,
        "written": take_written() if written is None else written,
    }
    values["digests"] = transaction_digests(values["written"])
    values["entry_hash"] = entry_hash(
        register=register.number,
        seq=seq,
        recorded_at=format_timestamp(values["recorded_at"]),
        actor=values["actor"],
        role=values["role"],
        kind=values["kind"],
        payload=payload,
        corrects=corrects.seq if corrects else None,
        prev_hash=prev_hash,
        written=values["written"],
        digests=values["digests"],
    )
    return values


def _require_open(register: Register) -> None:
    if register.status == Register.Status.AWAITING_OPENING:
        raise RuleViolation(
            "REG-01",
            _("Le registre %(number)s n'a pas encore été coté et paraphé : aucune inscription possible.")
            % {"number": register.number},
        )
    if register.status == Register.Status.CLOSED:
        raise RuleViolation(
            "REG-20", _("Le registre %(number)s est clos : aucune inscription possible.") % {"number": register.number}
        )
    if register.status == Register.Status.WITHDRAWN:
        raise RuleViolation(
            "REG-20",
            _("Le registre %(number)s a été retiré : aucune inscription possible.") % {"number": register.number},
        )


def _require_writer(register: Register, role: str) -> None:
    if role not in register.kind_info.record_roles:
        raise ValueError(f"role {role!r} does not write in {register.kind!r} registers")


def _stored(
    register: Register,
    values: dict[str, Any],
    entry_id: int,
    *,
    actor: AbstractBaseUser | None,
    corrects: Entry | None,
) -> Entry:
    """The Entry just written (no query), and its register's head moved on the caller's instance."""
    entry = Entry(pk=entry_id, **values)
    entry._state.adding, entry._state.db = False, connection.alias  # stored: a save() would be an UPDATE
    entry.register, entry.actor_user, entry.corrects = register, actor, corrects
    register.head_seq, register.head_hash = entry.seq, entry.entry_hash
    return entry


def _append(
    register: Register,
    *,
    actor: AbstractBaseUser | None,
    role: str,
    kind: str,
    payload: dict[str, Any],
    corrects: Entry | None = None,
    written: dict[str, list[int]] | None = None,
) -> Entry:
    """Append one entry to a register whose row this transaction has locked, and move its head."""
    check_payload(payload)
    values = _entry_values(
        register,
        seq=register.head_seq + 1,
        prev_hash=register.head_hash,
        actor=actor,
        role=role,
        kind=kind,
        payload=payload,
        corrects=corrects,
        written=written,
    )
    return _stored(register, values, store.append(store.row(**values)), actor=actor, corrects=corrects)


def _append_at_head(
    register: Register,
    *,
    actor: AbstractBaseUser | None,
    role: str,
    payload: dict[str, Any],
    written: dict[str, list[int]],
) -> Entry | None:
    """The usual case: the caller's view of the head is current, and one statement locks the
    register, checks that, writes the entry and moves the head (see store.append_if_head). None,
    with nothing written, when the head moved or the register is not open (or not on PostgreSQL)."""
    if register.status != Register.Status.OPEN:
        return None
    values = _entry_values(
        register,
        seq=register.head_seq + 1,
        prev_hash=register.head_hash,
        actor=actor,
        role=role,
        kind=EntryKind.RECORD,
        payload=payload,
        corrects=None,
        written=written,
    )
    entry_id = store.append_if_head(store.row(**values), status=Register.Status.OPEN)
    return None if entry_id is None else _stored(register, values, entry_id, actor=actor, corrects=None)


def _append_locked(
    register: Register,
    *,
    actor: AbstractBaseUser | None,
    role: str,
    payload: dict[str, Any],
    written: dict[str, list[int]],
) -> Entry | None:
    """Append a record entry under the register's lock; None, with nothing written, when the
    register is not open."""
    _lock_head(register)
    if register.status != Register.Status.OPEN:
        give_back_written(written)  # for the entry that a caller who goes on may still append
        return None
    return _append(register, actor=actor, role=role, kind=EntryKind.RECORD, payload=payload, written=written)


def entry_seq_next(register: Register) -> int:
    """The number the next entry of ``register`` takes, its row locked until the end of the
    transaction so that no other writer takes that number: an object that keeps its entry's number
    is saved with it before its entry is appended, and so is named by it (``written``). The caller
    appends that entry next in this register."""
    return _lock_head(register).head_seq + 1


def entry_append(*, register: Register, actor: AbstractBaseUser, role: str, payload: dict[str, Any]) -> Entry:
    """Append a record entry, in the caller's transaction. The caller has checked the actor's
    role for its own act; the register kind must accept that role as a writer. ``register``
    comes back with its new head.

    No savepoint of its own (``savepoint=False``): an entry that cannot be written takes the
    caller's change down with it, which is the point, and the usual case costs no SAVEPOINT and
    RELEASE round trips. Refusals (bad input, register not open) are raised outside the atomic
    block, so the caller's transaction stays usable after one. Outside a transaction (an act whose
    one write is its entry) the usual case is a single statement, committed on its own."""
    _require_writer(register, role)
    return _record_appended(register, actor=actor, role=role, payload=payload)


def _record_appended(
    register: Register, *, actor: AbstractBaseUser | None, role: str, payload: dict[str, Any]
) -> Entry:
    check_payload(payload)
    if connection.in_atomic_block:
        with transaction.atomic(savepoint=False):
            written = take_written()
            entry = _append_at_head(register, actor=actor, role=role, payload=payload, written=written)
            if entry is None:
                entry = _append_locked(register, actor=actor, role=role, payload=payload, written=written)
    else:
        # No transaction of the caller's: the entry is the whole act, and its one statement is a
        # transaction of its own, without BEGIN and COMMIT round trips. When the head moved, the
        # register's lock is taken in a transaction.
        entry = _append_at_head(register, actor=actor, role=role, payload=payload, written={})
        if entry is None:
            with transaction.atomic():
                entry = _append_locked(register, actor=actor, role=role, payload=payload, written={})
    if entry is None:
        _require_open(register)
    return entry


def notification_entry_append(
    *, register: Register, actor: AbstractBaseUser | None, role: str = "", payload: dict[str, Any]
) -> Entry:
    """Append the line of a notice in the register concerned, as ``entry_append`` does: the notice
    sent, its escalation, its acknowledgement. The person acknowledging is the recipient, who need
    not write in that register (the SCJ acknowledges a destruction written in the intake register),
    so the kind's writers are not required; the notifications services alone call this, each for
    its own act. Without ``actor`` (a periodic task's notice, an escalation) the line is signed
    with the system's marker (``SYSTEM_ACTOR``, role ``SYSTEM_ROLE``), hashed like a login."""
    return _record_appended(register, actor=actor, role=role, payload=payload)


def authorisation_entry_write(
    *,
    establishment: Establishment,
    actor: AbstractBaseUser | None,
    role: str,
    payload: dict[str, Any],
    own_act: bool = False,
) -> Entry:
    """Append a line to the register of authorisations here (its first volume opened if none
    exists): an act on who may act as what, by a member of the directorate, the platform's
    administrator (``ADMINISTRATOR_ROLE``), or, without ``actor``, the system (the directory, the
    command line), signed with its marker. ``own_act``: the actor's own act on a register, whose
    role the caller's service checked (the authority paraphing a printed volume), written in
    their name though they do not write in this register."""
    register = authorisations_register(establishment)
    if actor is not None and not own_act:
        _require_writer(register, role)
    return _record_appended(register, actor=actor, role=role, payload=payload)


def entry_write(
    *,
    establishment: Establishment,
    kind: str,
    actor: AbstractBaseUser,
    role: str,
    payload: dict[str, Any],
    qualifier: str = "",
) -> Entry:
    """Append a record entry to the volume of ``kind`` in service here (the ``qualifier``'s, e.g.
    a table's carnet), as ``entry_append`` does: the one way a domain writes a line of a kind."""
    register = current_register(establishment, kind, qualifier)
    return entry_append(register=register, actor=actor, role=role, payload=payload)


@transaction.atomic
def entries_bulk_append(
    *,
    register: Register,
    actor: AbstractBaseUser,
    role: str,
    payloads: Iterable[dict[str, Any]],
    batch_size: int = 2000,
) -> int:
    """Append many record entries under one lock (imports, volume seeding). Same chain, same
    gapless sequence, same transaction guarantees as ``entry_append``."""
    _require_writer(register, role)
    _lock_head(register)
    _require_open(register)
    seq, prev, batch, count = register.head_seq, register.head_hash, [], 0
    for payload in payloads:
        check_payload(payload)
        seq += 1
        values = _entry_values(
            register,
            seq=seq,
            prev_hash=prev,
            actor=actor,
            role=role,
            kind=EntryKind.RECORD,
            payload=payload,
            corrects=None,
            written=None if seq == register.head_seq + 1 else {},  # the first names the transaction's objects
        )
        prev = values["entry_hash"]
        batch.append(store.row(**values))
        if len(batch) >= batch_size:
            store.insert_many(batch)
            count += len(batch)
            batch = []
    if batch:
        store.insert_many(batch)
        count += len(batch)
    if count:
        store.move_head(register.pk, seq, prev)
        register.head_seq, register.head_hash = seq, prev
    return count


@transaction.atomic
def register_create(
    *,
    establishment: Establishment,
    kind: str,
    actor: AbstractBaseUser,
    qualifier: str = "",
    title: str = "",
) -> Register:
    """Create a register volume, awaiting the authority's cote and paraphe: no entry, for the
    volume's first entry is that opening act (``evidence.CREATION_EXEMPT``)."""
    require_role(actor, establishment, DIRECTORATE)
    return save_audited(_new_volume(establishment, kind, qualifier, title), actor=actor, reason="création")


def _new_volume(establishment: Establishment, kind: str, qualifier: str, title: str) -> Register:
    """The next volume of ``kind`` (and ``qualifier``) here, unsaved, numbered after the others
    under the establishment's lock, so that two creations cannot pick the same number."""
    info = get_kind(kind)
    if establishment.jurisdiction not in info.jurisdictions:
        raise ValueError(f"{kind!r} registers are not kept in {establishment.jurisdiction}")
    Establishment.objects.select_for_update().get(pk=establishment.pk)
    volume = Register.objects.filter(establishment=establishment, kind=kind, qualifier=qualifier).count() + 1
    suffix = f"-{qualifier.upper()}" if qualifier else ""
    number = f"{establishment.code.upper()}-{kind.upper().replace('_', '')}{suffix}-{volume:03d}"
    return Register(
        establishment=establishment,
        kind=kind,
        number=number,
        qualifier=qualifier,
        title=title or default_title(info, qualifier),
    )


def authorisations_register(establishment: Establishment) -> Register:
    """The volume of the register of authorisations in service here. The first one is opened by
    the system with the establishment's first act on its staff or its set-up (no authority cotes
    it: no text names it, and nobody yet holds a role to open it); a later volume is created and
    opened as any other, by the directorate."""
    if not Register.objects.filter(establishment=establishment, kind=AUTHORISATIONS.code).exists():
        register = _new_volume(establishment, AUTHORISATIONS.code, "", "")
        register.status = Register.Status.OPEN
        register.acts_after_visa = 1  # the opening act awaits no visa
        save_audited(register, actor=None, reason="ouverture par le système")
        with register_language():
            statement = str(
                _(
                    "Le présent registre « %(title)s », n° %(number)s, est ouvert par le système avec la "
                    "mise en place de l'établissement %(establishment)s. Objet du registre : %(purpose)s"
                )
                % {
                    "title": register.title,
                    "number": register.number,
                    "establishment": establishment.name,
                    "purpose": AUTHORISATIONS.purpose,
                }
            )
        payload = {
            "establishment": establishment.name,
            "register_title": register.title,
            "register_kind": register.kind,
            "purpose": str(AUTHORISATIONS.purpose),
            "statement": statement,
        }
        _append(register, actor=None, role=SYSTEM_ROLE, kind=EntryKind.OPENING, payload=payload)
    return current_register(establishment, AUTHORISATIONS.code)


@transaction.atomic
def registers_to_open_create(*, establishment: Establishment, actor: AbstractBaseUser) -> list[Register]:
    """Create, in one act of the directorate, every volume the house needs and has neither open nor
    awaiting its cote et paraphe (``opening.registers_to_open``); each awaits its authority's
    opening act. Nothing missing: nothing created."""
    from .opening import missing

    role = require_role(actor, establishment, DIRECTORATE)
    created = [
        register_create(
            establishment=establishment,
            kind=need.kind,
            qualifier=need.qualifier,
            actor=actor,
            # A qualifier no declared source names (a cash desk) titles the volume by its name.
            title=f"{get_kind(need.kind).title} — {need.label}" if need.label else "",
        )
        for need in missing(establishment)
    ]
    if created:
        hooks.record(
            hooks.STAFF_ACT,
            establishment=establishment,
            actor=actor,
            role=role,
            subject=_("Création des registres à ouvrir"),
            text=lambda: str(
                _("%(count)s registre(s) créé(s), en attente de cote et paraphe : %(numbers)s.")
                % {"count": len(created), "numbers": ", ".join(register.number for register in created)}
            ),
            registers=[register.number for register in created],
        )
    return created


@transaction.atomic
def register_withdraw(*, register: Register, actor: AbstractBaseUser, reason: str) -> Register:
    """Withdraw a volume created by mistake, before its opening act: it stays, "withdrawn", never
    written in, and a line of the register of authorisations says who withdrew it and why."""
    register = _locked(register)
    est = register.establishment
    role = require_role(actor, est, DIRECTORATE)
    if register.status != Register.Status.AWAITING_OPENING:
        raise impossible(
            _("Le registre %(number)s est « %(status)s » : seul un volume en attente de cote et paraphe se retire.")
            % {"number": register.number, "status": register.get_status_display()}
        )
    if not reason.strip():
        raise ValidationError({"reason": _("Le motif du retrait est obligatoire.")})
    register.status = Register.Status.WITHDRAWN
    save_audited(register, actor=actor, reason="retrait")
    hooks.record(
        hooks.STAFF_ACT,
        establishment=est,
        actor=actor,
        role=role,
        subject=_("Retrait d'un registre créé par erreur"),
        text=lambda: str(
            _("Registre %(number)s (%(title)s) retiré avant sa cote et son paraphe. Motif : %(reason)s")
            % {"number": register.number, "title": register.heading, "reason": reason.strip()}
        ),
        register=register.number,
    )
    return register


@transaction.atomic
def register_open(
    *, register: Register, actor: AbstractBaseUser, paraphe: str, statement: str = "", passkey: Any = None
) -> Entry:
    """The opening act: the paraphing authority cotes and paraphs the register (seq 1), signed
    with their passkey when they have one (``passkey``: the browser's assertion over the act)."""
    register = _locked(register)
    est = register.establishment
    info = register.kind_info
    paraphers = info.paraph_roles_for(est.jurisdiction)
    rule = info.paraph_requirement_for(est.jurisdiction, register.qualifier)
    if rule and not roles_of(actor, est) & set(paraphers):
        raise RuleViolation(
            rule,
            _("Ce registre est coté et paraphé par : %(roles)s.")
            % {"roles": ", ".join(str(est.profile.authority_names.get(r) or Role(r).label) for r in paraphers)},
        )
    role = require_role(actor, est, paraphers)
    if register.status == Register.Status.WITHDRAWN:
        raise impossible(_("Ce registre a été retiré : il ne sera jamais coté et paraphé."))
    if register.status != Register.Status.AWAITING_OPENING:
        raise RuleViolation("REG-01", _("Ce registre a déjà été coté et paraphé."))
    if (
        info.one_open_volume
        and Register.objects.filter(
            establishment=est, kind=register.kind, qualifier=register.qualifier, status=Register.Status.OPEN
        ).exists()
    ):
        raise RuleViolation(
            info.one_open_volume,
            _(
                "Un volume de ce registre est déjà ouvert pour « %(qualifier)s » : "
                "clôturez-le avant d'ouvrir le suivant."
            )
            % {"qualifier": register.qualifier or est.name},
        )
    if not paraphe.strip():
        raise RuleViolation("REG-01", _("Le paraphe de l'autorité est obligatoire."))
    name = display_name(actor)
    purpose = str(info.purpose).rstrip(".")  # follows a colon in the act: "Objet du registre : inscrire…"
    statement = statement or str(
        _(
            "Le présent registre « %(title)s », n° %(number)s, a été coté et paraphé par %(name)s, "
            "%(role)s, pour l'établissement %(establishment)s. Objet du registre : %(purpose)s."
        )
        % {
            "title": register.title,
            "number": register.number,
            "purpose": purpose[:1].lower() + purpose[1:],
            "name": name,
            "role": est.profile.authority_names.get(role) or Role(role).label,
            "establishment": est.name,
        }
    )
    payload = {
        "establishment": est.name,
        "register_title": register.title,
        "register_kind": register.kind,
        "purpose": str(info.purpose),
        "authority": name,
        "paraphe": paraphe.strip(),
        "statement": statement,
    }
    payload = signed_payload(
        actor=actor,
        register=register.number,
        kind=EntryKind.OPENING,
        payload=payload,
        passkey=passkey,
        required=passkey_required(est, role, actor),
    )
    # The volume saved open before its opening act, which names it (``written``).
    register.status = Register.Status.OPEN
    register.acts_after_visa = 1  # the opening act awaits no visa
    save_audited(register, actor=actor, reason="cote et paraphe")
    return _append(register, actor=actor, role=role, kind=EntryKind.OPENING, payload=payload)


@transaction.atomic
def register_close(*, register: Register, actor: AbstractBaseUser, statement: str = "") -> Entry:
    """The closing act: the last entry of the volume."""
    register = _locked(register)
    est = register.establishment
    role = require_role(actor, est, (*DIRECTORATE, *register.kind_info.paraph_roles_for(est.jurisdiction)))
    _require_open(register)
    payload = {
        "statement": statement
        or str(_("Arrêté et clos le présent registre à l'entrée n° %(seq)s.") % {"seq": register.head_seq + 1}),
        "signer": display_name(actor),
        "entries": register.head_seq + 1,
    }
    # The volume saved closed before its closing act, which names it (``written``).
    register.status = Register.Status.CLOSED
    save_audited(register, actor=actor, reason="clôture")
    return _append(register, actor=actor, role=role, kind=EntryKind.CLOSING, payload=payload)


@transaction.atomic
def entry_correct(
    *, entry: Entry, actor: AbstractBaseUser, reason: str, approval: str, payload: dict[str, Any]
) -> Entry:
    """A correction is a new entry pointing to the one it corrects, approved in words by an
    approver of SET-47 (the electronic form of "corrections in red ink approved in words")."""
    register = _lock_head(entry.register)
    est = register.establishment
    role = require_role(actor, est, est.setting("SET-47"))
    _require_open(register)
    if entry.kind not in (EntryKind.RECORD, EntryKind.CORRECTION):
        raise RuleViolation("REG-27", _("Seules les inscriptions peuvent être corrigées."))
    if not reason.strip() or not approval.strip():
        raise RuleViolation("REG-27", _("Une correction exige son motif et son approbation en toutes lettres."))
    body = {
        "reason": reason.strip(),
        "approval": approval.strip(),
        "approved_by": display_name(actor),
        "corrected": payload,
    }
    return _append(register, actor=actor, role=role, kind=EntryKind.CORRECTION, payload=body, corrects=entry)


@transaction.atomic
def visa_sign(
    *, register: Register, actor: AbstractBaseUser, up_to_seq: int, statement: str, passkey: Any = None
) -> Entry:
    """A visa covers every entry up to ``up_to_seq`` and carries that entry's hash. The signer
    holds a visa role for the kind and recorded nothing in the range it signs (maker ≠ checker),
    and signs with their passkey when they have one (``passkey``: the assertion over the act)."""
    _lock_head(register)
    est = register.establishment
    role = require_role(actor, est, register.kind_info.visa_roles_for(est.jurisdiction))
    _require_open(register)
    if not 1 <= up_to_seq <= register.head_seq:
        raise RuleViolation(
            "REG-04", _("Le visa doit porter sur une entrée existante (1 à %(head)s).") % {"head": register.head_seq}
        )
    entries = register.entries
    start = visaed_up_to(register) + 1
    if up_to_seq < start:
        raise RuleViolation("REG-04", _("Les entrées jusqu'au n° %(seq)s sont déjà visées.") % {"seq": start - 1})
    own = (
        entries.filter(seq__gte=start, seq__lte=up_to_seq, actor_user=actor)
        .exclude(kind__in=[EntryKind.OPENING, EntryKind.VISA])
        .order_by("seq")
        .values_list("seq", flat=True)
        .first()
    )
    if own is not None:
        raise RuleViolation(
            "REG-04",
            _(
                "Vous avez inscrit l'entrée n° %(seq)s : un visa ne peut être donné par l'auteur des "
                "entrées qu'il couvre."
            )
            % {"seq": own},
        )
    covered = entries.get(seq=up_to_seq)
    payload = {
        "covers_from": start,
        "covers_seq": up_to_seq,
        "covers_hash": covered.entry_hash,
        "statement": statement.strip() or str(_("Vu et vérifié.")),
        "signer": display_name(actor),
    }
    payload = signed_payload(
        actor=actor,
        register=register.number,
        kind=EntryKind.VISA,
        payload=payload,
        passkey=passkey,
        required=passkey_required(est, role, actor),
    )
    visa = _append(register, actor=actor, role=role, kind=EntryKind.VISA, payload=payload)
    # What awaits the next visa, kept on the register row (Register.unvisaed): the visas signed
    # after the entries they cover, this one included, are not themselves to be visaed.
    register.visaed_seq = up_to_seq
    register.acts_after_visa = entries.filter(kind=EntryKind.VISA, seq__gt=up_to_seq).count()
    Register.objects.filter(pk=register.pk).update(
        visaed_seq=register.visaed_seq, acts_after_visa=register.acts_after_visa
    )
    return visa


def visa_role_for_kind(actor: AbstractBaseUser, establishment: Establishment, kind: str) -> str:
    """The role in which ``actor`` visas every volume of ``kind`` awaiting them in one act, else
    the refusal: an authority's visa of the registers concerned may cover them together (REG-04,
    REG-22); the internal visas the FR texts name (arts. 70-1, 72, 73: a day's figures, each
    entry) are given volume by volume, by the casino roles those articles name."""
    role = require_role(actor, establishment, get_kind(kind).visa_roles_for(establishment.jurisdiction))
    if role not in REGULATOR_ROLES:
        raise RuleViolation(
            "REG-22",
            _(
                "Ce visa interne se donne registre par registre : seul le visa d'une autorité couvre "
                "ensemble les registres d'une même nature."
            ),
        )
    return role


@transaction.atomic
def visa_sign_kind(
    *,
    establishment: Establishment,
    kind: str,
    actor: AbstractBaseUser,
    up_to: dict[str, int],
    statement: str,
    passkeys: dict[str, Any] | None = None,
) -> list[Entry]:
    """The visa of every volume of ``kind`` in ``up_to`` (register number → last entry shown to
    the signer) in one act: each volume's visa is its own entry, signed as ``visa_sign`` signs it
    (with the signer's passkey over that entry, ``passkeys[number]``). A refusal of any volume
    keeps none. PasskeyRequired names the volume waiting for its passkey in ``field``."""
    visa_role_for_kind(actor, establishment, kind)
    registers = {
        r.number: r for r in establishment.registers.filter(kind=kind, number__in=list(up_to)).order_by("number")
    }
    if not up_to or set(registers) != set(up_to):
        raise ValidationError(_("Choisissez les registres à viser parmi ceux de cette nature."))
    visas = []
    for number, register in registers.items():
        try:
            visas.append(
                visa_sign(
                    register=register,
                    actor=actor,
                    up_to_seq=up_to[number],
                    statement=statement,
                    passkey=(passkeys or {}).get(number),
                )
            )
        except PasskeyRequired as exc:
            raise PasskeyRequired(exc.options, field=number) from exc
    return visas


def main_courante_record(
    *, register: Register, actor: AbstractBaseUser, event_at: str, subject: str, text: str
) -> Entry:
    """A fact written in the main courante by the directorate, an inspecteur or a chef de partie.
    ``event_at`` is when it happened (local time, "AAAA-MM-JJ HH:MM"); the entry's own time is
    the server's (REG-20). Its one write is the entry: outside a caller's transaction that is one
    statement, committed on its own (``entry_append``)."""
    if register.kind != MAIN_COURANTE.code:
        raise ValueError(f"{register.number} is not a main courante")
    role = require_role(actor, register.establishment, MAIN_COURANTE.record_roles)
    try:
        datetime.strptime(event_at, EVENT_AT_FORMAT)
    except ValueError as exc:
        raise ValidationError({"event_at": _("Date et heure attendues au format AAAA-MM-JJ HH:MM.")}) from exc
    if not subject.strip() or not text.strip():
        raise ValidationError(_("L'objet et la relation des faits sont obligatoires."))
    payload = {"event_at": event_at, "subject": subject.strip(), "text": text.strip()}
    return entry_append(register=register, actor=actor, role=role, payload=payload)


def checkpoints_seal(*, registers: QuerySet[Register] | None = None, full: bool = False) -> list[Checkpoint | Finding]:
    """Seal a checkpoint of every register (of ``registers``, default all) whose head moved past
    its last checkpoint: the seq and hash of its last entry, signed with the Ed25519 key of
    ``LEDGERS_SIGNING_KEY`` (signing.py). A system act (the daily beat task, or ``seal_checkpoints``), one
    transaction per register. Each register is verified first, in the snapshot the checkpoint is
    taken from: a checkpoint never seals a chain that does not verify, which is returned as its
    Finding instead. The verification starts at the last checkpoint (whose signature covers what
    precedes it), or at the opening act with ``full``."""
    signing_key()  # refuse before verifying anything when this process cannot sign
    moved = (
        (Register.objects.all() if registers is None else registers)
        .annotate(sealed=Coalesce(Max("checkpoints__seq"), 0))
        .filter(head_seq__gt=F("sealed"))
        .order_by("number")
    )
    return [_checkpoint_seal(register, full=full) for register in moved]


def _checkpoint_seal(register: Register, *, full: bool) -> Checkpoint | Finding:
    with snapshot(read_only=False):
        finding = verify_in_snapshot(register, since_checkpoint=not full)
        if finding is not None:
            return finding
        seq, digest = Entry.objects.filter(register=register).order_by("-seq").values_list("seq", "entry_hash")[0]
        fields = {"seq": seq, "entry_hash": digest, "created_at": timezone.now()}
        key_id, signature = sign(checkpoint_bytes(register=register.number, **fields))
        checkpoint = Checkpoint(register=register, key_id=key_id, signature=signature, **fields)
        # Two runs at once seal the same seq twice: the second one is a no-op.
        Checkpoint.objects.bulk_create([checkpoint], ignore_conflicts=True)
        trees.extend(register, seq)  # the register's Merkle tree, for proofs of logarithmic size
        return checkpoint
