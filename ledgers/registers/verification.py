"""Verification of registers: recompute every hash, link, sequence number and visa, and hold the
chain to its sealed checkpoints and to earlier exports.

A register verifies in one database snapshot (REPEATABLE READ on PostgreSQL when called outside
a transaction), so one that is being written to verifies as it stood when verification began
instead of reporting the entries appended meanwhile. Memory stays flat whatever the size: entries
are streamed and only the hashes that visas cover are kept.
"""

import hashlib
import json
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from django.db import connection, transaction
from django.db.models import Max
from django.utils.translation import gettext_lazy as _

from .chain import GENESIS_HASH, canonical_bytes, format_timestamp
from .checkpoints import checkpoint_bytes, checkpoint_key, mac_valid
from .models import Checkpoint, Entry, EntryKind, Register, TreeHead
from .signing import signature_valid

SCAN_FIELDS = ("seq", "recorded_at", "actor", "role", "kind", "payload", "corrects__seq", "prev_hash", "entry_hash")
ROW_KEYS = tuple(name.removesuffix("__seq") for name in SCAN_FIELDS)


@dataclass(frozen=True)
class Finding:
    """The first problem of a register: where (seq) and what (a stable ``code`` and a reason)."""

    register: str
    seq: int | None
    code: str
    reason: str

    def __str__(self) -> str:
        where = f" n° {self.seq}" if self.seq is not None else ""
        return f"{self.register}{where} : {self.reason}"


def scan(register: Register, page_size: int = 2000) -> Iterator[dict]:
    """Entries of a register in seq order, as the dicts that are hashed (+ entry_hash).

    Read in pages of consecutive seqs along the (register, seq) index rather than through one
    server-side cursor: memory stays flat whatever the size, also behind a transaction-pooling
    proxy, and each page is a bounded range whatever the planner's statistics say (LIMIT with
    stale statistics can sort everything that follows). Inside ``snapshot()`` the pages are one
    consistent view."""
    entries = Entry.objects.filter(register=register)
    last = entries.aggregate(last=Max("seq"))["last"] or 0
    rows = entries.order_by("seq").values_list(*SCAN_FIELDS)
    for start in range(1, last + 1, page_size):
        for values in rows.filter(seq__gte=start, seq__lt=start + page_size):
            yield _row(register.number, values)


def _row(number: str, values: tuple) -> dict:
    row = dict(zip(ROW_KEYS, values, strict=True), register=number)
    row["recorded_at"] = format_timestamp(row["recorded_at"])
    return row


def scan_range(register: Register, first: int, last: int) -> list[dict]:
    """Entries ``first``…``last`` of a register as scan() gives them (one bounded read)."""
    rows = Entry.objects.filter(register=register, seq__gte=first, seq__lte=last).order_by("seq")
    return [_row(register.number, values) for values in rows.values_list(*SCAN_FIELDS)]


@contextmanager
def snapshot(*, read_only: bool = True) -> Iterator[None]:
    """One consistent view of the database for a multi-query read (and, with ``read_only``
    False, the writes that depend on it).

    Inside a caller's transaction the caller decides what is seen; otherwise open a REPEATABLE
    READ transaction (PostgreSQL) or a plain one (SQLite reads in one snapshot)."""
    if connection.in_atomic_block:
        yield
        return
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                mode = ", READ ONLY" if read_only else ""
                cursor.execute(f"SET TRANSACTION ISOLATION LEVEL REPEATABLE READ{mode}")
        yield


def verify_register(register: Register, anchors: dict[int, tuple[str, str]] | None = None) -> Finding | None:
    """Return the first problem found, or None when the register verifies (``anchors``: see
    ``verify_in_snapshot``)."""
    with snapshot():
        return verify_in_snapshot(register, anchors)


