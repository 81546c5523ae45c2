"""What one recorded hand costs the web process, against the floor, in this process: the A/B test of a
change to the hot path (issue 27).

    .venv/bin/python bench/inprocess.py [--hands 600] [--profile hands|floor] [--top 40]

bench/api.py measures the whole production stack, but on this 2-core VM its figures drift by a third
between runs, more than most single changes. This runs the same requests through Django's test client
in one process, on a PostgreSQL database (`--database`, created fresh and dropped after) and Redis
database (`--redis-url`, flushed) of its own, with the production settings bin/production writes
(bench.settings, DB_POOL=1): token authentication, the throttle, the Idempotency-Key's claim, the
lock, the replay, the writes and the answer, as `POST .../hands/` runs them; then the floor's requests
(bench/floor.py). It prints each one's CPU time per request in this process (the web worker's share),
the CPU time of PostgreSQL's backends and Redis (from /proc, in clock ticks: a mean over many
requests), its wall time and the statements sent per request. `--profile` runs cProfile over one
of them and prints the top functions by cumulative time (`--sort tottime`: by their own).

The sessions are those of bench/api.py (`--preload` hands each, the four variants in turn), one
scorer each, their hands posted in turn.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import random
import statistics
import sys
import time
import uuid
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from benchlib import VARIANTS, django_setup, drop_postgres, fresh_postgres, migrate, random_session_sheet

HOST = "clubscore-bench.localhost"


def set_up(sessions: int, preload: int, deals: int, rng: random.Random) -> list[dict[str, Any]]:
    from django.contrib.auth import get_user_model

    from ledger.models import Role
    from ledger.services.clubs import club_create, membership_set, player_create
    from ledger.services.sessions import session_import
    from ledger.services.tokens import token_issue

    User = get_user_model()
    admin = User.objects.create_user("bench-admin")
    club = club_create(actor=admin, name="Bench Club")
    players = [player_create(actor=admin, club_id=club.pk, name=f"Player {i:02}") for i in range(40)]
    scorers = []
    for i in range(sessions):
        user = User.objects.create_user(f"scorer-{i:03}")
        membership_set(actor=admin, club_id=club.pk, user=user, role=Role.SCORER)
        key, _ = token_issue(user=user, device=f"phone-{i:03}")
        sheet = random_session_sheet(VARIANTS[i % len(VARIANTS)], rng, deals)
        hands = sheet["hands"]
        start = min(preload, max(0, len(hands) - 2))
        seated = [p.name for p in rng.sample(players, 4)]
        session = session_import(actor=user, club_id=club.pk, sheet=dict(sheet, players=seated, hands=hands[:start]))
        bodies = [json.dumps(dict(h, number=n)).encode() for n, h in enumerate(hands, 1)][start:]
        scorers.append({"key": key, "path": f"/api/v1/sessions/{session.pk}/hands/", "bodies": bodies})
    return scorers


class Counted:
    """Statements sent to PostgreSQL (Django's execute wrapper sees every cursor.execute)."""

    def __init__(self) -> None:
        self.statements = 0

    def __call__(self, execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        self.statements += 1
        return execute(sql, params, many, context)


def server_cpu() -> float:
    """CPU seconds used so far by this database's PostgreSQL backends and by the Redis server (their
    /proc entries: they run on this machine)."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT pid FROM pg_stat_activity WHERE datname = current_database()")
        pids = [row[0] for row in cursor.fetchall()]
    redis_pids = [int(p) for p in os.popen("pidof redis-server").read().split()]
    total = 0.0
    for pid in [*pids, *redis_pids]:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime
    return total


def run(
    client: Any, requests: list[tuple[str, bytes, str]], expect: int
) -> tuple[list[float], list[float], int, float]:
    from django.db import connection

    counted = Counted()
    cpu, wall = [], []
    servers = server_cpu()
    with connection.execute_wrapper(counted):
        for path, body, key in requests:
            c0, w0 = time.process_time(), time.perf_counter()
            response = client.post(
                path,
                body,
                content_type="application/json",
                HTTP_AUTHORIZATION=f"Token {key}",
                HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()),
            )
            cpu.append(time.process_time() - c0)
            wall.append(time.perf_counter() - w0)
            if response.status_code != expect:
                raise SystemExit(f"{path}: {response.status_code} {response.content[:300]!r}")
    return cpu, wall, counted.statements, server_cpu() - servers


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=600)
    parser.add_argument("--sessions", type=int, default=40)
    parser.add_argument("--preload", type=int, default=10)
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--profile", choices=["hands", "floor"])
    parser.add_argument("--top", type=int, default=40)
    parser.add_argument("--sort", default="cumulative", help="cProfile's order: cumulative, tottime, ...")
    parser.add_argument("--admin-url", default="postgres://postgres@127.0.0.1:5432/postgres")
    parser.add_argument("--database", default="clubscore_inprocess")
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/7")
    parser.add_argument("--seed", type=int, default=10)
    args = parser.parse_args()

    import redis

    redis.Redis.from_url(args.redis_url).flushdb()
    env = {
        "DJANGO_SETTINGS_MODULE": "bench.settings",
        "CLUBSCORE_ENV": "production",
        "SECRET_KEY": "bench-inprocess-" + "x" * 40,
        "DATABASE_URL": fresh_postgres(args.admin_url, args.database),
        "REDIS_URL": args.redis_url,
        "ALLOWED_HOSTS": HOST,
        "NUM_PROXIES": "1",
        "DB_POOL": "1",
        "LOG_LEVEL": "WARNING",
    }
    try:
        migrate(env)
        django_setup(env)
        from django.test import Client

        scorers = set_up(args.sessions, args.preload, args.deals, random.Random(args.seed))
        hands: list[tuple[str, bytes, str]] = []
        while len(hands) < args.hands and any(s["bodies"] for s in scorers):
            for s in scorers:
                if s["bodies"] and len(hands) < args.hands:
                    hands.append((s["path"], s["bodies"].pop(0), s["key"]))
        floor_body = json.dumps({"bid": "pass", "tricks": [4, 3, 3, 3], "number": 1}).encode()
        floor = [("/api/v1/bench/floor/", floor_body, hands[i % len(hands)][2]) for i in range(len(hands))]
        client = Client(HTTP_HOST=HOST, HTTP_X_FORWARDED_PROTO="https")
        run(client, floor[:50], 201)  # warm: imports, the pool's connections, compiled statements

        profiler = cProfile.Profile() if args.profile else None
        results = {}
        for name, requests in (("hands", hands), ("floor", floor)):
            if profiler and args.profile == name:
                profiler.enable()
            results[name] = run(client, requests, 201)
            if profiler and args.profile == name:
                profiler.disable()
        print(f"{len(hands)} requests each; {args.sessions} sessions, {args.deals} deals, {args.preload} before")
        for name, (cpu, wall, statements, servers) in results.items():
            print(
                f"  {name}: CPU {statistics.median(cpu) * 1000:.2f} ms median, {sum(cpu) / len(cpu) * 1000:.2f} mean;"
                f" PostgreSQL and Redis {servers / len(cpu) * 1000:.2f} ms;"
                f" wall {statistics.median(wall) * 1000:.2f} ms median; statements {statements / len(cpu):.1f}"
            )
        h, f = (sum(results[n][0]) / len(results[n][0]) for n in ("hands", "floor"))
        hs, fs = (results[n][3] / len(results[n][0]) for n in ("hands", "floor"))
        print(f"  CPU hands/floor: {h / f:.2f}x in this process, {(h + hs) / (f + fs):.2f}x with the servers'")
        if profiler:
            pstats.Stats(profiler).sort_stats(args.sort).print_stats(args.top)
    finally:
        from django.db import connections

        connections.close_all()
        drop_postgres(args.admin_url, args.database)
    return 0


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    sys.exit(main())
