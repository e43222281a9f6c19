"""Write the archive of a closed period into a directory (REG-43, docs/archive-format.md)."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from ledgers.authority.archive import MANIFEST, build_archive
from ledgers.authority.retention import period_bounds
from ledgers.core.models import Establishment
from ledgers.reports.sealing import SealUnavailable, certificate_source


class Command(BaseCommand):
    help = "Archive a closed season: sealed PDF + JSON Lines per register, and manifest.json of SHA-256 digests."

    def add_arguments(self, parser):
        parser.add_argument("establishment", help="establishment code")
        parser.add_argument("season", type=int, help="year in which the season (period) starts")
        parser.add_argument("--out", required=True, help="directory to write (created if needed)")
        parser.add_argument("--unsealed", action="store_true", help="plain PDFs when no seal is configured")

    def handle(self, *args, establishment: str, season: int, out: str, unsealed: bool, **options):
        est = Establishment.objects.filter(code=establishment).first()
        if est is None:
            raise CommandError(f"unknown establishment {establishment!r}")
        if not unsealed:
            try:
                certificate_source(est)
            except SealUnavailable as exc:
                raise CommandError(str(exc)) from exc
        first, last = period_bounds(est, season)
        manifest = build_archive(est, season, Path(out), sealed=not unsealed)
        self.stdout.write(f"{len(manifest['files'])} files for {first} – {last} in {Path(out) / MANIFEST}")
