"""A casino group at scale: verification, pages and printing measured on millions of entries.

    DATABASE_URL=postgres://… python bench/scale.py [--establishments 40] [--entries 1000000]
    DATABASE_URL=postgres://… python bench/scale.py --entries 10000000   # the ten-year group

Seeds (once: a later run with the same figures reuses the group) ``--establishments`` Monaco
casinos with their staff and six registers each, and spreads ``--entries`` synthetic entries
over them as a group's registers fill up: the largest houses and the busiest registers (main
courante, cards in service, table parties) hold most of them. Entries go in through the engine's
bulk path (``entries_bulk_append``: hashed, chained, COPY), then every register is sealed (a
full verification), a visa is signed on each register and a further slice of entries is appended
after the checkpoints, as a day's work.

Then, each figure against a baseline measured in the same run:
- verification: the chain-only verification of every register (``verify_register``) against a
  plain scan of the same rows that SHA-256es each row's stored text (goal ≥ 0.5x); the full
  verification (``verify_ledgers``: chains, objects, history transactions) against the chain-only
  one (goal ≤ 1.5x); the incremental one (``--since-checkpoint``, what the daily sealing runs);
- pages: p50/p95 (ms; and the CPU time of the process that serves them, which a machine shared
  with other work inflates less than wall-clock time) and queries of the home of every role, the
  busiest register's page (first and deep), the API entries list (first and deep cursor) and the
  visa page, through Django's test client (``--samples`` requests each), once the planner's
  statistics are up to date;
- printing the volume in use of the busiest register twice, with the lowest entry each print
  reads: the first lays out from the last stored volume boundary (from entry 1 if none), the
  second from the boundaries the first stored.

Figures go to bench/results/scale-<entries>.json and are printed as a table. Run it on a scratch
database, never on a production one: the group stays (entries are append-only).
"""

import argparse
import base64
import datetime
import hashlib
import io
import json
import logging
import os
import re
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino_compliance.settings")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection, reset_queries  # noqa: E402
from django.test import Client  # noqa: E402

from ledgers.core.models import Establishment  # noqa: E402
from ledgers.core.roles import Role  # noqa: E402
from ledgers.core.services import establishment_create, membership_grant  # noqa: E402
from ledgers.registers.kinds import get_kind  # noqa: E402
from ledgers.registers.models import Entry, Register  # noqa: E402
from ledgers.registers.printing.services import volume_print  # noqa: E402
from ledgers.registers.services import (  # noqa: E402
    checkpoints_seal,
    entries_bulk_append,
    register_create,
    register_open,
    visa_sign,
)
from ledgers.registers.synthetic import synthetic_payload  # noqa: E402
from ledgers.registers.verification import verify_register  # noqa: E402

# Kinds of each house's registers, with their share of the entries.
KINDS = {
    "main_courante": 3,
    "cartes_service": 3,
    "parties_de_table": 2,
    "incidents": 1,
    "materiel_jeu": 1,
    "registre_cles": 1,
}
WRITER = Role.INSPECTEUR  # records in every kind above
ROLES = (
    Role.DIRECTEUR_JEUX,
    Role.SOUS_DIRECTEUR,
    Role.INSPECTEUR,
    Role.CHEF_TABLE,
    Role.CARTIER,
    Role.CROUPIER,
    Role.CAISSIER,
    Role.COMMISSAIRE,
    Role.SCJ,
)
POOL = 4000  # distinct synthetic payloads per kind, cycled (payload generation is not what is measured)
DAY_SHARE = 0.01  # entries appended after the checkpoints, as a share of the total
RESULTS = ROOT / "bench" / "results"


def group_code(index: int, entries: int, tag: str) -> str:
    return f"{tag}{entries}e{index:02d}"


def spread(total: int, establishments: int) -> list[list[int]]:
    """Entries per register, per house: house ``i`` weighs 1/(1 + i/4) (a few large houses, many
    small ones), each kind its share of KINDS."""
    houses = [1 / (1 + i / 4) for i in range(establishments)]
    kinds = list(KINDS.values())
    weights = [h * k for h in houses for k in kinds]
    scale = total / sum(weights)
    counts = [int(w * scale) for w in weights]
    counts[0] += total - sum(counts)
    return [counts[i : i + len(kinds)] for i in range(0, len(counts), len(kinds))]


def staff(est: Establishment) -> dict[str, object]:
    users = {}
    for role in ROLES:
        user = get_user_model().objects.create_user(username=f"{est.code}.{role}", first_name=str(role), last_name="G")
        membership_grant(user=user, establishment=est, role=role, actor=None)
        users[role] = user
    return users


def payload_pools() -> dict[str, list[dict]]:
    start = datetime.datetime(2016, 1, 1, 20, 0)
    return {kind: [synthetic_payload(get_kind(kind), n, start=start) for n in range(1, POOL + 1)] for kind in KINDS}


def cycled(pool: list[dict], count: int, offset: int):
    return (pool[(offset + n) % len(pool)] for n in range(count))


