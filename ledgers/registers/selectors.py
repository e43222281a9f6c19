"""Reads on registers: scoping, keyset pages of entries, what waits for whom, the registers'
commands."""

import functools
from collections import defaultdict
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import datetime
from typing import Any, NamedTuple

from django.contrib.auth.models import AbstractBaseUser
from django.db import DEFAULT_DB_ALIAS
from django.db.models import Case, Count, DateTimeField, F, OuterRef, Prefetch, QuerySet, Subquery, When
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy as _

from ledgers.core.authz import roles_of
from ledgers.core.dashboard import read_once
from ledgers.core.errors import RuleViolation
from ledgers.core.models import Establishment, Membership
from ledgers.core.prepared import Bound, Prepared
from ledgers.core.selectors import establishments_for

from .kinds import DIRECTORATE, MAIN_COURANTE, all_kinds, get_kind, qualifier_label
from .models import Entry, EntryKind, Register

PAGE_SIZE = 50


def open_registers(establishment: Establishment, kind: str, **lookups: Any) -> QuerySet[Register]:
    # The lookups in the same filter() (a qualifier): every line a domain writes asks for its volume.
    return Register.objects.filter(establishment=establishment, kind=kind, status=Register.Status.OPEN, **lookups)


_remembered: ContextVar[dict[tuple[int, str, str], Register] | None] = ContextVar("registers_remembered", default=None)


@contextmanager
def registers_remembered() -> Iterator[None]:
    """Within the block, ``current_register`` reads the volume in service of a kind (and qualifier)
    once: for a run of thousands of acts that open and close few volumes (the demo's seed). Saving
    any register (its creation, opening, closing, withdrawal) forgets them all (``registers_forget``).
    A volume is remembered across the acts' transactions, so the block must end with the first
    error: one caught inside it could have rolled back an opening that is still remembered."""
    token = _remembered.set({})
    try:
        yield
    finally:
        _remembered.reset(token)


def registers_forget(**_kwargs: Any) -> None:
    """Receiver of every save of a register: which volume is in service may have changed."""
    remembered = _remembered.get()
    if remembered:
        remembered.clear()


def current_register(establishment: Establishment, kind: str, qualifier: str = "") -> Register:
    """The open volume of a register kind (and qualifier) where entries go now.

    Refused when there is none: entries may only go into a volume the authority has coted and
    paraphed (REG-01 / REG-26), so nothing can be recorded "on loose sheets"."""
    remembered = _remembered.get()
    if remembered is not None and (register := remembered.get((establishment.pk, kind, qualifier))) is not None:
        return register
    register = open_registers(establishment, kind, qualifier=qualifier).order_by("-created_at").first()
    if register is None:
        info = get_kind(kind)
        code, article = info.missing_rule(establishment.jurisdiction)
        raise RuleViolation(
            code,
            _(
                "Aucun registre « %(title)s »%(qualifier)s ouvert (coté et paraphé) dans cet établissement : "
                "voyez les registres à ouvrir."
            )
            % {"title": info.title, "qualifier": f" — {qualifier_label(qualifier)}" if qualifier else ""},
            article=article,
        )
    if remembered is not None:
        remembered[establishment.pk, kind, qualifier] = register
    return register


def registers_visible_to(user: AbstractBaseUser) -> QuerySet[Register]:
    """Every register of the user's establishments: staff and regulators (REG-04, REG-22) read
    them at any time."""
    return Register.objects.filter(establishment__in=establishments_for(user))


def register_for(user: AbstractBaseUser, number: str) -> Register:
    """The register ``number`` if the user may read it, else 404."""
    return get_object_or_404(registers_visible_to(user).select_related("establishment"), number=number)


def opening_role(register: Register) -> str | None:
    """The role in which the register's volume was coted and paraphed (None before its opening)."""
    return register.entries.filter(kind=EntryKind.OPENING).values_list("role", flat=True).first()


def entry_for(register: Register, seq: int) -> Entry:
    entries = register.entries.select_related("actor_user").annotate(corrects_seq=F("corrects__seq"))
    return get_object_or_404(entries, seq=seq)


@dataclass(frozen=True)
class EntryPage:
    entries: list[Entry]
    has_previous: bool
    has_next: bool

    @property
    def first_seq(self) -> int | None:
        return self.entries[0].seq if self.entries else None

    @property
    def last_seq(self) -> int | None:
        return self.entries[-1].seq if self.entries else None


def entry_page(
    register: Register, *, after: int | None = None, before: int | None = None, size: int = PAGE_SIZE
) -> EntryPage:
    """A page of entries by keyset on ``seq`` (never OFFSET: a register may hold millions of
    entries). ``before`` wins over ``after``; neither: the first page."""
    entries = (
        register.entries.annotate(corrects_seq=F("corrects__seq"))
        .select_related("actor_user")
        .prefetch_related(Prefetch("corrections", queryset=Entry.objects.only("seq", "corrects_id").order_by("seq")))
    )
    if before is not None:
        rows = list(entries.filter(seq__lt=before).order_by("-seq")[:size])[::-1]
    else:
        rows = list(entries.filter(seq__gt=after or 0).order_by("seq")[:size])
    # Sequence numbers are gapless from 1 to head_seq, so the bounds tell what lies beyond.
    return EntryPage(
        entries=rows,
        has_previous=bool(rows) and rows[0].seq > 1,
        has_next=bool(rows) and rows[-1].seq < register.head_seq,
    )


