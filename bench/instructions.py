"""Instructions per hand of settle() and of its floor, counted by valgrind: the A/B test of one change.

    .venv/bin/python bench/instructions.py [--sessions 60] [variant ...]

The machine is shared and its speed drifts by a third within minutes, so the timings of
bench/engine.py cannot tell a 5 % change from the noise; a count of the instructions executed can
(it varies by less than 0.1 % between runs). The same sessions as bench/engine.py (its seed and
options, fewer of them) are settled twice, and their settlements' JSON decoded twice, under
`valgrind --tool=cachegrind`; a run that only prepares them is subtracted. Instructions are not time
(the interpreter runs fewer of them per cycle than the C decoder), so the ratio printed here is lower
than bench/engine.py's; compare a change with the same script before and after it.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.engine import sample_sheets
from ledger.engine import settle
from ledger.engine.variants import variant_names

ROUNDS = 2


def child(variant: str, sessions: int, what: str, rounds: int) -> None:
    raw = sample_sheets(variant, sessions)
    texts = [json.dumps(settle(sheet)) for sheet in raw]
    for _ in range(rounds):
        if what == "engine":
            for sheet in raw:
                settle(sheet)
        else:
            for text in texts:
                json.loads(text)


def instructions(variant: str, sessions: int, what: str, rounds: int) -> int:
    command = ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null"]
    command += [sys.executable, __file__, "--child", what, str(rounds), "--sessions", str(sessions), variant]
    run = subprocess.run(command, capture_output=True, text=True, check=True, env={**os.environ, "PYTHONHASHSEED": "0"})
    found = re.search(r"I\s+refs:\s+([\d,]+)", run.stderr)
    assert found, run.stderr
    return int(found.group(1).replace(",", ""))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=60)
    parser.add_argument("--child", nargs=2, metavar=("WHAT", "ROUNDS"), help=argparse.SUPPRESS)
    parser.add_argument("variants", nargs="*", default=list(variant_names()))
    args = parser.parse_args()
    if args.child:
        child(args.variants[0], args.sessions, args.child[0], int(args.child[1]))
        return 0
    print(f"{'variant':<14}{'settle Ir/hand':>16}{'floor Ir/hand':>15}{'ratio':>8}")
    for variant in args.variants:
        hands = sum(len(sheet["hands"]) for sheet in sample_sheets(variant, args.sessions))
        prepared = instructions(variant, args.sessions, "engine", 0)
        engine = (instructions(variant, args.sessions, "engine", ROUNDS) - prepared) / (ROUNDS * hands)
        floor = (instructions(variant, args.sessions, "floor", ROUNDS) - prepared) / (ROUNDS * hands)
        print(f"{variant:<14}{engine:>16,.0f}{floor:>15,.0f}{engine / floor:>7.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