def seed(establishments: int, entries: int, tag: str) -> list[Register]:
    """The group's registers, seeded unless a run with the same figures already did."""
    codes = [group_code(i, entries, tag) for i in range(establishments)]
    existing = Register.objects.filter(establishment__code__in=codes)
    if Establishment.objects.filter(code=codes[-1]).exists() and existing.filter(qualifier="").count() == len(
        codes
    ) * len(KINDS):
        print(f"reusing the group of {entries} entries ({existing.count()} registers)")
        return list(existing.order_by("-head_seq"))
    if Establishment.objects.filter(code__in=codes).exists():
        raise SystemExit(f"an interrupted run left part of the group {tag}{entries}: pass another --tag")
    pools = payload_pools()
    started = time.perf_counter()
    written, day = 0, []
    for i, counts in enumerate(spread(entries, establishments)):
        est = establishment_create(code=codes[i], name=f"Casino {i + 1:02d}", jurisdiction="MC", actor=None)
        users = staff(est)
        for kind, count in zip(KINDS, counts, strict=True):
            register = register_create(establishment=est, kind=kind, actor=users[Role.DIRECTEUR_JEUX])
            paraphers = register.kind_info.paraph_roles_for(est.jurisdiction)
            register_open(register=register, actor=next(users[r] for r in paraphers if r in users), paraphe="G.S.")
            register = Register.objects.get(pk=register.pk)
            later = int(count * DAY_SHARE)
            entries_bulk_append(
                register=register, actor=users[WRITER], role=WRITER, payloads=cycled(pools[kind], count - later, 0)
            )
            visa_sign(register=register, actor=users[Role.SCJ], up_to_seq=register.head_seq, statement="")
            day.append((register, users[WRITER], later, pools[kind]))
            written += count
        rate = written / (time.perf_counter() - started)
        print(f"  {codes[i]}: {written} entries written, {rate:.0f}/s", flush=True)
    sealed = checkpoints_seal(registers=Register.objects.filter(establishment__code__in=codes), full=True)
    assert all(isinstance(s.seq, int) for s in sealed), sealed
    for register, writer, later, pool in day:  # the day's work after the checkpoints
        entries_bulk_append(register=register, actor=writer, role=WRITER, payloads=cycled(pool, later, 1))
    print(f"seeded {written} entries in {time.perf_counter() - started:.0f} s", flush=True)
    return list(existing.order_by("-head_seq"))


def timed(action) -> float:
    start = time.perf_counter()
    action()
    return time.perf_counter() - start


def plain_scan(registers: list[Register]) -> int:
    """The baseline: every entry's stored columns read in seq order through a server-side cursor
    and SHA-256ed as text, with no canonical form and no checks."""
    count = 0
    with connection.cursor() as probe:
        probe.execute("SELECT 1")
    raw = connection.connection
    with raw.transaction():
        for register in registers:
            with raw.cursor(name="plain_scan") as cursor:
                cursor.itersize = 2000
                cursor.execute(
                    "SELECT seq, recorded_at, actor, role, kind, payload::text, corrects_id, prev_hash, entry_hash "
                    "FROM registers_entry WHERE register_id = %s ORDER BY seq",
                    [register.pk],
                )
                for row in cursor:
                    hashlib.sha256("|".join(map(str, row)).encode()).hexdigest()
                    count += 1
    return count


def chain_only(registers: list[Register]) -> None:
    bad = [f for f in (verify_register(r) for r in registers) if f is not None]
    assert not bad, bad


def verify_command(*args: str) -> None:
    out = io.StringIO()
    call_command("verify_ledgers", *args, stdout=out)
    assert "ÉCHEC" not in out.getvalue(), out.getvalue()


def percentiles(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    return statistics.median(ordered) * 1000, ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))] * 1000


