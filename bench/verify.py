"""Verification as the deployed commands run it, on a demo database with bulk entries: the chain
scan baseline, the chain-only and the full ``verify_ledgers``, and the daily incremental one.

    DATABASE_URL=postgres://… python manage.py migrate && python manage.py seed_demo
    DATABASE_URL=postgres://… python bench/verify.py [--entries 200000] [--day 1000]

Seeds once (a later run with the same ``--entries`` reuses it): beside the demo's houses, a bench
house with its staff and six registers, filled with ``--entries`` synthetic entries through the
engine's bulk path (``entries_bulk_append``), as bench/scale.py fills its group. Each run then
seals every register (``seal_checkpoints``, untimed) and writes a day of a busy house after the
checkpoints: ``--day`` facts in the bench house's main courante, each its own act
(``main_courante_record``).

Measured, in the same run:
- the anchor: every entry of the database read in seq order through a server-side cursor and
  SHA-256ed, no checks (bench/scale.py's ``plain_scan``, after /work/shared/anchors'
  verify_anchor.py), in this process;
- ``manage.py verify_ledgers --chain-only``, ``verify_ledgers`` (full) and ``verify_ledgers
  --since-checkpoint``, each a process of its own, timed end to end from its start as a cron job
  or an operator runs it (Python and Django's start included).
Goals: chain-only ≥ 0.5x the anchor's speed (anchor s / command s), full ≤ 1.5x the chain-only's
time, since-checkpoint under 2 s. Best of ``--rounds``, the anchor and the chain-only alternating.
Run it on a scratch database: the bench house stays (entries are append-only).
"""

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.utils import timezone  # noqa: E402
from scale import KINDS, WRITER, cycled, payload_pools, plain_scan, spread, staff, timed  # noqa: E402 (sets Django up)

from ledgers.core.models import Establishment  # noqa: E402
from ledgers.core.roles import Role  # noqa: E402
from ledgers.core.services import establishment_create  # noqa: E402
from ledgers.registers.models import Register  # noqa: E402
from ledgers.registers.services import (  # noqa: E402
    entries_bulk_append,
    main_courante_record,
    register_create,
    register_open,
)


def seed(entries: int) -> Establishment:
    """The bench house with ``entries`` entries, seeded unless an earlier run did."""
    code = f"verify{entries}"
    house = Establishment.objects.filter(code=code).first()
    if house is not None:
        print(f"reusing the bench house {code}", flush=True)
        return house
    started = time.perf_counter()
    house = establishment_create(code=code, name=f"Banc de vérification {entries}", jurisdiction="MC", actor=None)
    users = staff(house)
    pools = payload_pools()
    for kind, count in zip(KINDS, spread(entries, 1)[0], strict=True):
        register = register_create(establishment=house, kind=kind, actor=users[Role.DIRECTEUR_JEUX])
        paraphers = register.kind_info.paraph_roles_for(house.jurisdiction)
        register_open(register=register, actor=next(users[r] for r in paraphers if r in users), paraphe="B.V.")
        register = Register.objects.get(pk=register.pk)
        entries_bulk_append(register=register, actor=users[WRITER], role=WRITER, payloads=cycled(pools[kind], count, 0))
    print(f"seeded {entries} entries in {time.perf_counter() - started:.0f} s", flush=True)
    return house


def day(house: Establishment, facts: int) -> None:
    """Seal every register, then ``facts`` acts of the day in the house's main courante."""
    call_command("seal_checkpoints", stdout=open(os.devnull, "w"))
    register = Register.objects.select_related("establishment").get(
        establishment=house, kind="main_courante", status=Register.Status.OPEN
    )
    writer = house.memberships.get(role=WRITER).user
    at = timezone.localtime().strftime("%Y-%m-%d %H:%M")
    for n in range(facts):
        main_courante_record(register=register, actor=writer, event_at=at, subject="Ronde", text=f"Ronde n° {n + 1}")


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
    parser.add_argument("--entries", type=int, default=200_000, help="bulk entries of the bench house")
    parser.add_argument("--day", type=int, default=1000, help="acts written after the checkpoints")
    parser.add_argument("--rounds", type=int, default=2, help="rounds of each measure (best kept)")
    args = parser.parse_args()
    if connection.vendor != "postgresql":
        raise SystemExit("bench/verify.py measures PostgreSQL: set DATABASE_URL=postgres://…")
    house = seed(args.entries)
    day(house, args.day)
    registers = list(Register.objects.order_by("pk"))
    with connection.cursor() as cursor:  # the planner's statistics, as autovacuum keeps them after a load
        cursor.execute("ANALYZE")
    t_anchor = t_chain = t_full = t_since = float("inf")
    for _round in range(args.rounds):  # alternated, so that the machine's load weighs on each
        t_anchor = min(t_anchor, timed(lambda: plain_scan(registers)))
        t_chain = min(t_chain, command("--chain-only"))
        t_full = min(t_full, command())
        t_since = min(t_since, command("--since-checkpoint"))
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
