"""The seal of a checkpoint: HMAC-SHA256 under ``LEDGERS_CHECKPOINT_KEY`` over the canonical JSON
of {register, seq, entry_hash, created_at} (docs/ledger-format.md §9).

The key lives in the environment of the processes that seal and verify, never in the database:
the application's database role can insert a checkpoint row, but not one that verifies."""

import hashlib
import hmac
import json
from datetime import datetime

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

from .chain import format_timestamp


def checkpoint_key() -> bytes:
    key = settings.LEDGERS_CHECKPOINT_KEY
    if not key:
        raise ImproperlyConfigured(
            "LEDGERS_CHECKPOINT_KEY must be set to seal or verify register checkpoints (DEBUG is off)."
        )
    return key.encode("utf-8")


def checkpoint_bytes(*, register: str, seq: int, entry_hash: str, created_at: datetime) -> bytes:
    document = {"register": register, "seq": seq, "entry_hash": entry_hash, "created_at": format_timestamp(created_at)}
    return json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def checkpoint_mac(key: bytes, **fields) -> str:
    return hmac.new(key, checkpoint_bytes(**fields), hashlib.sha256).hexdigest()


def mac_valid(key: bytes, mac: str, **fields) -> bool:
    return hmac.compare_digest(checkpoint_mac(key, **fields), mac)
