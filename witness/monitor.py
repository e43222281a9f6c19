"""The witness's own alarm for a log gone silent: a log whose newest cosigned checkpoint (over
every origin its key covers) is older than an age, or that was never cosigned since it was trusted
that long ago. The casino asks for a cosignature at every seal of a register that moved; a log
that stops asking, whether its sealing stopped or was stopped, is seen here, at the regulator,
from the witness's own database."""

import time
from dataclasses import dataclass

from . import note
from .server import covers
from .store import Store


@dataclass(frozen=True)
class Silence:
    log: str  # the log's key name
    since: int  # Unix time of its newest cosignature, or when its key was first trusted
    origin: str | None = None  # the origin and size of that newest cosignature; None if never cosigned
    size: int | None = None

    def line(self, now: int) -> str:
        last = f"last cosigned {self.origin} size {self.size}" if self.origin else "never cosigned since trusted"
        return f"SILENT\t{self.log}\t{last} at {utc(self.since)}\t{(now - self.since) // 60} min ago"


def utc(at: int) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(at))


def silent_logs(store: Store, max_age_minutes: int, now: int) -> list[Silence]:
    """Each trusted log (by key name) with no checkpoint cosigned in the last ``max_age_minutes``."""
    with store.transaction() as tx:
        keys = tx.logs()
        newest = tx.newest_per_origin()
    trusted: dict[str, int] = {}
    for vkey, added_at in keys:
        name = note.parse_vkey(vkey).name
        trusted[name] = min(added_at, trusted.get(name, added_at))
    silences = []
    for name, added_at in sorted(trusted.items()):
        mine = [(at, origin, size) for origin, at, size in newest if covers(name, origin)]
        at, origin, size = max(mine, default=(added_at, None, None))
        if now - at > max_age_minutes * 60:
            silences.append(Silence(name, at, origin, size))
    return silences
