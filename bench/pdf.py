"""A printed score sheet (ledger/web/printing.py): the pages' stylesheet parsed once a process, against
parsed again for every PDF as before.

    .venv/bin/python bench/pdf.py [--runs 10] [--deals 40] [--paper A4]

A valid French session of `--deals` deals (`random_sheet`, seed 41) is imported into a temporary SQLite
file; its score sheet is then printed `--runs` times each way, interleaved so both see the same machine:

- **parsed once**: `printing.template_pdf`, as the pages and the evening's mail print it (app.css parsed on
  the first PDF of the process, then reused while the file is unchanged);
- **parsed each time** (the floor here is the way before): the same template rendered, then the same HTML
  drawn by WeasyPrint with the document's own link to app.css fetched and parsed, as printing.py did.

It prints each way's median (wall clock, and CPU time: the steadier one on a shared machine) and the
ratio of the medians, the first PDF of the process (which pays the parse), and checks that both ways give
the same pages: count, size and text (pypdf).
"""

from __future__ import annotations

import argparse
import io
import logging
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

from benchlib import django_setup, machine, migrate, percentile


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms"


def pages(pdf: bytes) -> list[tuple[int, int, str]]:
    import pypdf

    return [
        (round(float(p.mediabox.width)), round(float(p.mediabox.height)), p.extract_text())
        for p in pypdf.PdfReader(io.BytesIO(pdf)).pages
    ]


def measure(runs: int, deals: int, size: str) -> bool:
    from django.contrib.auth import get_user_model
    from django.template.loader import render_to_string
    from weasyprint import HTML

    from ledger.engine.samples import random_sheet
    from ledger.models import Role
    from ledger.services.clubs import club_create
    from ledger.services.sessions import session_import
    from ledger.web import printing
    from ledger.web.views import sheet_context

    user = get_user_model().objects.create_user("bench-pdf")
    club = club_create(actor=user, name="Printed sheets")
    sheet = random_sheet("french", random.Random(41), deals, adjust_rate=0.2)
    session = session_import(actor=user, club_id=club.pk, sheet=sheet)
    context = sheet_context(session, Role.PLAYER)

    def once() -> bytes:
        return printing.template_pdf("web/sheet.html", context, size=size)

    def each_time() -> bytes:
        html = render_to_string("web/sheet.html", {**context, "printed": True})
        document = HTML(
            string=printing.with_paper(html, size), base_url=printing.BASE, url_fetcher=printing.fetcher(())
        )
        return bytes(document.write_pdf())

    start = time.perf_counter()
    first = once()
    first_time = time.perf_counter() - start
    reference = each_time()
    same = pages(first) == pages(reference)
    timings: dict[str, list[float]] = {"once": [], "each": []}
    cpu: dict[str, list[float]] = {"once": [], "each": []}
    for _ in range(runs):
        for name, fn in (("once", once), ("each", each_time)):
            start, start_cpu = time.perf_counter(), time.process_time()
            fn()
            timings[name].append(time.perf_counter() - start)
            cpu[name].append(time.process_time() - start_cpu)
    once_median = statistics.median(timings["once"])
    each_median = statistics.median(timings["each"])
    once_cpu, each_cpu = statistics.median(cpu["once"]), statistics.median(cpu["each"])
    deals, printed = len(sheet["hands"]), len(pages(first))
    print(f"\n== the score sheet of a {deals}-deal French evening on {size}: {printed} pages, {runs} runs each way")
    for name, label in (("once", "parsed once"), ("each", "parsed each time (before)")):
        t = timings[name]
        print(
            f"  {label:26}: median {ms(statistics.median(t))}, p90 {ms(percentile(t, 90))}, min {ms(min(t))};"
            f" CPU median {ms(statistics.median(cpu[name]))}"
        )
    print(f"  the first PDF of the process (it parses app.css, and WeasyPrint warms up): {ms(first_time)}")
    print(
        f"  ratio parsed once / parsed each time (medians): {once_median / each_median:.2f},"
        f" in CPU time {once_cpu / each_cpu:.2f}"
    )
    print(f"  the same pages both ways (count, size, text): {'yes' if same else 'NO'}")
    return same


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--paper", choices=["A4", "Letter"], default="A4")
    args = parser.parse_args()
    print(f"machine: {machine()}")
    with tempfile.TemporaryDirectory(prefix="clubscore-bench-") as tmp:
        env = {
            "DATABASE_URL": f"sqlite:///{Path(tmp) / 'bench.sqlite3'}",
            "DJANGO_SETTINGS_MODULE": "clubscore.settings",
        }
        os.environ.pop("REDIS_URL", None)  # Celery eager: the import's follow-up runs in process
        migrate(env)
        django_setup(env)
        # app.css's rules WeasyPrint does not support are warned at each parse (about 20 lines): silenced,
        # so the way before is not charged for writing them out.
        logging.getLogger("weasyprint").setLevel(logging.ERROR)
        try:
            same = measure(args.runs, args.deals, args.paper)
        finally:
            from django.db import connection

            connection.close()
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
