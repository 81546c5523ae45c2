"""Engine throughput: hands settled per second, and the ratio to a floor measured in the same run.

    .venv/bin/python bench/engine.py [--hands 100000] [--variant american ...]

For each variant a few hundred distinct random valid sessions (ledger.engine.samples) are settled
over and over until at least --hands hands have been settled, through `ledger.engine.settle`, the
same call the `settle` command makes (parse, validate, replay, settlement JSON). The floor is a bare
loop over the same hands that only looks the contract amount up in a dict and adds it to four
integers. Targets (issue 2): at least 100,000 hands/s on one core, within 15x of the floor.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ledger.engine import settle
from ledger.engine.samples import PLAYABLE_RULES, random_sheet
from ledger.engine.variants import variant_names

RULES = PLAYABLE_RULES
DEALS = {"american": 12, "fontainebleau": 12, "french": 40, "russian": 40}


def floor_loop(sheets: list[dict], rounds: int) -> int:
    """The least any settlement must do: one dict look-up and four additions per hand."""
    amounts = {bid: i + 5 for i, bid in enumerate({h["bid"] for s in sheets for h in s["hands"]})}
    count = 0
    for _ in range(rounds):
        for sheet in sheets:
            balances = [0, 0, 0, 0]
            for hand in sheet["hands"]:
                amount = amounts[hand["bid"]]
                balances[0] += amount
                balances[1] -= amount
                balances[2] += amount
                balances[3] -= amount
                count += 1
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
    parser.add_argument("variants", nargs="*", default=list(variant_names()))
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core
    print(f"python {sys.version.split()[0]}, one core, >= {args.hands} hands per variant")
    print(f"{'variant':<14}{'hands':>9}{'hands/s':>12}{'floor hands/s':>16}{'ratio':>8}")
    worst = 0.0
    for variant in args.variants:
        rng = random.Random(2026)
        sheets = [
            random_sheet(
                variant,
                rng,
                DEALS[variant],
                rules=RULES.get(variant),
                close={"pools": "divide"},
                stake={"currency": "USD", "per_counter": "0.01"},
            )
            for _ in range(args.sessions)
        ]
        per_round = sum(len(s["hands"]) for s in sheets)
        rounds = -(-args.hands // per_round)
        engine_loop(sheets[:10], 1)  # warm up
        engine_s, engine_n = timed(engine_loop, sheets, rounds)
        floor_s, floor_n = timed(floor_loop, sheets, rounds)
        rate, floor_rate = engine_n / engine_s, floor_n / floor_s
        worst = max(worst, floor_rate / rate)
        print(f"{variant:<14}{engine_n:>9}{rate:>12,.0f}{floor_rate:>16,.0f}{floor_rate / rate:>7.1f}x")
    print(f"worst ratio to the floor: {worst:.1f}x (target: within 15x; at least 100,000 hands/s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
