"""Benchmark: printing a register against a raw reportlab canvas, in the same run.

    DATABASE_URL=postgres://… python bench/render.py [--sizes 5000 20000 100000] [--repeat 3]

For each size, a main courante of that many realistic entries (``ledgers.registers.synthetic``:
a time, a subject, a short observation) is created once (``entries_bulk_append``) and kept. Each
measurement runs in its own subprocess, so that its peak RSS (``ru_maxrss``) is its own: the
register renderer (``render_register_volumes``: every volume of the register, each on its own
canvas and in its own file, two passes, wrapped cells, rules, headers, footers, covers, acts) and
the baseline, which reads the same rows from the database and draws each cell with
``canvas.drawString`` on one line on a single canvas, with the same font, page size and rows per
page ("canvas-wrapped": each cell wrapped to its column with ``simpleSplit``). The best time of
``--repeat`` runs is kept. Reported: time ratio (goal ≤ 1.25), linearity of the render from the
smallest to the largest size, peak RSS (goal < 200 MB at any size, flat with size). Results also
go to bench/results/render.json.
"""

import argparse
import datetime
import json
import math
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino_compliance.settings")


def payloads(count: int):
    """Realistic main courante entries (a time, a subject, a short observation), as seed_volume writes."""
    from ledgers.registers.kinds import get_kind
    from ledgers.registers.synthetic import synthetic_payloads

    return synthetic_payloads(get_kind("main_courante"), count, start=datetime.datetime(2025, 1, 1, 20, 0))


def ensure_register(size: int) -> str:
    """The bench register of ``size`` entries (opening act + records), created once."""
    from django.contrib.auth import get_user_model

    from ledgers.core.models import Establishment
    from ledgers.core.services import establishment_create, membership_grant
    from ledgers.registers import services
    from ledgers.registers.models import Register

    # Through its service, with its history, so that the database left verifies.
    est = Establishment.objects.filter(code="bench").first() or establishment_create(
        code="bench", name="Casino de banc d'essai", jurisdiction="MC", actor=None
    )
    qualifier = f"r{size}"  # realistic rows (the "b" registers of earlier runs had sentences in every column)
    register = Register.objects.filter(establishment=est, qualifier=qualifier, head_seq=size).first()
    if register is not None:
        return register.number
    users = {}
    for role in ("directeur_jeux", "commissaire", "inspecteur"):
        users[role], _ = get_user_model().objects.get_or_create(
            username=f"bench-{role}", defaults={"first_name": "Banc", "last_name": role.replace("_", " ").title()}
        )
        membership_grant(user=users[role], establishment=est, role=role, actor=None)
    register = services.register_create(
        establishment=est, kind="main_courante", actor=users["directeur_jeux"], qualifier=qualifier
    )
    services.register_open(register=register, actor=users["commissaire"], paraphe="B. C.")
    services.entries_bulk_append(
        register=register, actor=users["inspecteur"], role="inspecteur", payloads=payloads(size - 1)
    )
    return register.number


def child_render(number: str, out: str) -> dict:
    """Every volume of the register, each into its own file (``out`` with the volume number)."""
    from ledgers.registers.models import Register
    from ledgers.registers.printing import render_register_volumes

    register = Register.objects.get(number=number)
    files = []

    def output(volume):
        files.append(open(f"{out}.{volume.number}", "wb"))  # closed below
        return files[-1]

    wall, cpu = time.perf_counter(), time.process_time()
    try:
        volumes = render_register_volumes(register, output)
    finally:
        for f in files:
            f.close()
    seconds, cpu = time.perf_counter() - wall, time.process_time() - cpu
    return {
        "seconds": seconds,
        "cpu": cpu,
        "pages": sum(v.pages for v in volumes),
        "content_pages": sum(v.content_pages for v in volumes),
        "volumes": len(volumes),
        "bytes": sum(os.path.getsize(f.name) for f in files),
    }


def child_canvas(number: str, out: str, rows_per_page: int, wrapped: bool) -> dict:
    """A baseline: the same rows read from the database and drawn with ``canvas.drawString``,
    the same font, page size and rows per page; ``wrapped``: each cell split to its column width
    with reportlab's ``simpleSplit`` and drawn line by line, else each cell on one line."""
    from reportlab.lib.utils import simpleSplit
    from reportlab.pdfgen.canvas import Canvas

    from ledgers.registers.models import Entry, Register
    from ledgers.registers.printing.blocks import BODY_TOP, LEADING, PAGE_HEIGHT, PAGE_WIDTH, Table
    from ledgers.registers.printing.fonts import REGULAR, register_fonts

    register_fonts()
    register = Register.objects.get(number=number)
    keys = [col.key for col in register.kind_info.columns]
    table = Table.build(
        [("", 40.0, 0), ("", 84.0, 0), *(("", None, c.width) for c in register.kind_info.columns), ("", 140.0, 0)]
    )
    wall, cpu = time.perf_counter(), time.process_time()
    c = Canvas(out, pagesize=(PAGE_WIDTH, PAGE_HEIGHT), invariant=1)
    c.setFont(REGULAR, 8)
    rows = (
        Entry.objects.filter(register=register)
        .order_by("seq")
        .values_list("seq", "recorded_at", "actor", "role", "payload")
    )
    on_page, pages = 0, 1
    y = BODY_TOP
    for seq, recorded_at, actor, role, payload in rows.iterator(chunk_size=2000):
        cells = [
            str(seq),
            recorded_at.strftime("%d/%m/%Y %H:%M:%S"),
            *(str(payload.get(k, "")) for k in keys),
            f"{actor} — {role}",
        ]
        depth = 1
        for x, width, text in zip(table.xs, table.widths, cells, strict=True):
            lines = simpleSplit(text, REGULAR, 8, width - 6) if wrapped else [text]
            for i, line in enumerate(lines):
                c.drawString(x + 3, y - i * LEADING, line)
            depth = max(depth, len(lines))
        y -= LEADING * (depth + 0.5)
        on_page += 1
        if on_page == rows_per_page:
            c.showPage()
            c.setFont(REGULAR, 8)
            on_page, y, pages = 0, BODY_TOP, pages + 1
    c.save()
    return {"seconds": time.perf_counter() - wall, "cpu": time.process_time() - cpu, "pages": pages}


