"""Canonical bytes and hash of a register entry (see docs/ledger-format.md).

canonical = UTF-8 JSON of {register, seq, recorded_at, actor, role, kind, payload, corrects,
prev_hash}, keys sorted, separators (",", ":"), no ASCII escaping; entry_hash = sha256 hex.
"""

import hashlib
import json
from datetime import UTC, datetime
from typing import Any

GENESIS_HASH = "0" * 64
TIMESTAMP_FORMAT = "%Y-%m-%dT%H:%M:%S.%fZ"

JSONScalar = str | int | bool | None


def format_timestamp(value: datetime) -> str:
    return value.astimezone(UTC).strftime(TIMESTAMP_FORMAT)


def check_payload(value: Any, path: str = "payload") -> None:
    """Payloads hold only str/int/bool/null/list/dict: one canonical form, no float surprises."""
    if value is None or isinstance(value, (str, bool, int)):
        return
    if isinstance(value, list):
        for i, item in enumerate(value):
            check_payload(item, f"{path}[{i}]")
        return
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str):
                raise TypeError(f"{path}: keys must be strings, got {key!r}")
            check_payload(item, f"{path}.{key}")
        return
    raise TypeError(f"{path}: {type(value).__name__} is not allowed; write decimals and dates as strings")


def canonical_bytes(
    *,
    register: str,
    seq: int,
    recorded_at: str,
    actor: str,
    role: str,
    kind: str,
    payload: Any,
    corrects: int | None,
    prev_hash: str,
) -> bytes:
    document = {
        "register": register,
        "seq": seq,
        "recorded_at": recorded_at,
        "actor": actor,
        "role": role,
        "kind": kind,
        "payload": payload,
        "corrects": corrects,
        "prev_hash": prev_hash,
    }
    return json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def entry_hash(**fields: Any) -> str:
    return hashlib.sha256(canonical_bytes(**fields)).hexdigest()
