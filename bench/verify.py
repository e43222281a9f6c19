"""Verification as the deployed commands run it, on a demo database with bulk entries: the chain
scan baseline, the chain-only and the full ``verify_ledgers``, and the daily incremental one.

    DATABASE_URL=postgres://… python manage.py migrate
    DATABASE_URL=postgres://… python bench/verify.py [--entries 250000] [--day 1000]

Seeds once (a later run with ``--entries`` no higher reuses it): the demo's two houses
(``seed_demo``, run here if the database does not hold them yet) grown to ``--entries`` entries
in all through the engine's bulk path (bench/history.py's ``more_history``: every open register its
share, written by the roles that write there, facts dated over the last year). Each run then seals
every register (``seal_checkpoints``, untimed) and writes a day's ``--day`` entries after the
checkpoints, shared out the same way.

Measured, in the same run:
- the anchor: /work/shared/anchors' verify_anchor.py's loop on as many rows as the database holds
  entries (bench/ledger.py's ``anchor_scan``), in this process;
- ``manage.py verify_ledgers --chain-only``, ``verify_ledgers`` (full) and ``verify_ledgers
  --since-checkpoint``, each a process of its own, timed end to end from its start as a cron job
  or an operator runs it (Python and Django's start included), the project's byte-code compiled
  first as the go-live steps do.
Goals: chain-only ≥ 0.5x the anchor's speed (anchor s / command s), full ≤ 1.5x the chain-only's
time, since-checkpoint under 2 s. Best of ``--rounds``, the anchor and the chain-only alternating.
Run it on a scratch database: the entries stay (they are append-only).
"""

import argparse
import datetime
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino_compliance.settings")

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.utils import timezone  # noqa: E402

from bench.history import DEMO, more_history  # noqa: E402
from bench.ledger import anchor_scan, compiled, raw_connection  # noqa: E402
from ledgers.core.models import Establishment  # noqa: E402
from ledgers.registers.models import Entry, Register  # noqa: E402


def seed(entries: int) -> None:
    """The demo houses (``seed_demo``) grown to ``entries`` entries, unless an earlier run did."""
    if not Establishment.objects.filter(code__in=DEMO).exists():
        call_command("seed_demo", stdout=open(os.devnull, "w"))
    more = entries - Entry.objects.count()
    if more <= 0:
        print(f"reusing the {Entry.objects.count()} entries of an earlier run", flush=True)
        return
    started = time.perf_counter()
    year_ago = timezone.localdate() - datetime.timedelta(days=365)
    more_history(total=more, span=(year_ago, timezone.localdate() - datetime.timedelta(days=1)))
    print(f"seeded {more} entries in {time.perf_counter() - started:.0f} s", flush=True)


def day(facts: int) -> None:
    """Seal every register, then ``facts`` entries of the day shared out over the houses' registers."""
    call_command("seal_checkpoints", stdout=open(os.devnull, "w"))
    today = timezone.localdate()
    more_history(total=facts, span=(today, today))


def command(*args: str) -> float:
    """Seconds of ``manage.py verify_ledgers ARGS`` run as a process of its own, end to end."""
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), "verify_ledgers", *args], capture_output=True, text=True
    )
    seconds = time.perf_counter() - started
    if done.returncode:
        raise SystemExit(f"verify_ledgers {' '.join(args)} failed:\n{done.stdout[-2000:]}{done.stderr[-2000:]}")
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--entries", type=int, default=250_000, help="entries of the demo houses, bulk ones added")
    parser.add_argument("--day", type=int, default=1000, help="acts written after the checkpoints")
    parser.add_argument("--rounds", type=int, default=2, help="rounds of each measure (best kept)")
    args = parser.parse_args()
    if connection.vendor != "postgresql":
        raise SystemExit("bench/verify.py measures PostgreSQL: set DATABASE_URL=postgres://…")
    seed(args.entries)
    day(args.day)
    compiled()
    registers = list(Register.objects.order_by("pk"))
    raw = raw_connection()
    with connection.cursor() as cursor:  # the planner's statistics, as autovacuum keeps them after a load
        cursor.execute("ANALYZE")
    t_anchor = t_chain = t_full = t_since = float("inf")
    for _round in range(args.rounds):  # alternated, so that the machine's load weighs on each
        t_anchor = min(t_anchor, anchor_scan(raw, sum(r.head_seq for r in registers)))
        t_chain = min(t_chain, command("--chain-only"))
        t_full = min(t_full, command())
        t_since = min(t_since, command("--since-checkpoint"))
    raw.close()
    rows = sum(r.head_seq for r in registers)
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(
        f"PostgreSQL {connection.pg_version}, {rows} entries in {len(registers)} registers, {args.day} written "
        f"since the checkpoints; best of {args.rounds}; load average {load} on {os.cpu_count()} CPUs"
    )
    lines = (
        ("anchor scan", t_anchor, ""),
        ("chain-only command", t_chain, f"{t_anchor / t_chain:.2f}x the anchor", "≥ 0.5x", t_anchor / t_chain >= 0.5),
        ("full command", t_full, f"{t_full / t_chain:.2f}x the chain-only", "≤ 1.5x", t_full / t_chain <= 1.5),
        ("since-checkpoint", t_since, "", "< 2 s", t_since < 2),
    )
    for name, seconds, ratio, *goal in lines:
        verdict = f"{goal[0]}  {'met' if goal[1] else 'NOT MET'}" if len(goal) == 2 else ""
        print(f"{name:20}{seconds:8.2f} s  {ratio:24}{verdict}")


if __name__ == "__main__":
    main()
