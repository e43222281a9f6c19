"""Writes to registers. Domain services call ``entry_append`` inside their own transaction, so a
regulated object never changes without its entry, and no entry exists without its change."""

from collections.abc import Iterable
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from ledgers.core.authz import require_role, save_audited
from ledgers.core.errors import RuleViolation
from ledgers.core.models import Establishment
from ledgers.core.roles import Role

from .chain import check_payload, entry_hash, format_timestamp
from .kinds import DIRECTORATE, get_kind
from .models import Entry, EntryKind, Register


def display_name(user: AbstractBaseUser) -> str:
    return user.get_full_name() or user.get_username()


def _locked(register: Register) -> Register:
    return Register.objects.select_for_update().get(pk=register.pk)


def _build(
    register: Register, *, seq: int, prev_hash: str, actor: AbstractBaseUser, role: str, kind: str,
    payload: dict[str, Any], corrects: Entry | None, recorded_at=None,
) -> Entry:
    check_payload(payload)
    entry = Entry(
        register=register,
        seq=seq,
        recorded_at=recorded_at or timezone.now(),
        actor_user=actor,
        actor=actor.get_username(),
        role=str(role),
        kind=str(kind),
        payload=payload,
        corrects=corrects,
        prev_hash=prev_hash,
    )
    entry.entry_hash = entry_hash(
        register=register.number,
        seq=seq,
        recorded_at=format_timestamp(entry.recorded_at),
        actor=entry.actor,
        role=entry.role,
        kind=entry.kind,
        payload=payload,
        corrects=corrects.seq if corrects else None,
        prev_hash=prev_hash,
    )
    return entry


def _move_head(register: Register, entry: Entry, **extra: Any) -> None:
    # A queryset update: the head is a cache of the chain, not a change worth a history row.
    Register.objects.filter(pk=register.pk).update(head_seq=entry.seq, head_hash=entry.entry_hash, **extra)
    register.head_seq, register.head_hash = entry.seq, entry.entry_hash
    for field, value in extra.items():
        setattr(register, field, value)


def _require_open(register: Register) -> None:
    if register.status == Register.Status.AWAITING_OPENING:
        raise RuleViolation(
            "REG-01", _("Le registre %(number)s n'a pas encore été coté et paraphé : aucune inscription possible.")
            % {"number": register.number},
        )
    if register.status == Register.Status.CLOSED:
        raise RuleViolation(
            "REG-20", _("Le registre %(number)s est clos : aucune inscription possible.") % {"number": register.number}
        )


def _append(
    register: Register, *, actor: AbstractBaseUser, role: str, kind: str, payload: dict[str, Any],
    corrects: Entry | None = None, **head_extra: Any,
) -> Entry:
    entry = _build(
        register, seq=register.head_seq + 1, prev_hash=register.head_hash, actor=actor, role=role, kind=kind,
        payload=payload, corrects=corrects,
    )
    entry.save(force_insert=True)
    _move_head(register, entry, **head_extra)
    return entry


@transaction.atomic
def entry_append(
    *, register: Register, actor: AbstractBaseUser, role: str, payload: dict[str, Any]
) -> Entry:
    """Append a record entry. The caller has checked the actor's role for its own act; the
    register kind must accept that role as a writer."""
    register = _locked(register)
    _require_open(register)
    if role not in register.kind_info.record_roles:
        raise ValueError(f"role {role!r} does not write in {register.kind!r} registers")
    return _append(register, actor=actor, role=role, kind=EntryKind.RECORD, payload=payload)


@transaction.atomic
def entries_bulk_append(
    *, register: Register, actor: AbstractBaseUser, role: str, payloads: Iterable[dict[str, Any]],
    batch_size: int = 2000,
) -> int:
    """Append many record entries under one lock (imports, volume seeding). Same chain, same
    gapless sequence, same transaction guarantees as ``entry_append``."""
    register = _locked(register)
    _require_open(register)
    if role not in register.kind_info.record_roles:
        raise ValueError(f"role {role!r} does not write in {register.kind!r} registers")
    seq, prev, batch, count, last = register.head_seq, register.head_hash, [], 0, None
    for payload in payloads:
        seq += 1
        last = _build(register, seq=seq, prev_hash=prev, actor=actor, role=role, kind=EntryKind.RECORD,
                      payload=payload, corrects=None)
        prev = last.entry_hash
        batch.append(last)
        if len(batch) >= batch_size:
            Entry.objects.bulk_create(batch)
            count += len(batch)
            batch = []
    if batch:
        Entry.objects.bulk_create(batch)
        count += len(batch)
    if last is not None:
        _move_head(register, last)
    return count


