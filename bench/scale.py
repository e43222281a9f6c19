"""Two casinos grown by years of activity: verification, pages and printing measured at a million
entries and more, each figure against its baseline in the same run.

    createdb h_scale && DATABASE_URL=postgres://…/h_scale python manage.py migrate   # a scratch database
    DATABASE_URL=postgres://…/h_scale nice -n 10 python bench/scale.py --entries 1000000 --span-days 3650
    DATABASE_URL=postgres://…/h_scale_90 nice -n 10 python bench/scale.py --entries 200000 --span-days 90
    DATABASE_URL=postgres://…/h_scale_10m nice -n 10 python bench/scale.py --entries 10000000 --span-days 3650
    DATABASE_URL=postgres://…/h_scale nice -n 10 python bench/scale.py … --only pages   # one measure again

The houses are the demo's two (``manage.py seed_demo``, run here if the database does not hold
them yet): Monte-Carlo and Nice with their month of activity (séances, table-parties with their
staff, cards, dice, counts, keys, relèves, incidents). Then, through the services
(bench/history.py), ``--seances`` more séances in each house on days spread evenly over the
``--span-days`` before the demo's first, each day given first what its séance's opening asks (the
slot room's staffing), each séance with its table-partie, card movements and key hand-over; and,
through the engine's bulk path (``entries_bulk_append``), entries up to ``--entries`` in all over
every open register of both houses, each register taking its share of the houses' own entries (the
demo's mix), written in turn by the roles that write there, their facts dated across the span.
Then every register is sealed (``checkpoints_seal``, a full verification), visaed by an authority
of its house, and a day's work (``DAY`` entries shared out the same way) is appended after the
checkpoints. Each act commits on its own, as in a house; a database holds the houses of one run,
which later runs on it reuse.

Then, once the planner's statistics are up to date (``ANALYZE``, as autovacuum keeps them after a
load), each figure against its baseline in the same run, with the machine's load average:
- verification: ``manage.py verify_ledgers --chain-only`` end to end in a subprocess (Python's and
  Django's start included, the byte-code compiled first as the go-live steps do) and in this
  process, against the anchor scan (/work/shared/anchors/verify_anchor.py's loop on as many rows: ``anchor_scan`` of
  bench/ledger.py), alternated over ``--rounds`` rounds, the best of each kept (goal ≥ 0.5×: the
  anchor's seconds over the verification's); the full ``verify_ledgers`` (chains, objects, history
  transactions) end to end, in the same rounds, against the chain-only one end to end (goal ≤ 1.5×);
  ``verify_ledgers --since-checkpoint`` end to end, what the daily sealing reads (goal < 2 s);
- pages: every demo role's home (goal ≤ 30 queries
  and a CPU p95 under 50 ms), then the busiest register's page (first and deep), the API entries
  list (first and deep cursor) and the visa page as each role of its house that writes there or
  visas it: queries and the p50/p95 of wall-clock and of the process's CPU milliseconds (the CPU
  figure is what a shared machine inflates least), ``--samples`` requests each through Django's
  test client (bench/homes.py's ``page_costs``);
- printing the volume in use of the busiest register twice, with the lowest entry each print
  reads: the first lays out from the last stored volume boundary (from entry 1 if none), the
  second from the boundaries the first stored.

Figures go to bench/results/scale-<entries>-<span>d.json, each measure with the command that
reproduces it and the load average before and after it, and are printed as a table. Run it on a
scratch database, never on a production one: the houses stay (entries are append-only).
"""

import argparse
import base64
import io
import json
import logging
import os
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino_compliance.settings")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.db.models import Count, Max, Min  # noqa: E402
from django.test import Client  # noqa: E402
from django.utils import timezone  # noqa: E402

from bench.history import DEMO, more_history, more_seances, span_before_demo  # noqa: E402
from bench.homes import measure, page_costs  # noqa: E402
from bench.ledger import anchor_scan, compiled, raw_connection, timed  # noqa: E402
from ledgers.core.models import Establishment, Membership, Seance  # noqa: E402
from ledgers.keys.models import Key  # noqa: E402
from ledgers.registers.models import Entry, Register  # noqa: E402
from ledgers.registers.printing.services import volume_print  # noqa: E402
from ledgers.registers.services import checkpoints_seal, visa_sign  # noqa: E402

DAY = 1000  # entries appended after the checkpoints: a day's work of the two houses
HOME_QUERIES, HOME_CPU_MS = 30, 50  # the homes' goals
RESULTS = ROOT / "bench" / "results"


def load() -> str:
    return "load average " + " ".join(f"{x:.2f}" for x in os.getloadavg()) + f" on {os.cpu_count()} CPUs"