def visaed_up_to(register: Register) -> int:
    """The last seq covered by a visa (0: none)."""
    payload = register.entries.filter(kind=EntryKind.VISA).order_by("-seq").values_list("payload", flat=True).first()
    return payload["covers_seq"] if payload else 0


def covering_visa(entry: Entry) -> Entry | None:
    """The first visa whose range includes ``entry``."""
    visas = entry.register.entries.filter(kind=EntryKind.VISA, seq__gt=entry.seq).order_by("seq")
    for visa in visas.iterator():
        if visa.payload["covers_from"] <= entry.seq <= visa.payload["covers_seq"]:
            return visa
    return None


@dataclass(frozen=True)
class ActRule:
    """Who may do an act on a register, in which state, and the catalogue row that says so."""

    roles: frozenset[str]
    status: str
    requirement: str = ""


def act_rules(register: Register) -> dict[str, ActRule]:
    """The acts on this register and their rules: the roles the services require (``require_role``)."""
    est = register.establishment
    info = register.kind_info
    paraphers = frozenset(info.paraph_roles_for(est.jurisdiction))
    opened = Register.Status.OPEN
    rules = {
        "open": ActRule(
            paraphers,
            Register.Status.AWAITING_OPENING,
            info.paraph_requirement_for(est.jurisdiction, register.qualifier) or "REG-01",
        ),
        "visa": ActRule(frozenset(info.visa_roles_for(est.jurisdiction)), opened, "REG-04"),
        "correct": ActRule(frozenset(est.setting("SET-47") or ()), opened, "REG-27"),
        "close": ActRule(frozenset(DIRECTORATE) | paraphers, opened),
        "withdraw": ActRule(frozenset(DIRECTORATE), Register.Status.AWAITING_OPENING),
    }
    if info.code == MAIN_COURANTE.code:
        rules["record"] = ActRule(frozenset(info.record_roles), opened)
    return rules


def register_actions(user: AbstractBaseUser, register: Register) -> set[str]:
    """Which acts the user's roles allow on this register now (the services decide in the end)."""
    held = roles_of(user, register.establishment)
    return {act for act, rule in act_rules(register).items() if register.status == rule.status and held & rule.roles}


def can_create_registers(user: AbstractBaseUser, establishment: Establishment) -> bool:
    return bool(roles_of(user, establishment) & set(DIRECTORATE))


def with_waiting(registers: QuerySet[Register]) -> QuerySet[Register]:
    """``registers`` annotated with ``to_visa`` (entries not yet visaed, read from the counters the
    visas keep) and ``waiting_since`` (the volume's creation while it awaits its cote et paraphe,
    else the time of its oldest entry not yet visaed), in the same query whatever the registers
    hold: the oldest entry is the first after ``visaed_seq`` along the (register, seq) index that
    is neither the opening act nor a visa."""
    oldest = (
        Entry.objects.filter(register=OuterRef("pk"), seq__gt=OuterRef("visaed_seq"))
        .exclude(kind__in=(EntryKind.OPENING, EntryKind.VISA))
        .order_by("seq")
        .values("recorded_at")[:1]
    )
    return registers.annotate(
        to_visa=F("head_seq") - F("visaed_seq") - F("acts_after_visa"),
        waiting_since=Case(
            When(status=Register.Status.AWAITING_OPENING, then=F("created_at")),
            default=Subquery(oldest),
            output_field=DateTimeField(),
        ),
    )


def live_registers(establishment: Establishment) -> list[Register]:
    """The volumes open or awaiting their cote et paraphe, awaiting first, then by creation, each
    with how long it waits for its authority (``with_waiting``): read once for the home,
    whose registers to open, main courante and registers awaiting the authority all read them."""

    def read() -> list[Register]:
        live = _live().read(house=establishment.pk)
        for register in live:  # as the house's ``registers`` would give them: the checks read it
            register.establishment = establishment
        return live

    return read_once(("registers.live", establishment.pk), read)


@functools.cache
def _live() -> Prepared[Register]:
    """The live volumes of a house (``Bound`` "house") as ``live_registers`` reads them, compiled
    once: they name no house, and compiling their subquery for every read costs more than running it."""
    live = Register.objects.filter(status__in=(Register.Status.OPEN, Register.Status.AWAITING_OPENING))
    return Prepared(with_waiting(live).order_by("status", "created_at").filter(establishment=Bound("house")))


