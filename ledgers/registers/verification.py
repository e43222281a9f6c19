"""Verification of registers: recompute every hash, link, sequence number and visa."""

import hashlib
import json
from collections.abc import Iterator
from dataclasses import dataclass

from .chain import GENESIS_HASH, canonical_bytes, format_timestamp
from .models import Entry, EntryKind, Register

SCAN_FIELDS = ("seq", "recorded_at", "actor", "role", "kind", "payload", "corrects__seq", "prev_hash", "entry_hash")


@dataclass(frozen=True)
class Finding:
    register: str
    seq: int | None
    reason: str

    def __str__(self) -> str:
        where = f" seq {self.seq}" if self.seq is not None else ""
        return f"{self.register}{where}: {self.reason}"


def scan(register: Register, chunk_size: int = 5000) -> Iterator[dict]:
    """Entries of a register in seq order, streamed, as the dicts that are hashed (+ entry_hash)."""
    rows = Entry.objects.filter(register=register).order_by("seq").values_list(*SCAN_FIELDS)
    for seq, recorded_at, actor, role, kind, payload, corrects, prev_hash, stored in rows.iterator(chunk_size):
        yield {
            "register": register.number,
            "seq": seq,
            "recorded_at": format_timestamp(recorded_at),
            "actor": actor,
            "role": role,
            "kind": kind,
            "payload": payload,
            "corrects": corrects,
            "prev_hash": prev_hash,
            "entry_hash": stored,
        }


def verify_register(register: Register) -> Finding | None:
    """Return the first problem found, or None when the register verifies."""
    expected_seq, prev = 1, GENESIS_HASH
    hashes: list[str] = []  # hashes[i] is the hash of seq i + 1, for visas and corrections
    for row in scan(register):
        seq = row["seq"]
        if seq != expected_seq:
            return Finding(register.number, expected_seq, f"missing entry (next stored is seq {seq})")
        if row["prev_hash"] != prev:
            return Finding(register.number, seq, "prev_hash does not match the previous entry's hash")
        stored = row.pop("entry_hash")
        computed = hashlib.sha256(canonical_bytes(**row)).hexdigest()
        if computed != stored:
            return Finding(register.number, seq, "entry_hash does not match the entry's content")
        if seq == 1 and row["kind"] != EntryKind.OPENING:
            return Finding(register.number, seq, "the first entry is not the opening act")
        if row["corrects"] is not None and not 1 <= row["corrects"] < seq:
            return Finding(register.number, seq, "correction points outside the preceding entries")
        if row["kind"] == EntryKind.VISA:
            covers = row["payload"].get("covers_seq")
            if not isinstance(covers, int) or not 1 <= covers < seq:
                return Finding(register.number, seq, "visa covers no preceding entry")
            if hashes[covers - 1] != row["payload"].get("covers_hash"):
                return Finding(register.number, seq, f"visa hash does not match entry {covers}")
        hashes.append(computed)
        prev, expected_seq = computed, seq + 1
    last_seq = expected_seq - 1
    head_seq, head_hash = Register.objects.filter(pk=register.pk).values_list("head_seq", "head_hash").get()
    if last_seq != head_seq:
        return Finding(register.number, last_seq + 1 if last_seq < head_seq else last_seq,
                       f"register head is seq {head_seq} but the chain ends at seq {last_seq}")
    if prev != head_hash:
        return Finding(register.number, last_seq, "register head hash does not match the last entry")
    return None


def export_lines(register: Register) -> Iterator[str]:
    """JSON Lines: every hashed field plus entry_hash, one entry per line."""
    for row in scan(register):
        yield json.dumps(row, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