def houses(entries: int, span_days: int, seances: int) -> None:
    """The demo houses grown to ``entries`` entries, unless this database already holds them.
    Each act commits on its own, as in a house (the incremental verification reads from the first
    transaction after the seals)."""
    if not Establishment.objects.filter(code__in=DEMO).exists():
        started = time.perf_counter()
        call_command("seed_demo", stdout=io.StringIO())
        print(f"seed_demo: {time.perf_counter() - started:.0f} s ({load()})", flush=True)
    if Key.objects.filter(establishment__code__in=DEMO, code="HIST-CY").exists():
        if Register.objects.filter(establishment__code__in=DEMO, head_seq__gt=0, checkpoints=None).exists():
            raise SystemExit("an interrupted run left part of its houses here: run on a fresh database")
        print(f"reusing the houses built by an earlier run: {Entry.objects.count()} entries", flush=True)
        return
    span = span_before_demo(span_days)
    started = time.perf_counter()
    more_seances(count=seances, span=span)
    seconds = time.perf_counter() - started
    print(f"{seances} séances a house from {span[0]} to {span[1]}: {seconds:.0f} s", flush=True)
    started = time.perf_counter()
    more = entries - DAY - Entry.objects.count()
    assert more > 0, f"the houses hold {entries - DAY - more} entries already"
    more_history(total=more, span=span)
    seconds = time.perf_counter() - started
    print(f"{more} entries in bulk: {seconds:.0f} s ({more / seconds:.0f}/s, {load()})", flush=True)
    started = time.perf_counter()
    sealed = checkpoints_seal(registers=Register.objects.all(), full=True)
    assert all(isinstance(s.seq, int) for s in sealed), sealed
    print(f"sealed {len(sealed)} registers: {time.perf_counter() - started:.0f} s", flush=True)
    visas()
    today = timezone.localdate()
    more_history(total=DAY, span=(today, today))  # the day's work after the checkpoints


def visas() -> None:
    """A visa on every open register, up to its head, by an authority of its house that does not
    write there."""
    memberships = Membership.objects.filter(establishment__code__in=DEMO).select_related("user")
    for register in Register.objects.filter(establishment__code__in=DEMO, status=Register.Status.OPEN):
        info, jurisdiction = register.kind_info, register.establishment.jurisdiction
        signer = next(
            (
                m.user
                for m in memberships
                if m.establishment_id == register.establishment_id
                and m.role in info.visa_roles_for(jurisdiction)
                and m.role not in info.record_roles
            ),
            None,
        )
        if signer is not None:
            visa_sign(register=register, actor=signer, up_to_seq=register.head_seq, statement="")


def manage(*args: str) -> float:
    """``manage.py`` with ``args`` in a subprocess, end to end: its seconds."""
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, capture_output=True, text=True)
    seconds = time.perf_counter() - started
    assert done.returncode == 0 and "ÉCHEC" not in done.stdout, (args, done.stdout[-2000:], done.stderr[-2000:])
    return seconds


def in_process(*args: str) -> None:
    out = io.StringIO()
    call_command(*args, stdout=out)
    assert "ÉCHEC" not in out.getvalue(), out.getvalue()


def verification(total: int, rounds: int) -> dict:
    chain = ("verify_ledgers", "--chain-only")
    compiled()
    raw = raw_connection()
    t_anchor = t_sub = t_in = t_full = float("inf")
    try:
        for _round in range(rounds):  # alternated, so that the machine's load weighs on each alike
            t_anchor = min(t_anchor, anchor_scan(raw, total))
            t_sub = min(t_sub, manage(*chain))
            t_in = min(t_in, timed(lambda: in_process(*chain)))
            t_full = min(t_full, manage("verify_ledgers"))
    finally:
        raw.close()
    t_since = manage("verify_ledgers", "--since-checkpoint")
    figures = {
        "entries": total,
        "anchor_scan_s": {"s": t_anchor, "command": f"anchor_scan(raw, {total}) of bench/ledger.py"},
        "chain_only_subprocess_s": {"s": t_sub, "command": "python manage.py verify_ledgers --chain-only"},
        "chain_only_in_process_s": {"s": t_in, "command": "call_command('verify_ledgers', '--chain-only')"},
        "full_subprocess_s": {"s": t_full, "command": "python manage.py verify_ledgers"},
        "since_checkpoint_subprocess_s": {
            "s": t_since,
            "command": "python manage.py verify_ledgers --since-checkpoint",
            "goal": "< 2 s",
            "met": t_since < 2,
        },
        "chain_only_subprocess_vs_anchor": {"x": t_anchor / t_sub, "goal": "≥ 0.5", "met": t_anchor / t_sub >= 0.5},
        "chain_only_in_process_vs_anchor": {"x": t_anchor / t_in, "goal": "≥ 0.5", "met": t_anchor / t_in >= 0.5},
        "full_vs_chain_only": {"x": t_full / t_sub, "goal": "≤ 1.5", "met": t_full / t_sub <= 1.5},
        "chain_only_entries_per_s": total / t_in,
    }
    print(json.dumps(figures, indent=1, ensure_ascii=False), flush=True)
    return figures