def registers_awaiting_authority(user: AbstractBaseUser, establishment: Establishment) -> list[Register]:
    """Registers awaiting one of the user's acts here: a volume to cote and paraph, or an open one
    with entries to visa, each with ``to_visa`` and ``waiting_since`` (``with_waiting``), oldest
    first. Read among the live volumes (``live_registers``), which the home reads once."""
    held = roles_of(user, establishment)
    jurisdiction = establishment.jurisdiction
    kinds = [kind for kind in all_kinds() if jurisdiction in kind.jurisdictions]
    to_open = {kind.code for kind in kinds if held & set(kind.paraph_roles_for(jurisdiction))}
    to_visa = {kind.code for kind in kinds if held & set(kind.visa_roles_for(jurisdiction))}
    waiting = [
        register
        for register in live_registers(establishment)
        if (register.status == Register.Status.AWAITING_OPENING and register.kind in to_open)
        or (register.status == Register.Status.OPEN and register.kind in to_visa and register.to_visa > 0)
    ]
    # As the database orders them: a volume with no wait known last.
    return sorted(waiting, key=lambda r: (r.waiting_since is None, r.waiting_since or r.created_at, r.number))


def recent_entries_by(
    user: AbstractBaseUser | Bound, establishment: Establishment | Bound, limit: int = 10
) -> QuerySet[Entry]:
    return (
        Entry.objects.filter(actor_user=user, register__establishment=establishment)
        .select_related("register")
        .order_by("-recorded_at", "-pk")[:limit]
    )


def registers_with_counts(*, establishment_code: str | None = None) -> QuerySet[Register]:
    """Registers in number order, each annotated with ``entry_count`` (entries actually stored)."""
    registers = Register.objects.annotate(entry_count=Count("entries")).order_by("number")
    if establishment_code is not None:
        registers = registers.filter(establishment__code=establishment_code)
    return registers


def registers_named(numbers: Sequence[str], using: str = DEFAULT_DB_ALIAS) -> tuple[list[Register], list[str]]:
    """The registers with these numbers, in the order given, and the numbers that match none."""
    found = Register.objects.using(using).select_related("establishment").in_bulk(numbers, field_name="number")
    return [found[n] for n in numbers if n in found], [n for n in numbers if n not in found]


def record_actor(register: Register) -> tuple[AbstractBaseUser, str] | None:
    """A user who may record in this register (a record role of its kind, in its establishment),
    with that role; the kind's first roles are preferred."""
    roles = list(register.kind_info.record_roles)
    memberships = Membership.objects.filter(
        establishment_id=register.establishment_id, role__in=roles, user__is_active=True
    )
    best = min(memberships.select_related("user"), key=lambda m: (roles.index(m.role), m.user_id), default=None)
    return (best.user, best.role) if best is not None else None


# What a printed row needs, and nothing more.
PRINT_FIELDS = (
    "seq",
    "recorded_at",
    "actor",
    "actor_user__first_name",
    "actor_user__last_name",
    "role",
    "kind",
    "payload",
    "corrects__seq",
    "entry_hash",
)


class PrintedEntry(NamedTuple):  # a tuple: cheap to build by the thousand
    seq: int
    recorded_at: datetime
    actor: str  # full name when known, else the username recorded in the chain
    role: str
    kind: str
    payload: dict
    corrects: int | None
    entry_hash: str
    corrected_by: tuple[int, ...]  # seqs of the corrections that point to this entry


def entries_for_print(
    register: Register,
    *,
    upto: int,
    first: int = 1,
    since: datetime | None = None,
    until: datetime | None = None,
    page_size: int = 1000,
) -> Iterator[PrintedEntry]:
    """Entries ``first``..``upto`` in seq order (optionally only those recorded in [since,
    until)), each with the corrections up to ``upto`` that point to it. Read page by page of
    consecutive seqs along the (register, seq) index, as ``verification.scan`` does: never an
    OFFSET, never the whole register in memory."""
    entries = Entry.objects.filter(register=register)
    if since is not None:
        entries = entries.filter(recorded_at__gte=since)
    if until is not None:
        entries = entries.filter(recorded_at__lt=until)
    rows = entries.order_by("seq").values_list(*PRINT_FIELDS)
    # Found from the corrected entries' side: the (register, seq) index narrows them to the page
    # and the index on ``corrects`` finds their corrections (filtering on the correcting entry's
    # register instead makes PostgreSQL scan the whole register for every page).
    corrections = Entry.objects.filter(corrects__register=register, seq__lte=upto).order_by("seq")
    for start in range(first, upto + 1, page_size):
        stop = min(start + page_size, upto + 1)
        corrected_by = defaultdict(list)
        for corrected, seq in corrections.filter(corrects__seq__gte=start, corrects__seq__lt=stop).values_list(
            "corrects__seq", "seq"
        ):
            corrected_by[corrected].append(seq)
        for seq, recorded_at, actor, first_name, last_name, role, kind, payload, corrects, entry_hash in rows.filter(
            seq__gte=start, seq__lt=stop
        ):
            name = f"{first_name} {last_name}".strip() if first_name or last_name else actor
            yield PrintedEntry(
                seq, recorded_at, name, role, kind, payload, corrects, entry_hash, tuple(corrected_by.get(seq, ()))
            )