class Counted:
    """An execute wrapper that counts the queries of a request."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(self, execute, sql, params, many, context):
        self.count += 1
        return execute(sql, params, many, context)


def pages(register: Register, samples: int) -> list[dict]:
    """p50/p95 and queries of each page, as each role of the busiest register's house."""
    est = register.establishment
    head = register.head_seq
    deep_cursor = base64.b64encode(f"p={head - 60}".encode()).decode()
    urls = {
        "home": "/",
        "register first page": f"/registres/{register.number}/",
        "register deep page": f"/registres/{register.number}/?after={head - 60}",
        "API entries first": f"/api/v1/registers/{register.number}/entries/",
        "API entries deep cursor": f"/api/v1/registers/{register.number}/entries/?cursor={deep_cursor}",
        "visa page": f"/registres/{register.number}/visa/",
    }
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
    logging.getLogger("django.request").setLevel(logging.CRITICAL)  # the refusals of pages a role may not see
    rows = []
    for membership in est.memberships.select_related("user").order_by("role"):
        client = Client()
        client.force_login(membership.user)
        client.get("/")  # the session and caches warm
        for page, url in urls.items():
            if page != "home" and membership.role not in (Role.INSPECTEUR, Role.SCJ, Role.DIRECTEUR_JEUX):
                continue
            queries = Counted()
            with connection.execute_wrapper(queries):
                first = client.get(url, secure=not settings.DEBUG)
            if first.status_code == 403:  # not this role's page
                continue
            if first.status_code != 200:
                rows.append({"role": membership.role, "page": page, "status": first.status_code})
                continue
            times, cpu = [], []
            for _sample in range(samples):
                started = time.process_time()
                times.append(timed(lambda url=url, client=client: client.get(url, secure=not settings.DEBUG)))
                cpu.append(time.process_time() - started)
                reset_queries()
            p50, p95 = percentiles(times)
            cpu50, cpu95 = percentiles(cpu)
            rows.append(
                {
                    "role": membership.role,
                    "page": page,
                    "p50_ms": p50,
                    "p95_ms": p95,
                    "cpu_p50_ms": cpu50,
                    "cpu_p95_ms": cpu95,
                    "queries": queries.count,
                }
            )
    return rows


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--establishments", type=int, default=40)
    parser.add_argument("--entries", type=int, default=1_000_000)
    parser.add_argument("--samples", type=int, default=20, help="requests per page and role")
    parser.add_argument("--rounds", type=int, default=2, help="verification rounds (best kept)")
    parser.add_argument("--tag", default="g", help="prefix of the group's establishment codes")
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
        raise SystemExit("set LEDGERS_SIGNING_KEY (or run with DEBUG on): the group's registers are sealed")

    registers = seed(args.establishments, args.entries, args.tag)
    total = sum(r.head_seq for r in registers)
    results: dict = {
        "postgresql": connection.pg_version,
        "establishments": args.establishments,
        "registers": len(registers),
        "entries": total,
    }
    if "verify" in args.only:
        results["verification"] = verification(registers, total, args.rounds)
    if "pages" in args.only:
        with connection.cursor() as cursor:  # the planner's statistics, as autovacuum keeps them after a load
            cursor.execute("ANALYZE")
        results["pages"] = pages(registers[0], args.samples)
    if "print" in args.only:
        results["printing"] = printing(registers[0])
    # The machine's load when each measure ended: absolute times depend on it.
    samples = f", {args.samples} samples a page" if "pages" in args.only else ""
    load = {measure: f"load average {os.getloadavg()[0]:.1f}" + samples * (measure == "pages") for measure in args.only}
    RESULTS.mkdir(exist_ok=True)
    path = RESULTS / f"scale-{args.entries}.json"
    if path.exists():  # a partial run keeps the figures it did not measure
        earlier = json.loads(path.read_text(encoding="utf-8"))
        load = {**earlier.get("load", {}), **load}
        results = {**earlier, **results}
    results["load"] = load
    path.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    report(results)
    print(f"\nwritten to {path.relative_to(ROOT)}")


def verification(registers: list[Register], total: int, rounds: int) -> dict:
    t_plain = t_chain = float("inf")
    for _round in range(rounds):  # alternated, so that the machine's load weighs on both
        t_plain = min(t_plain, timed(lambda: plain_scan(registers)))
        t_chain = min(t_chain, timed(lambda: chain_only(registers)))
    t_full = timed(lambda: verify_command())
    t_incremental = timed(lambda: verify_command("--since-checkpoint"))
    figures = {
        "plain_scan_s": t_plain,
        "chain_only_s": t_chain,
        "full_s": t_full,
        "incremental_s": t_incremental,
        "chain_only_vs_plain_scan": t_plain / t_chain,
        "full_vs_chain_only": t_full / t_chain,
        "chain_only_entries_per_s": total / t_chain,
    }
    print(json.dumps(figures, indent=1), flush=True)
    return figures


def report(results: dict) -> None:
    print(f"\n{results['entries']} entries, {results['registers']} registers, {results['establishments']} houses")
    if "verification" in results:
        v = results["verification"]
        print(f"chain-only verify   {v['chain_only_s']:8.1f} s  {v['chain_only_vs_plain_scan']:.2f}x the plain scan")
        print(f"full verify         {v['full_s']:8.1f} s  {v['full_vs_chain_only']:.2f}x the chain-only")
        print(f"incremental verify  {v['incremental_s']:8.1f} s")
    if "printing" in results:
        p = results["printing"]
        for when in ("first", "in_use"):
            q = p[when]
            print(
                f"print ({when:6})      {q['seconds']:8.1f} s  {p['register']} ({p['entries']} entries), volume "
                f"{q['volume']} ({q['pages']} pages), entries read from n° {q['first_entry_read']}"
            )
    print(f"\n{'role':24}{'page':26}{'p50 ms':>8}{'p95 ms':>8}{'cpu p95':>8}{'queries':>8}")
    for row in results.get("pages", []):
        if "status" in row:
            print(f"{row['role']:24}{row['page']:26}  HTTP {row['status']}")
            continue
        cpu = f"{row['cpu_p95_ms']:8.1f}" if "cpu_p95_ms" in row else f"{'':8}"
        print(f"{row['role']:24}{row['page']:26}{row['p50_ms']:8.1f}{row['p95_ms']:8.1f}{cpu}{row['queries']:8}")


if __name__ == "__main__":
    main()
