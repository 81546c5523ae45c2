"""Start-up: `manage.py settle` as a whole process against a process that only settles (issue 19).

    .venv/bin/python bench/startup.py [--runs 7] [--deals 30000]

Two sheets: a 12-deal American evening (`tests/data/examples/american-evening-defaults.sheet.json`)
and a generated Russian partie of --deals valid deals (`ledger.engine.samples.random_sheet`, seed 19,
written to a temporary file once). For each, `manage.py settle SHEET` and the floor, a process that
imports only `ledger.engine`, reads the sheet, settles it and prints the answer as compact JSON, run
--runs times in turn, output to /dev/null. The figure is each one's fastest wall-clock run (the
machine's noise only ever adds); CPU time (user + system, of the fastest CPU run) is printed beside
it. Targets: the 12-deal sheet within 5x of the floor, the long sheet within 1.5x.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchlib import PYTHON, ROOT, STAKE, machine, playable_rules

from ledger.engine.samples import random_sheet

EVENING = ROOT / "tests" / "data" / "examples" / "american-evening-defaults.sheet.json"
FLOOR = (
    "import json, sys\n"
    "from ledger.engine import settle\n"
    "with open(sys.argv[1], encoding='utf-8') as f:\n"
    "    answer = settle(json.load(f))\n"
    "sys.stdout.write(json.dumps(answer, ensure_ascii=False))\n"
)
TARGETS = {"12-deal evening": 5.0, "long partie": 1.5}


def timed(argv: list[str]) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one whole process, its output thrown away."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, cwd=ROOT, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} exited {proc.returncode}")
    return wall, usage.ru_utime + usage.ru_stime


def measure(sheet: Path, runs: int) -> dict[str, tuple[float, float]]:
    commands = {
        "manage.py settle": [PYTHON, "manage.py", "settle", str(sheet)],
        "engine only": [PYTHON, "-c", FLOOR, str(sheet)],
    }
    walls: dict[str, list[float]] = {name: [] for name in commands}
    cpus: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(runs):
        for name, argv in commands.items():  # in turn, so a busy moment hurts both
            wall, cpu = timed(argv)
            walls[name].append(wall)
            cpus[name].append(cpu)
    return {name: (min(walls[name]), min(cpus[name])) for name in commands}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--deals", type=int, default=30_000)
    args = parser.parse_args()
    print(f"machine: {machine()}; {args.runs} runs of each, fastest shown")
    missed = 0
    with tempfile.TemporaryDirectory() as tmp:
        long_sheet = Path(tmp) / "partie.sheet.json"
        sheet = random_sheet("russian", random.Random(19), args.deals, rules=playable_rules("russian"), stake=STAKE)
        sheet["close"] = {"pools": "divide"}
        long_sheet.write_text(json.dumps(sheet), encoding="utf-8")
        cases = {"12-deal evening": (EVENING, 12), "long partie": (long_sheet, len(sheet["hands"]))}
        for label, (path, deals) in cases.items():
            figures = measure(path, args.runs if deals < 1000 else max(3, args.runs // 2))
            (wall, cpu), (floor_wall, floor_cpu) = figures["manage.py settle"], figures["engine only"]
            ratio, target = wall / floor_wall, TARGETS[label]
            verdict = "ok" if ratio <= target else "MISS"
            missed += verdict == "MISS"
            print(
                f"{label} ({deals} deals): manage.py settle {wall:.3f} s (CPU {cpu:.3f} s), "
                f"engine only {floor_wall:.3f} s (CPU {floor_cpu:.3f} s): "
                f"{ratio:.2f}x (CPU {cpu / floor_cpu:.2f}x), target <= {target}x {verdict}"
            )
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