def register_pages(register: Register, samples: int) -> list[dict]:
    """The busiest register's pages as each role of its house that writes there or visas it."""
    head = register.head_seq
    deep_cursor = base64.b64encode(f"p={head - 60}".encode()).decode()
    urls = {
        "register first page": f"/registres/{register.number}/",
        "register deep page": f"/registres/{register.number}/?after={head - 60}",
        "API entries first": f"/api/v1/registers/{register.number}/entries/",
        "API entries deep cursor": f"/api/v1/registers/{register.number}/entries/?cursor={deep_cursor}",
        "visa page": f"/registres/{register.number}/visa/",
    }
    info, est = register.kind_info, register.establishment
    roles = {*info.record_roles, *info.visa_roles_for(est.jurisdiction)}
    rows = []
    for membership in est.memberships.filter(role__in=roles).select_related("user").order_by("role"):
        client = Client()
        client.force_login(membership.user)
        for page, url in urls.items():
            costs = page_costs(client, url, samples)
            if costs.get("status") != 403:  # a refusal is not this role's page
                rows.append({"user": membership.user.username, "page": page, **costs})
    return rows


def pages(register: Register, samples: int) -> dict:
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
    logging.getLogger("django.request").setLevel(logging.CRITICAL)  # the refusals of pages a role may not see
    homes = [{"user": username, "page": "home", **costs} for username, costs in measure(samples).items()]
    over_queries = [row["user"] for row in homes if row["queries"] > HOME_QUERIES]
    over_cpu = [row["user"] for row in homes if row["cpu_p95_ms"] >= HOME_CPU_MS]
    return {
        "homes": homes,
        "homes_over_queries": {"goal": f"≤ {HOME_QUERIES} queries", "users": over_queries},
        "homes_over_cpu": {"goal": f"CPU p95 < {HOME_CPU_MS} ms", "users": over_cpu},
        "register": register.number,
        "register_pages": register_pages(register, samples),
    }


SEQ_FROM = re.compile(r'"seq" >= %s')


def range_starts(sql: str, params) -> list[int]:
    """The lowest seq of each range of entries an SQL statement selects (``"seq" >= %s``)."""
    if Entry._meta.db_table not in sql:
        return []
    return [params[sql[: m.start()].count("%s")] for m in SEQ_FROM.finditer(sql)]


def printing(register: Register) -> dict:
    """The volume in use of ``register``, printed by the system twice: the first print lays out
    from the last stored volume boundary (from entry 1 if none is stored yet) and stores those of
    the volumes it completes; the second starts at the volume in use. With the queries on
    entries each made and the lowest entry each read."""

    def once() -> dict:
        read: list[int] = []

        def record(execute, sql, params, many, context):
            read.extend(range_starts(sql, params))
            return execute(sql, params, many, context)

        out, printed = io.BytesIO(), []
        with connection.execute_wrapper(record):
            seconds = timed(lambda: printed.append(volume_print(register=register, out=out, actor=None)[1]))
        return {
            "seconds": seconds,
            "volume": printed[0].volume,
            "pages": printed[0].pages,
            "first_entry_read": min(read, default=None),
        }

    return {"register": register.number, "entries": register.head_seq, "first": once(), "in_use": once()}