def _sealed(register: Register, finding) -> dict[int, tuple[str, str]] | Finding:
    """The register's checkpoints as {seq: (hash, local date)}, or the first one whose seal does
    not verify under the key (forged, or written by something that does not hold the key)."""
    rows = (
        Checkpoint.objects.filter(register=register)
        .order_by("seq")
        .values_list("seq", "entry_hash", "created_at", "mac", "key_id", "signature")
    )
    sealed, key = {}, None
    for seq, digest, created_at, mac, key_id, signature in rows:
        fields = {"register": register.number, "seq": seq, "entry_hash": digest, "created_at": created_at}
        if key_id:
            valid = signature_valid(key_id, signature, checkpoint_bytes(**fields))
        else:  # sealed before signatures: an HMAC
            key = key or checkpoint_key()
            valid = mac_valid(key, mac, **fields)
        if not valid:
            return finding(
                seq,
                "checkpoint_mac",
                _("le point de contrôle du n° %(seq)s n'a pas de sceau valide (faux ou autre clé)") % {"seq": seq},
            )
        sealed[seq] = (digest, format_timestamp(created_at))
    return sealed


def tree_head_anchor(register: Register) -> dict[int, tuple[str, str]]:
    """{seq: (hash, time)} of the register in its establishment's newest tree head: the head it
    had then stays held even if its checkpoint rows are deleted (the tree heads' own signatures
    and chain are checked by treeheads.verify_tree_heads)."""
    newest = (
        TreeHead.objects.filter(establishment_id=register.establishment_id)
        .order_by("-number")
        .values_list("leaves", "created_at")
        .first()
    )
    if newest is None or register.number not in newest[0]:
        return {}
    seq, digest = newest[0][register.number]
    return {seq: (digest, format_timestamp(newest[1]))}


