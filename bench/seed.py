"""The demo's seeding: wall-clock, CPU of the process and queries, with the machine's load.

    createdb … && DATABASE_URL=postgres://… python manage.py migrate     # an empty, migrated database
    DATABASE_URL=postgres://… python bench/seed.py

Runs ``seed_demo`` once (it must find the database empty: a second run only completes what is
missing) and prints its wall-clock seconds, the CPU seconds of this process and of the processes
it forked to seed the houses apart (the database's own work is in the wall-clock only) and the
number of queries they sent; the machine's load average is printed before and after, since a
shared machine inflates wall-clock times.
"""

import multiprocessing
import os
import resource
import sys
import time
from io import StringIO
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino_compliance.settings")


def main() -> None:
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    sent = multiprocessing.Value("q", 0)  # shared memory: the forked processes count there too

    def count(execute, sql, params, many, context):
        with sent.get_lock():
            sent.value += 1
        return execute(sql, params, many, context)

    def children_cpu() -> float:  # of the processes forked and waited for
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        return usage.ru_utime + usage.ru_stime

    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"$ python bench/seed.py   (database: {connection.vendor}; load average {load} on {os.cpu_count()} CPUs)")
    wall, cpu, forked = time.perf_counter(), time.process_time(), children_cpu()
    with connection.execute_wrapper(count):
        call_command("seed_demo", stdout=StringIO())
    wall, cpu, forked = time.perf_counter() - wall, time.process_time() - cpu, children_cpu() - forked
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(
        f"seed_demo: {wall:.1f} s wall, {cpu + forked:.1f} s CPU ({forked:.1f} s of it in forked processes), "
        f"{sent.value} queries (load average after: {load})"
    )


if __name__ == "__main__":
    main()
