"""Amending deal 1 of a 40-deal session: the whole session replays and its projection is rewritten.

    .venv/bin/python bench/replay.py [--runs 60] [--variant french --variant russian] [--sqlite]

For each variant (default: French and Russian, the variants of long evenings) a valid 40-deal
session (`ledger.engine.samples.random_sheet`) is imported into a fresh database (PostgreSQL
`--database`, default clubscore_bench_replay, dropped at the end; or a temporary SQLite file with
--sqlite). Then `ledger.services.hands.hand_amend` replaces deal 1, alternately with two different hands
with which all 40 deals stay valid, `--runs` times: each amendment locks the session, replays its 40
deals through the engine, rewrites every hand's settled JSON that changed, the session's
projection and version, and records the revision, in one transaction. Target: median < 50 ms.

The floor, measured in the same run and interleaved with the amendments (so both see the same
machine): a bare save of one hand row (`Hand.save(update_fields=["raw"])`) in its own durable
transaction (a hand of another session, so the amended one is left alone): the least an amendment
must do. Also printed: the engine's replay of the 40 deals
alone (`ledger.engine.settle` of the session's sheet), which is the part no database can speed up.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from benchlib import (
    django_setup,
    drop_postgres,
    fresh_postgres,
    machine,
    migrate,
    percentile,
    projection_mismatches,
    random_session_sheet,
)


def other_first_hand(sheet: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A deal 1 other than the sheet's with which every deal of the sheet still settles."""
    from ledger.engine import EngineError, settle
    from ledger.engine.samples import random_hand
    from ledger.engine.variants import get_variant

    variant = get_variant(sheet["variant"])
    for _ in range(20000):
        candidate = random_hand(variant, rng)
        if candidate == sheet["hands"][0]:
            continue
        try:
            settle(dict(sheet, hands=[candidate, *sheet["hands"][1:]]))
        except EngineError:
            continue
        return candidate
    raise RuntimeError("no other valid deal 1 found")


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def measure(variant: str, runs: int, rng: random.Random) -> tuple[float, bool]:
    from django.contrib.auth import get_user_model
    from django.db import transaction

    from ledger import selectors
    from ledger.engine import settle
    from ledger.models import Hand, Session
    from ledger.services.clubs import club_create
    from ledger.services.hands import hand_amend
    from ledger.services.sessions import session_import

    user = get_user_model().objects.create_user(f"bench-{variant}")
    club = club_create(actor=user, name=f"Replay {variant}")
    sheet = None
    while sheet is None or len(sheet["hands"]) < 40:  # a game that ended early would be a shorter session
        sheet = random_session_sheet(variant, rng, 40)
    session = session_import(actor=user, club_id=club.pk, sheet=sheet)
    hands = [sheet["hands"][0], other_first_hand(sheet, rng)]
    # The floor writes a hand of its own session, so the amended session stays as the amendments left it.
    scratch = session_import(actor=user, club_id=club.pk, sheet=dict(sheet, hands=sheet["hands"][:1]))
    scratch_hand = Hand.objects.get(session=scratch, number=1)
    stored_sheet = selectors.session_sheet(session=Session.objects.get(pk=session.pk))

    def amend(i: int) -> None:
        version = Session.objects.values_list("version", flat=True).get(pk=session.pk)
        hand_amend(actor=user, session_id=session.pk, number=1, hand=hands[(i + 1) % 2], expected_version=version)

    def floor(i: int) -> None:
        with transaction.atomic(durable=True):
            scratch_hand.raw = hands[(i + 1) % 2]  # one UPDATE of one hand row
            scratch_hand.save(update_fields=["raw"])

    def engine(i: int) -> None:
        settle(stored_sheet)

    for warm in range(3):
        amend(warm)
        floor(warm)
    timings: dict[str, list[float]] = {"amend": [], "floor": [], "engine": []}
    for i in range(runs):  # interleaved: the three see the same machine
        for name, fn in (("amend", amend), ("floor", floor), ("engine", engine)):
            start = time.perf_counter()
            fn(i + 3)
            timings[name].append(time.perf_counter() - start)

    amend_median = statistics.median(timings["amend"])
    floor_median = statistics.median(timings["floor"])
    engine_median = statistics.median(timings["engine"])
    print(f"\n== {variant}: amend deal 1 of {len(sheet['hands'])} deals, {runs} runs")
    for name in ("amend", "floor", "engine"):
        t = timings[name]
        print(
            f"  {name:6}: median {ms(statistics.median(t))}, p90 {ms(percentile(t, 90))}, min {ms(min(t))}, "
            f"max {ms(max(t))}"
        )
    ok = amend_median < 0.050
    print(f"  ratio amend/floor (medians): {amend_median / floor_median:.1f}x")
    print(f"  the engine's replay alone: {engine_median / amend_median:.0%} of an amendment")
    print(f"  target median < 50 ms: {'ok' if ok else 'MISS'}")
    bad = projection_mismatches([session.pk])
    print(f"  after {runs + 3} amendments the projection equals a replay: {'yes' if not bad else 'NO ' + bad[0]}")
    return amend_median, not bad


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=60)
    parser.add_argument("--variant", action="append", choices=["french", "russian"])
    parser.add_argument("--sqlite", action="store_true", help="a temporary SQLite file instead of PostgreSQL")
    parser.add_argument("--admin-url", default="postgres://postgres@127.0.0.1:5432/postgres")
    parser.add_argument("--database", default="clubscore_bench_replay")
    parser.add_argument("--seed", type=int, default=40)
    args = parser.parse_args()
    variants = args.variant or ["french", "russian"]

    print(f"machine: {machine()}")
    tmp = None
    if args.sqlite:
        tmp = tempfile.TemporaryDirectory(prefix="clubscore-bench-")
        url = f"sqlite:///{Path(tmp.name) / 'bench.sqlite3'}"
    else:
        url = fresh_postgres(args.admin_url, args.database)
    print(f"database: {url.split('@')[-1]}")
    env = {"DATABASE_URL": url, "DJANGO_SETTINGS_MODULE": "clubscore.settings"}
    os.environ.pop("REDIS_URL", None)  # Celery eager: a follow-up task, if any, runs in the amendment
    migrate(env)
    django_setup(env)
    rng = random.Random(args.seed)
    ok = True
    try:
        for variant in variants:
            _, good = measure(variant, args.runs, rng)
            ok = ok and good
    finally:
        from django.db import connection

        connection.close()
        if tmp is not None:
            tmp.cleanup()
        elif not args.sqlite:
            drop_postgres(args.admin_url, args.database)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