def run_child(*args: str) -> dict:
    out = subprocess.run([sys.executable, __file__, "--child", *args], check=True, capture_output=True, text=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


MODES = ("render", "canvas", "canvas-wrapped")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[5000, 20000, 100000])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--child", nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args()

    import django

    django.setup()
    if args.child:
        mode, number, out, *rest = args.child
        if mode == "render":
            result = child_render(number, out)
        else:
            result = child_canvas(number, out, int(rest[0]), wrapped=mode == "canvas-wrapped")
        result["max_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(json.dumps(result))
        return

    from django.db import connection

    print(
        f"database: {connection.vendor}; best of {args.repeat} interleaved runs, each in its own process; "
        "wall-clock seconds (CPU seconds of the Python process in brackets); load average "
        f"{' '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} CPUs"
    )
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        for size in args.sizes:
            number = ensure_register(size)
            out = os.path.join(tmp, f"{size}.pdf")
            first = run_child("render", number, out)
            pages, volumes, pdf_mb = first["pages"], first["volumes"], first["bytes"] / 2**20
            per_page = str(math.ceil(size / first["content_pages"]))
            runs = {mode: [] for mode in MODES}
            runs["render"].append(first)
            for i in range(args.repeat):  # interleaved, so that a busy machine slows all three alike
                if i:
                    runs["render"].append(run_child("render", number, out))
                runs["canvas"].append(run_child("canvas", number, out, per_page))
                runs["canvas-wrapped"].append(run_child("canvas-wrapped", number, out, per_page))
            best = {mode: min(r["seconds"] for r in rs) for mode, rs in runs.items()}
            cpu = {mode: min(r["cpu"] for r in rs) for mode, rs in runs.items()}
            rss = {mode: max(r["max_rss_mb"] for r in rs) for mode, rs in runs.items()}
            row = {
                "entries": size,
                "pages": pages,
                "volumes": volumes,
                "rows_per_page": int(per_page),
                "pdf_mb": round(pdf_mb, 2),
                **{f"{mode}_s": round(best[mode], 3) for mode in MODES},
                **{f"{mode}_cpu_s": round(cpu[mode], 3) for mode in MODES},
                **{f"{mode}_rss_mb": round(rss[mode], 1) for mode in MODES},
                "ratio_vs_canvas": round(best["render"] / best["canvas"], 3),
                "ratio_vs_canvas_wrapped": round(best["render"] / best["canvas-wrapped"], 3),
                "cpu_ratio_vs_canvas": round(cpu["render"] / cpu["canvas"], 3),
            }
            results.append(row)
            print(
                f"{size:>6} entries, {pages} pages in {volumes} volume(s), {per_page} entries a page, "
                f"PDF {pdf_mb:.1f} MB"
            )
            for mode in MODES:
                print(f"  {mode:<15} {best[mode]:7.3f} s ({cpu[mode]:6.3f})   peak RSS {rss[mode]:5.0f} MB")
            print(
                f"  ratio render / canvas {row['ratio_vs_canvas']:.2f}, render / canvas-wrapped "
                f"{row['ratio_vs_canvas_wrapped']:.2f} (goal ≤ 1.25); CPU render / canvas "
                f"{row['cpu_ratio_vs_canvas']:.2f} (steadier on a shared machine)"
            )
    if len(results) > 1:
        small, large = results[0], results[-1]
        scale = large["entries"] / small["entries"]
        print(
            f"linearity {small['entries']} → {large['entries']} entries (×{scale:.0f}): "
            f"render ×{large['render_s'] / small['render_s']:.2f}, "
            f"canvas ×{large['canvas_s'] / small['canvas_s']:.2f}; render peak RSS {small['render_rss_mb']:.0f} → "
            f"{large['render_rss_mb']:.0f} MB (goal < 200 MB, flat)"
        )
    results_dir = ROOT / "bench" / "results"
    results_dir.mkdir(exist_ok=True)
    (results_dir / "render.json").write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
