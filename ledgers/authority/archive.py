"""The archive of a closed period (REG-43): every register with an entry recorded in it, each as
its sealed printed copy (PDF) and its JSON Lines export (the whole chain, so that it verifies on
its own), and ``manifest.json`` listing every file with its SHA-256 digest. Format and offline
verification: docs/archive-format.md, docs/verify_export.py."""

import datetime
import hashlib
import json
from pathlib import Path
from zoneinfo import ZoneInfo

from django.conf import settings
from django.db.models import QuerySet
from django.utils import timezone

from ledgers.core.models import Establishment
from ledgers.registers.models import Register
from ledgers.registers.verification import export_lines

from .retention import period_bounds, period_label

FORMAT = "ledgers-archive/1"
MANIFEST = "manifest.json"


def season_registers(establishment: Establishment, season: int) -> QuerySet[Register]:
    """The registers with at least one entry recorded during the period, by number."""
    first, last = period_bounds(establishment, season)
    zone = ZoneInfo(establishment.timezone)
    since = datetime.datetime.combine(first, datetime.time.min, zone)
    until = datetime.datetime.combine(last + datetime.timedelta(days=1), datetime.time.min, zone)
    return (
        Register.objects.filter(
            establishment=establishment, entries__recorded_at__gte=since, entries__recorded_at__lt=until
        )
        .distinct()
        .order_by("number")
    )


def _digest(path: Path) -> str:
    sha = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            sha.update(block)
    return sha.hexdigest()


def build_archive(establishment: Establishment, season: int, directory: Path, *, sealed: bool = True) -> dict:
    """Write the period's files and their manifest into ``directory``; return the manifest."""
    from ledgers.reports.documents import register_pdf  # reportlab: loaded when an archive is built

    directory.mkdir(parents=True, exist_ok=True)
    first, last = period_bounds(establishment, season)
    files = []
    for register in season_registers(establishment, season).select_related("establishment"):
        jsonl = directory / f"{register.number}.jsonl"
        entries, head = 0, None
        with jsonl.open("w", encoding="utf-8") as out:
            for line in export_lines(register):
                out.write(line + "\n")
                entries += 1
                head = line
        head_hash = json.loads(head)["entry_hash"] if head else None
        files.append(
            {
                "name": jsonl.name,
                "register": register.number,
                "sha256": _digest(jsonl),
                "bytes": jsonl.stat().st_size,
                "entries": entries,
                "head_hash": head_hash,
            }
        )
        pdf = directory / f"{register.number}.pdf"
        with pdf.open("wb") as out:
            register_pdf(register, out, lang=settings.LANGUAGE_CODE, sealed=sealed)
        files.append(
            {
                "name": pdf.name,
                "register": register.number,
                "sha256": _digest(pdf),
                "bytes": pdf.stat().st_size,
                "sealed": sealed,
            }
        )
    manifest = {
        "format": FORMAT,
        "establishment": establishment.code,
        "jurisdiction": establishment.jurisdiction,
        "season": period_label(establishment, season),
        "from": first.isoformat(),
        "to": last.isoformat(),
        "created_at": timezone.now().isoformat(timespec="seconds"),
        "files": files,
    }
    (directory / MANIFEST).write_text(
        json.dumps(manifest, ensure_ascii=False, indent=1, sort_keys=True) + "\n", encoding="utf-8"
    )
    return manifest
