"""Engine speed: settle() against a floor measured in the same run, on the same sheets.

    .venv/bin/python bench/engine.py [--hands 100000] [--sessions 300] [--repeat 5] [variant ...]

For each variant a few hundred distinct random valid sessions (ledger.engine.samples) are settled over
and over until at least --hands hands have been settled, through `ledger.engine.settle`, the same call
the `settle` command makes (parse, validate, replay, settlement JSON). The floor is `json.loads` of
each sheet's settlement as JSON text: CPython's C decoder building the same answer's objects, the
least any Python engine returning them can spend. Target (issue 14): settle() within 2.5x the floor
in every variant.

The engine and the floor are timed in turn, --repeat times each (each time --hands hands), so that a
machine shared with other work slows both alike; the ratio printed is the median of the --repeat
pairs' ratios, the times are each side's median.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ledger.engine import settle
from ledger.engine.samples import playable_rules, random_sheet
from ledger.engine.variants import find_variant, variant_names


def sample_sheets(variant: str, sessions: int) -> list[dict]:
    """`sessions` distinct random valid sessions of the variant, the same for every run."""
    rng = random.Random(2026)
    return [
        random_sheet(
            variant,
            rng,
            find_variant(variant).declaration.evening,
            rules=playable_rules(variant),
            close={"pools": "divide"},
            stake={"currency": "USD", "per_counter": "0.01"},
        )
        for _ in range(sessions)
    ]


def floor_loop(texts: list[str], rounds: int) -> int:
    """json.loads of each settlement's JSON text: the objects settle() returns, built in C."""
    count = 0
    for _ in range(rounds):
        for text in texts:
            count += len(json.loads(text)["hands"])
    return count


def engine_loop(sheets: list[dict], rounds: int) -> int:
    count = 0
    for _ in range(rounds):
        for sheet in sheets:
            count += len(settle(sheet)["hands"])
    return count


def timed(fn, *args) -> tuple[float, int]:
    start = time.perf_counter()
    count = fn(*args)
    return time.perf_counter() - start, count


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=100_000)
    parser.add_argument("--sessions", type=int, default=300, help="distinct random sessions per variant")
    parser.add_argument("--repeat", type=int, default=5, help="engine and floor timings per variant, in turn")
    parser.add_argument("variants", nargs="*", default=list(variant_names()))
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core
    print(f"python {sys.version.split()[0]}, one core, {args.repeat} x >= {args.hands} hands per variant, in turn")
    print(f"{'variant':<14}{'hands':>9}{'hands/s':>12}{'settle ms':>11}{'floor ms':>10}{'ratio':>8}")
    worst = 0.0
    for variant in args.variants:
        sheets = sample_sheets(variant, args.sessions)
        texts = [json.dumps(settle(sheet)) for sheet in sheets]
        per_round = sum(len(s["hands"]) for s in sheets)
        rounds = -(-args.hands // per_round)
        engine_loop(sheets[:10], 1)  # warm up
        floor_loop(texts[:10], 1)
        engine_times, floor_times, ratios = [], [], []
        for _ in range(args.repeat):
            engine_s, engine_n = timed(engine_loop, sheets, rounds)
            floor_s, floor_n = timed(floor_loop, texts, rounds)
            assert engine_n == floor_n
            engine_times.append(engine_s)
            floor_times.append(floor_s)
            ratios.append(engine_s / floor_s)
        engine_s, floor_s = statistics.median(engine_times), statistics.median(floor_times)
        ratio = statistics.median(ratios)
        worst = max(worst, ratio)
        print(
            f"{variant:<14}{engine_n:>9}{engine_n / engine_s:>12,.0f}"
            f"{1000 * engine_s / rounds:>11.1f}{1000 * floor_s / rounds:>10.1f}{ratio:>7.2f}x"
        )
    print(f"worst ratio of settle() to json.loads: {worst:.2f}x (target: at most 2.5x in every variant)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
