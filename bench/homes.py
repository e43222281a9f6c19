"""Every demo role's home on a house with real activity: queries, wall-clock and CPU per request.

    DATABASE_URL=postgres://… python manage.py seed_demo      # once, on a scratch database
    DATABASE_URL=postgres://… python bench/homes.py [--samples 5] [--goal 30]

The demo houses hold what a casino records (séances over 30 days, table-parties with their staff,
cards, dice, counts, keys, relèves, incidents, open séances with parties to open and to end). Each
role's home ("/") is requested through Django's test client, once to warm the caches, then
``--samples`` times: its queries (the same on every request), the median and worst wall-clock
and CPU milliseconds of the process. Printed with the machine's load, since a shared machine
inflates wall-clock times; the query counts are what the tests assert.
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--samples", type=int, default=5)
    parser.add_argument("--goal", type=int, default=30, help="queries per home")
    args = parser.parse_args()

    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from ledgers.core.demo import demo_logins

    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
    users = get_user_model().objects
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"database: {connection.vendor}; load average {load} on {os.cpu_count()} CPUs; {args.samples} samples")
    print(f"{'home of':<36}{'queries':>8}{'wall p50':>10}{'max':>8}{'CPU p50':>9}{'max':>8}")
    over = []
    for username, _role, _est in demo_logins():
        client = Client()
        client.force_login(users.get(username=username))
        client.get("/")
        walls, cpus, counts = [], [], set()
        for _ in range(args.samples):
            with CaptureQueriesContext(connection) as captured:
                wall, cpu = time.perf_counter(), time.process_time()
                response = client.get("/")
                walls.append((time.perf_counter() - wall) * 1000)
                cpus.append((time.process_time() - cpu) * 1000)
            assert response.status_code == 200, (username, response.status_code)
            counts.add(len(captured))
        queries = max(counts)
        if queries > args.goal:
            over.append(username)
        print(
            f"{username:<36}{queries:>8}{statistics.median(walls):>10.0f}{max(walls):>8.0f}"
            f"{statistics.median(cpus):>9.0f}{max(cpus):>8.0f}"
        )
    print(f"{len(over)} home(s) over {args.goal} queries: {', '.join(over) or 'none'}")


if __name__ == "__main__":
    main()