def verify_in_snapshot(register: Register, anchors: dict[int, tuple[str, str]] | None = None) -> Finding | None:
    """``verify_register`` in the caller's snapshot (the sealing of checkpoints verifies first).
    ``anchors``: more {seq: (hash, time)} the chain must hold, as sealed checkpoints (a tree head
    that left the building); the newest tree head's are always added."""
    number = register.number

    def finding(seq: int | None, code: str, reason) -> Finding:
        return Finding(number, seq, code, str(reason))

    head_seq, head_hash = Register.objects.filter(pk=register.pk).values_list("head_seq", "head_hash").get()
    sealed = _sealed(register, finding)
    if isinstance(sealed, Finding):
        return sealed
    for seq, anchor in {**tree_head_anchor(register), **(anchors or {})}.items():
        if sealed.setdefault(seq, anchor)[0] != anchor[0]:
            return finding(seq, "checkpoint_hash", _("le point de contrôle scellé diffère de la tête d'arbre signée"))
    entries = Entry.objects.filter(register=register)
    # The seqs that visas cover: the only hashes worth keeping while the chain streams by.
    covered = entries.filter(kind=EntryKind.VISA).values_list("payload__covers_seq", flat=True)
    wanted = {seq for seq in covered if type(seq) is int}
    kept: dict[int, str] = {}
    expected_seq, prev, visaed, closing = 1, GENESIS_HASH, 0, None
    for row in scan(register):
        seq = row["seq"]
        if seq != expected_seq:
            return finding(
                expected_seq,
                "missing",
                _("entrée manquante (l'entrée suivante conservée est le n° %(next)s)") % {"next": seq},
            )
        if row["prev_hash"] != prev:
            return finding(seq, "prev_hash", _("l'empreinte précédente ne correspond pas à l'entrée précédente"))
        stored = row.pop("entry_hash")
        computed = hashlib.sha256(canonical_bytes(**row)).hexdigest()
        if computed != stored:
            return finding(seq, "entry_hash", _("l'empreinte ne correspond pas au contenu de l'entrée"))
        if seq in sealed and sealed[seq][0] != computed:
            # Re-hashed consistently from some earlier entry on: only the sealed copy shows it.
            return finding(
                seq,
                "checkpoint_hash",
                _("l'entrée ne correspond plus au point de contrôle scellé le %(date)s") % {"date": sealed[seq][1]},
            )
        kind = row["kind"]
        if seq == 1 and kind != EntryKind.OPENING:
            return finding(seq, "opening", _("la première entrée n'est pas l'acte d'ouverture"))
        if closing is not None:
            return finding(
                seq, "after_closing", _("entrée postérieure à l'acte de clôture (n° %(seq)s)") % {"seq": closing}
            )
        if row["corrects"] is not None and not 1 <= row["corrects"] < seq:
            return finding(seq, "corrects", _("la correction désigne une entrée hors des entrées précédentes"))
        if kind == EntryKind.VISA:
            payload = row["payload"] if isinstance(row["payload"], dict) else {}
            covers, start = payload.get("covers_seq"), payload.get("covers_from")
            if type(covers) is not int or not 1 <= covers < seq:
                return finding(seq, "visa_range", _("le visa ne porte sur aucune entrée précédente"))
            if start != visaed + 1 or covers < start:
                return finding(
                    seq,
                    "visa_range",
                    _("la plage du visa ne suit pas le visa précédent (attendu : à partir du n° %(start)s)")
                    % {"start": visaed + 1},
                )
            if kept.get(covers) != payload.get("covers_hash"):
                return finding(
                    seq, "visa_hash", _("l'empreinte visée ne correspond plus à l'entrée n° %(seq)s") % {"seq": covers}
                )
            visaed = covers
        elif kind == EntryKind.CLOSING:
            closing = seq
        if seq in wanted:
            kept[seq] = computed
        prev, expected_seq = computed, seq + 1
    last_seq = expected_seq - 1
    beyond = [seq for seq in sealed if seq > last_seq]
    if beyond:
        # Entries removed from the end, the head moved back with them.
        return finding(
            last_seq + 1,
            "checkpoint_missing",
            _("la chaîne s'arrête au n° %(last)s mais un point de contrôle scellé le %(date)s porte sur le n° %(seq)s")
            % {"last": last_seq, "seq": max(beyond), "date": sealed[max(beyond)][1]},
        )
    if last_seq != head_seq:
        return finding(
            min(last_seq, head_seq) + 1,
            "head_seq",
            _("la tête du registre est le n° %(head)s mais la chaîne s'arrête au n° %(last)s")
            % {"head": head_seq, "last": last_seq},
        )
    if prev != head_hash:
        return finding(
            last_seq, "head_hash", _("l'empreinte de tête du registre ne correspond pas à la dernière entrée")
        )
    return None


def _lines(register: Register) -> Iterator[str]:
    for row in scan(register):
        yield json.dumps(row, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def export_lines(register: Register) -> Iterator[str]:
    """JSON Lines: every hashed field plus entry_hash, one entry per line, from one snapshot."""
    with snapshot():
        yield from _lines(register)


def verify_against_export(lines: Iterable[str]) -> Finding | None:
    """Hold the registers to an earlier export of theirs: every exported line must still be the
    export line of the same entry, byte for byte (what was once exported can be neither changed
    nor removed, whatever the head says). Lines of several registers may follow one another."""
    with snapshot():
        number, current = None, iter(())
        for n, line in enumerate(lines, start=1):
            line = line.rstrip("\n")
            try:
                exported = json.loads(line)
                seq = exported["seq"]
                if exported["register"] != number:
                    number = exported["register"]
                    register = Register.objects.filter(number=number).first()
                    if register is None:
                        return Finding(
                            str(number), None, "export_register", str(_("registre exporté absent de la base"))
                        )
                    current = _lines(register)
            except (ValueError, KeyError, TypeError):
                return Finding(
                    str(number or "?"), None, "export_format", str(_("ligne %(n)s de l'export illisible") % {"n": n})
                )
            now = next(current, None)
            if now is None:
                return Finding(number, seq, "export_missing", str(_("entrée exportée absente de la base")))
            if now != line:
                return Finding(number, seq, "export_changed", str(_("l'entrée diffère de celle de l'export")))
    return None