def described() -> dict:
    """What the houses hold: their registers and entries, and their séances' span."""
    seances = Seance.objects.filter(establishment__code__in=DEMO).aggregate(n=Count("pk"), first=Min("date"))
    registers = Register.objects.filter(establishment__code__in=DEMO)
    kinds = registers.values("kind").annotate(entries=Max("head_seq")).order_by("-entries")[:8]
    return {
        "houses": list(DEMO),
        "registers": registers.count(),
        "entries": Entry.objects.count(),
        "seances": seances["n"],
        "first_seance": str(seances["first"]),
        "busiest_kinds": {k["kind"]: k["entries"] for k in kinds},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--entries", type=int, default=1_000_000, help="entries in all, once the houses are built")
    parser.add_argument("--span-days", type=int, default=3650, help="days of history before the demo's")
    parser.add_argument("--seances", type=int, default=120, help="more séances per house, spread over the span")
    parser.add_argument("--samples", type=int, default=10, help="requests per page and role")
    parser.add_argument("--rounds", type=int, default=2, help="verification rounds (best kept)")
    parser.add_argument(
        "--only",
        nargs="+",
        choices=("verify", "pages", "print"),
        default=("verify", "pages", "print"),
        help="the measures to run (the others keep their figures from an earlier run)",
    )
    args = parser.parse_args()
    if connection.vendor != "postgresql":
        raise SystemExit("bench/scale.py measures PostgreSQL: set DATABASE_URL=postgres://…")
    if not (settings.LEDGERS_SIGNING_KEY or settings.LEDGERS_SIGNING_KEY_FILE):
        raise SystemExit("set LEDGERS_SIGNING_KEY (or run with DEBUG on): the houses' registers are sealed")
    command = f"nice -n 10 python bench/scale.py --entries {args.entries} --span-days {args.span_days}"
    command += f" --seances {args.seances} --samples {args.samples} --rounds {args.rounds}"
    print(f"$ DATABASE_URL=… {command}  ({load()})", flush=True)

    houses(args.entries, args.span_days, args.seances)
    with connection.cursor() as cursor:  # the planner's statistics, as autovacuum keeps them after a load
        cursor.execute("ANALYZE")
    results: dict = {"command": command, "postgresql": connection.pg_version, **described()}
    busiest = Register.objects.filter(establishment__code__in=DEMO).order_by("-head_seq")[0]
    measures = {
        "verify": lambda: verification(results["entries"], args.rounds),
        "pages": lambda: pages(busiest, args.samples),
        "print": lambda: printing(busiest),
    }
    for name in args.only:
        before = load()
        print(f"\n{name} ({before})", flush=True)
        figures = measures[name]()
        results[name] = {"command": f"{command} --only {name}", "load_before": before, "load_after": load(), **figures}
    RESULTS.mkdir(exist_ok=True)
    path = RESULTS / f"scale-{args.entries}-{args.span_days}d.json"
    if path.exists():  # a partial run keeps the figures it did not measure
        results = {**json.loads(path.read_text(encoding="utf-8")), **results}
    path.write_text(json.dumps(results, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    report(results)
    print(f"\nwritten to {path.relative_to(ROOT)}")


def header(measure: dict) -> None:
    print(f"\n$ DATABASE_URL=… {measure['command']}   ({measure['load_before']} → {measure['load_after']})")


def report(results: dict) -> None:
    print(
        f"\n{results['entries']} entries, {results['registers']} registers, {results['seances']} séances since "
        f"{results['first_seance']} in {', '.join(results['houses'])}"
    )
    if "verify" in results:
        v = results["verify"]
        header(v)
        anchor = v["anchor_scan_s"]
        print(f"{anchor['command']:52}{anchor['s']:8.1f} s")
        for key, ratio in (
            ("chain_only_subprocess_s", "chain_only_subprocess_vs_anchor"),
            ("chain_only_in_process_s", "chain_only_in_process_vs_anchor"),
        ):
            figure, x = v[key], v[ratio]
            print(f"{figure['command']:52}{figure['s']:8.1f} s  {x['x']:.2f}x the anchor (goal {x['goal']}x)")
        figure, x = v["full_subprocess_s"], v["full_vs_chain_only"]
        print(f"{figure['command']:52}{figure['s']:8.1f} s  {x['x']:.2f}x the chain-only (goal {x['goal']}x)")
        figure = v["since_checkpoint_subprocess_s"]
        print(f"{figure['command']:52}{figure['s']:8.1f} s  (goal {figure['goal']})")
    if "print" in results:
        p = results["print"]
        header(p)
        for when in ("first", "in_use"):
            q = p[when]
            print(
                f"print ({when:6})      {q['seconds']:8.1f} s  {p['register']} ({p['entries']} entries), volume "
                f"{q['volume']} ({q['pages']} pages), entries read from n° {q['first_entry_read']}"
            )
    if "pages" in results:
        p = results["pages"]
        header(p)
        print(f"{'user':36}{'page':26}{'queries':>8}{'p50 ms':>8}{'p95 ms':>8}{'cpu p50':>8}{'cpu p95':>8}")
        for row in p["homes"] + p["register_pages"]:
            if "status" in row:
                print(f"{row['user']:36}{row['page']:26}  HTTP {row['status']}")
                continue
            print(
                f"{row['user']:36}{row['page']:26}{row['queries']:8}{row['p50_ms']:8.1f}{row['p95_ms']:8.1f}"
                f"{row['cpu_p50_ms']:8.1f}{row['cpu_p95_ms']:8.1f}"
            )
        for key in ("homes_over_queries", "homes_over_cpu"):
            over = p[key]
            print(f"homes over the goal ({over['goal']}): {len(over['users'])}: {', '.join(over['users']) or 'none'}")


if __name__ == "__main__":
    main()
