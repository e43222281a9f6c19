"""Every demo role's home on a house with real activity, then on the same house with months or
years more of it: queries and CPU milliseconds per request, side by side.

    DATABASE_URL=postgres://… python manage.py seed_demo      # once, on a scratch database
    DATABASE_URL=postgres://… python bench/homes.py [--samples 5] [--goal 30] [--entries 400] [--seances 20]
    DATABASE_URL=postgres://… python bench/homes.py --seances 120 --span-days 3650   # ten years before the demo

The demo houses hold what a casino records (séances over 30 days, table-parties with their staff,
cards, dice, counts, keys, relèves, incidents, open séances with parties to open and to end). Each
role's home ("/") is requested through Django's test client, once to warm the caches, once to
count its queries (the same on every request), then ``--samples`` times: the median and 95th
percentile of the process's CPU milliseconds (wall-clock is printed too, but a shared machine
inflates it; the machine's load is printed). Then the houses get more history
(``bench/history.py``, the page-query tests' own): ``--entries`` more lines in every open
register, written by the roles that write there, and ``--seances`` more séances in each house with
their table-partie, card movements and key hand-overs, on the demo's last days and the lines over
the past year, or with ``--span-days`` both spread over that many days before the demo's; every
home is measured again. That history is written in a transaction rolled back at the end: the
scratch database stays the demo. The query counts are what tests/core/test_page_queries.py
asserts. ``bench/scale.py`` measures the same homes on houses grown to a million entries and more.
"""

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino_compliance.settings")


def percentiles(samples: list[float]) -> tuple[float, float]:
    """The median and the 95th percentile of ``samples``."""
    ordered = sorted(samples)
    return statistics.median(ordered), ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]


def page_costs(client, url: str, samples: int) -> dict:
    """``url`` requested by ``client`` once to warm the caches, once counting its queries (the same
    on every request), then ``samples`` times: its queries and the p50 and p95 of the wall-clock
    and of the process's CPU milliseconds; or the HTTP status that refused it."""
    from django.conf import settings
    from django.db import connection

    secure = not settings.DEBUG  # no redirect to HTTPS
    if (status := client.get(url, secure=secure).status_code) != 200:
        return {"status": status}
    queries = 0

    def count(execute, sql, params, many, context):
        nonlocal queries
        queries += 1
        return execute(sql, params, many, context)

    with connection.execute_wrapper(count):
        client.get(url, secure=secure)
    walls, cpus = [], []
    for _ in range(samples):
        wall, cpu = time.perf_counter(), time.process_time()
        client.get(url, secure=secure)
        walls.append((time.perf_counter() - wall) * 1000)
        cpus.append((time.process_time() - cpu) * 1000)
    (wall50, wall95), (cpu50, cpu95) = percentiles(walls), percentiles(cpus)
    return {"queries": queries, "p50_ms": wall50, "p95_ms": wall95, "cpu_p50_ms": cpu50, "cpu_p95_ms": cpu95}


def measure(samples: int) -> dict[str, dict]:
    """username → the costs of the user's home (``page_costs``), for every demo user."""
    from django.contrib.auth import get_user_model
    from django.test import Client

    from ledgers.core.demo import demo_logins
    from ledgers.core.serving import ready_to_serve

    ready_to_serve()  # as the server's processes do at their start (casino_compliance/wsgi.py)
    users = get_user_model().objects
    found = {}
    for username, _role, _est in demo_logins():
        client = Client()
        client.force_login(users.get(username=username))
        found[username] = page_costs(client, "/", samples)
        assert "status" not in found[username], (username, found[username])
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--samples", type=int, default=5)
    parser.add_argument("--goal", type=int, default=30, help="queries per home")
    parser.add_argument("--entries", type=int, default=400, help="more lines per open register")
    parser.add_argument("--seances", type=int, default=20, help="more séances per house")
    parser.add_argument(
        "--span-days",
        type=int,
        default=0,
        help="the séances on days spread over that many days before the demo's, the lines' facts dated across "
        "them (0: the séances on the demo's last days, the lines over the past year)",
    )
    args = parser.parse_args()

    import django

    django.setup()
    from django.conf import settings
    from django.db import connection, transaction

    from bench.history import more_history, more_seances, span_before_demo

    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
    command = " ".join(["python", "bench/homes.py", *sys.argv[1:]])
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"$ {command}")
    print(f"database: {connection.vendor}; load average {load} on {os.cpu_count()} CPUs; {args.samples} samples")
    demo = measure(args.samples)
    with transaction.atomic():
        started = time.perf_counter()
        span = span_before_demo(args.span_days) if args.span_days else None
        more_history(per_register=args.entries, span=span)
        more_seances(count=args.seances, span=span)
        when = f"over the {args.span_days} days before the demo's" if span else "on the demo's days"
        print(
            f"history added in {time.perf_counter() - started:.0f} s: +{args.entries} lines per open register, "
            f"+{args.seances} séances per house {when} (rolled back at the end)"
        )
        more = measure(args.samples)
        transaction.set_rollback(True)
    print(
        f"{'home of':<36}{'demo: queries':>14}{'CPU p50':>9}{'p95':>6}{'wall p50':>10}"
        f"{'more: queries':>15}{'CPU p50':>9}{'p95':>6}{'wall p50':>10}"
    )
    over, grew = [], []
    for username, before in demo.items():
        after = more[username]
        over += [username] if max(before["queries"], after["queries"]) > args.goal else []
        grew += [username] if after["queries"] != before["queries"] else []
        print(
            f"{username:<36}"
            + "".join(
                f"{costs['queries']:>{width}}{costs['cpu_p50_ms']:>9.0f}{costs['cpu_p95_ms']:>6.0f}{costs['p50_ms']:>10.0f}"
                for costs, width in ((before, 14), (after, 15))
            )
        )
    print(f"{len(over)} home(s) over {args.goal} queries: {', '.join(over) or 'none'}")
    print(f"{len(grew)} home(s) whose queries grew with the history: {', '.join(grew) or 'none'}")


if __name__ == "__main__":
    main()
