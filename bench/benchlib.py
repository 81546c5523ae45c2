"""What bench/api.py and bench/replay.py share: a fresh PostgreSQL database, the machine, percentiles,
valid random sessions, and the check that a session's stored projection equals a replay."""

from __future__ import annotations

import math
import os
import platform
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ledger.engine.samples import playable_rules  # the options every bid needs (as bench/engine.py)

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable

VARIANTS = ["american", "fontainebleau", "french", "russian"]
STAKE = {"currency": "USD", "per_counter": "0.01"}


def machine() -> str:
    mem_kb = 0
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                mem_kb = int(line.split()[1])
    except OSError:
        pass
    return (
        f"{os.cpu_count()} cores (nproc), {mem_kb / 1024 / 1024:.1f} GiB memory, "
        f"Python {platform.python_version()}, {platform.system()} {platform.release()}"
    )


def postgres_url(admin_url: str, name: str) -> str:
    base = admin_url.rsplit("/", 1)[0]
    return f"{base}/{name}"


def fresh_postgres(admin_url: str, name: str) -> str:
    """Drop and create the database `name` on the server of `admin_url`; its URL."""
    import psycopg

    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    return postgres_url(admin_url, name)


def drop_postgres(admin_url: str, name: str) -> None:
    import psycopg

    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def migrate(env: dict[str, str]) -> None:
    subprocess.run(
        [PYTHON, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, env={**os.environ, **env}, check=True
    )


def django_setup(env: dict[str, str]) -> None:
    os.environ.update(env)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clubscore.settings")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..100) of the values; nan when there are none."""
    if not values:
        return math.nan
    ordered = sorted(values)
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[rank - 1]


def random_session_sheet(variant: str, rng: random.Random, deals: int) -> dict[str, Any]:
    from ledger.engine.samples import random_sheet

    return random_sheet(variant, rng, deals, rules=playable_rules(variant), stake=STAKE)


def projection_mismatches(session_ids: list[int]) -> list[str]:
    """Sessions whose stored projection (settled hands, balances, pools) is not what a
    fresh replay of their sheet gives; empty when all agree."""
    from ledger import selectors
    from ledger.engine import settle
    from ledger.models import Hand, Session

    bad = []
    for session in Session.objects.filter(pk__in=session_ids).order_by("pk"):
        settlement = settle(selectors.session_sheet(session=session))
        hands = list(Hand.objects.filter(session=session).order_by("number"))
        problems = []
        if [h.settled for h in hands] != settlement["hands"]:
            problems.append("settled hands")
        if session.hands_count != len(hands) or [h.number for h in hands] != list(range(1, len(hands) + 1)):
            problems.append("hand numbers")
        if session.balances != settlement["balances"] or session.pools != settlement["pools"]:
            problems.append("balances or pools")
        if problems:
            bad.append(f"session {session.pk}: " + ", ".join(problems))
    return bad