@transaction.atomic
def register_create(
    *, establishment: Establishment, kind: str, actor: AbstractBaseUser, qualifier: str = "",
    title: str = "",
) -> Register:
    """Create a register volume, awaiting the authority's cote and paraphe."""
    info = get_kind(kind)
    require_role(actor, establishment, DIRECTORATE)
    if establishment.jurisdiction not in info.jurisdictions:
        raise ValueError(f"{kind!r} registers are not kept in {establishment.jurisdiction}")
    same = Register.objects.select_for_update().filter(establishment=establishment, kind=kind)
    volume = same.count() + 1
    suffix = f"-{qualifier.upper()}" if qualifier else ""
    number = f"{establishment.code.upper()}-{kind.upper().replace('_', '')}{suffix}-{volume:03d}"
    base_title = str(info.title) + (f" — {qualifier}" if qualifier else "")
    register = Register(
        establishment=establishment, kind=kind, number=number, qualifier=qualifier, title=title or base_title
    )
    return save_audited(register, actor=actor, reason="création")


@transaction.atomic
def register_open(*, register: Register, actor: AbstractBaseUser, paraphe: str, statement: str = "") -> Entry:
    """The opening act: the paraphing authority cotes and paraphs the register (seq 1)."""
    register = _locked(register)
    est = register.establishment
    info = register.kind_info
    role = require_role(actor, est, info.paraph_roles_for(est.jurisdiction))
    if register.status != Register.Status.AWAITING_OPENING:
        raise RuleViolation("REG-01", _("Ce registre a déjà été coté et paraphé."))
    if not paraphe.strip():
        raise RuleViolation("REG-01", _("Le paraphe de l'autorité est obligatoire."))
    name = display_name(actor)
    statement = statement or str(
        _(
            "Le présent registre « %(title)s », n° %(number)s, destiné à %(purpose)s, a été coté et paraphé "
            "par %(name)s, %(role)s, pour servir à %(establishment)s."
        )
        % {
            "title": register.title,
            "number": register.number,
            "purpose": str(info.purpose).rstrip(".").lower(),
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
    entry = _append(register, actor=actor, role=role, kind=EntryKind.OPENING, payload=payload,
                    status=Register.Status.OPEN)
    save_audited(register, actor=actor, reason="cote et paraphe")
    return entry


@transaction.atomic
def register_close(*, register: Register, actor: AbstractBaseUser, statement: str = "") -> Entry:
    """The closing act: the last entry of the volume."""
    register = _locked(register)
    est = register.establishment
    role = require_role(actor, est, (*DIRECTORATE, *register.kind_info.paraph_roles_for(est.jurisdiction)))
    _require_open(register)
    payload = {
        "statement": statement or str(
            _("Arrêté et clos le présent registre à l'entrée n° %(seq)s.") % {"seq": register.head_seq + 1}
        ),
        "signer": display_name(actor),
        "entries": register.head_seq + 1,
    }
    entry = _append(register, actor=actor, role=role, kind=EntryKind.CLOSING, payload=payload,
                    status=Register.Status.CLOSED)
    save_audited(register, actor=actor, reason="clôture")
    return entry


@transaction.atomic
def entry_correct(
    *, entry: Entry, actor: AbstractBaseUser, reason: str, approval: str, payload: dict[str, Any]
) -> Entry:
    """A correction is a new entry pointing to the one it corrects, approved in words by an
    approver of SET-47 (the electronic form of "corrections in red ink approved in words")."""
    register = _locked(entry.register)
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
def visa_sign(*, register: Register, actor: AbstractBaseUser, up_to_seq: int, statement: str) -> Entry:
    """A visa covers every entry up to ``up_to_seq`` and carries that entry's hash. The signer
    holds a visa role for the kind and recorded nothing in the range it signs (maker ≠ checker)."""
    register = _locked(register)
    est = register.establishment
    role = require_role(actor, est, register.kind_info.visa_roles_for(est.jurisdiction))
    _require_open(register)
    if not 1 <= up_to_seq <= register.head_seq:
        raise RuleViolation("REG-04", _("Le visa doit porter sur une entrée existante (1 à %(head)s).")
                            % {"head": register.head_seq})
    entries = register.entries
    previous = entries.filter(kind=EntryKind.VISA).order_by("-seq").values_list("payload", flat=True).first()
    start = previous["covers_seq"] + 1 if previous else 1
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
            "REG-04", _("Vous avez inscrit l'entrée n° %(seq)s : un visa ne peut être donné par l'auteur des "
                        "entrées qu'il couvre.") % {"seq": own},
        )
    covered = entries.get(seq=up_to_seq)
    payload = {
        "covers_from": start,
        "covers_seq": up_to_seq,
        "covers_hash": covered.entry_hash,
        "statement": statement.strip() or str(_("Vu et vérifié.")),
        "signer": display_name(actor),
    }
    return _append(register, actor=actor, role=role, kind=EntryKind.VISA, payload=payload)
