"""Write or check docs/requirements/: the status of every catalogue row and setting, from the code."""

from django.core.management.base import BaseCommand, CommandError

from ledgers.core.status import ROOT, Scan

TARGET = ROOT / "docs" / "requirements"


class Command(BaseCommand):
    help = "Status of every catalogue row and setting (docs/requirements/): --write regenerates it."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--write", action="store_true", help="write the tables instead of checking them")

    def handle(self, *args, write: bool = False, **options) -> None:
        scan = Scan()
        files = scan.markdown()
        if write:
            TARGET.mkdir(parents=True, exist_ok=True)
            for name, text in files.items():
                (TARGET / name).write_text(text, encoding="utf-8")
            self.stdout.write(f"{len(files)} files written to docs/requirements/")
        else:
            stale = [name for name, text in files.items() if _read(TARGET / name) != text]
            if stale:
                raise CommandError(f"out of date (run with --write): {', '.join(stale)}")
        for problem in scan.problems():
            self.stderr.write(problem)
        for prefix, per in scan.counts().items():
            self.stdout.write(f"{prefix}: " + ", ".join(f"{n} {status}" for status, n in per.items() if n))


def _read(path) -> str | None:
    return path.read_text(encoding="utf-8") if path.exists() else None
