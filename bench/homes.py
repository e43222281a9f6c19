"""Every demo role's home on a house with real activity, then on the same house with months more
of it: queries and CPU milliseconds per request, side by side.

    DATABASE_URL=postgres://… python manage.py seed_demo      # once, on a scratch database
    DATABASE_URL=postgres://… python bench/homes.py [--samples 5] [--goal 30] [--entries 400] [--seances 20]

The demo houses hold what a casino records (séances over 30 days, table-parties with their staff,
cards, dice, counts, keys, relèves, incidents, open séances with parties to open and to end). Each
role's home ("/") is requested through Django's test client, once to warm the caches, then
``--samples`` times: its queries (the same on every request) and the median and worst CPU
milliseconds of the process (wall-clock is printed too, but a shared machine inflates it; the
machine's load is printed). Then the houses get more history (``bench/history.py``, the page-query
tests' own): ``--entries`` more lines in every open register, written by each role that writes
there over the past year, and ``--seances`` more séances in each house with their table-partie,
card movements and key hand-overs; every home is measured again. That history is written in a
transaction rolled back at the end: the scratch database stays the demo. The query counts are
what tests/core/test_page_queries.py asserts.
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


def measure(samples: int) -> dict[str, tuple[int, float, float, float, float]]:
    """username → (queries, wall p50, wall max, CPU p50, CPU max) of the user's home."""
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from ledgers.core.demo import demo_logins

    users = get_user_model().objects
    found = {}
    for username, _role, _est in demo_logins():
        client = Client()
        client.force_login(users.get(username=username))
        client.get("/")
        walls, cpus, counts = [], [], set()
        for _ in range(samples):
            with CaptureQueriesContext(connection) as captured:
                wall, cpu = time.perf_counter(), time.process_time()
                response = client.get("/")
                walls.append((time.perf_counter() - wall) * 1000)
                cpus.append((time.process_time() - cpu) * 1000)
            assert response.status_code == 200, (username, response.status_code)
            counts.add(len(captured))
        found[username] = (max(counts), statistics.median(walls), max(walls), statistics.median(cpus), max(cpus))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--samples", type=int, default=5)
    parser.add_argument("--goal", type=int, default=30, help="queries per home")
    parser.add_argument("--entries", type=int, default=400, help="more lines per open register")
    parser.add_argument("--seances", type=int, default=20, help="more séances per house")
    args = parser.parse_args()

    import django

    django.setup()
    from django.conf import settings
    from django.db import connection, transaction

    from bench.history import more_history, more_seances

    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
    command = " ".join(["python", "bench/homes.py", *sys.argv[1:]])
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"$ {command}")
    print(f"database: {connection.vendor}; load average {load} on {os.cpu_count()} CPUs; {args.samples} samples")
    demo = measure(args.samples)
    with transaction.atomic():
        started = time.perf_counter()
        more_history(per_register=args.entries)
        more_seances(count=args.seances)
        print(
            f"history added in {time.perf_counter() - started:.0f} s: +{args.entries} lines per open register, "
            f"+{args.seances} séances per house (rolled back at the end)"
        )
        more = measure(args.samples)
        transaction.set_rollback(True)
    print(
        f"{'home of':<36}{'demo: queries':>14}{'CPU p50':>9}{'max':>6}{'wall p50':>10}"
        f"{'more: queries':>15}{'CPU p50':>9}{'max':>6}{'wall p50':>10}"
    )
    over, grew = [], []
    for username, (q, wall, _wmax, cpu, cpumax) in demo.items():
        q2, wall2, _wmax2, cpu2, cpumax2 = more[username]
        over += [username] if max(q, q2) > args.goal else []
        grew += [username] if q2 != q else []
        print(
            f"{username:<36}{q:>14}{cpu:>9.0f}{cpumax:>6.0f}{wall:>10.0f}{q2:>15}{cpu2:>9.0f}{cpumax2:>6.0f}{wall2:>10.0f}"
        )
    print(f"{len(over)} home(s) over {args.goal} queries: {', '.join(over) or 'none'}")
    print(f"{len(grew)} home(s) whose queries grew with the history: {', '.join(grew) or 'none'}")


if __name__ == "__main__":
    main()
