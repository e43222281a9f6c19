"""Canonical bytes and hash of a register entry (see docs/ledger-format.md).

canonical = UTF-8 JSON of {register, seq, recorded_at, actor, role, kind, payload, corrects,
prev_hash} and, from format 2 on, ``written`` (the objects the entry's transaction wrote before
it) and, from format 3 on, ``digests`` (the digests of those objects' history rows), keys sorted,
separators (",", ":"), no ASCII escaping; entry_hash = sha256 hex. An entry of
format 1 (from before ``written`` existed) has none, stored as NULL, and is hashed without it.

orjson writes these bytes several times faster than the standard library: for the values a
payload may hold (``check_payload``) its output with sorted keys is byte for byte that of
``json.dumps(sort_keys=True, separators=(",", ":"), ensure_ascii=False)`` (tests hold the two
together). What orjson refuses (integers beyond 64 bits, keys that are not text) goes through
``json``, the reference.
"""

import hashlib
import json
from datetime import UTC, datetime
from typing import Any

import orjson
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

GENESIS_HASH = "0" * 64
TIMESTAMP_FORMAT = "%Y-%m-%dT%H:%M:%S.%fZ"


def format_timestamp(value: datetime) -> str:
    return value.astimezone(UTC).strftime(TIMESTAMP_FORMAT)


def _check_text(value: str, path: str) -> None:
    # PostgreSQL's jsonb cannot store U+0000 and UTF-8 cannot encode a lone surrogate: refuse them
    # here, with a clear message, rather than fail at INSERT or when hashing.
    if "\x00" in value:
        raise ValidationError(_("%(path)s : le caractère nul (U+0000) n'est pas admis."), params={"path": path})
    if not value.isascii():
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise ValidationError(
                _("%(path)s : texte Unicode invalide (demi-paire de substitution)."), params={"path": path}
            ) from None


def check_payload(value: Any, path: str = "payload") -> None:
    """Payloads hold only str/int/bool/null/list/dict: one canonical form, no float surprises.
    Anything else is bad input (ValidationError), not a rule of the texts."""
    if value is None or isinstance(value, (bool, int)):
        return
    if isinstance(value, str):
        _check_text(value, path)
        return
    if isinstance(value, list):
        for i, item in enumerate(value):
            check_payload(item, f"{path}[{i}]")
        return
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str):
                raise ValidationError(
                    _("%(path)s : les clés doivent être des textes (reçu %(key)r)."), params={"path": path, "key": key}
                )
            _check_text(key, path)
            check_payload(item, f"{path}.{key}")
        return
    raise ValidationError(
        _("%(path)s : le type %(type)s n'est pas admis ; écrivez les décimaux et les dates en texte."),
        params={"path": path, "type": type(value).__name__},
    )


def canonical_json_reference(document: Any) -> bytes:
    """The canonical form as the standard library writes it: the definition."""
    return json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


# Dates and dataclasses go to json, which refuses them as the definition does.
ORJSON_OPTIONS = orjson.OPT_SORT_KEYS | orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS


def canonical_json(document: Any) -> bytes:
    """Keys sorted, compact, UTF-8: the canonical form of any JSON value."""
    try:
        return orjson.dumps(document, option=ORJSON_OPTIONS)
    except TypeError:  # orjson.JSONEncodeError: fall back on the reference
        return canonical_json_reference(document)


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
    written: dict[str, list[int]] | None = None,
    digests: dict[str, dict[str, str]] | None = None,
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
    if written is not None:  # format 2
        document["written"] = written
    if digests is not None:  # format 3
        document["digests"] = digests
    return canonical_json(document)


def entry_hash(**fields: Any) -> str:
    return hashlib.sha256(canonical_bytes(**fields)).hexdigest()
