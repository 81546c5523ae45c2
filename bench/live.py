"""Issue 25's bench: the whole table live. 10 tables, each with a scorer recording a deal every 20 s and 4
followers (seat links: the stream `/live/seat/<key>/` and, on each change, the fragment `/s/<key>/rows/`
with If-None-Match), plus one room board (`/live/board/<key>/`, `/b/<key>/tables/`), for 2 minutes
against an ASGI server on PostgreSQL and Redis.

It prints the 50th/95th/99th percentile of the time from each deal's 201 to each follower having it (its
fragment read after the event), the web processes' CPU per second with and without the followers (the
followers' cost), and the hand-recording capacity (4 clients recording as fast as they can for
`--burst` seconds on fresh sessions) without followers and with the followers connected and the tables
being recorded.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/clubscore_table REDIS_URL=redis://127.0.0.1:6379/6 \\
        .venv/bin/python bench/live.py [--seconds 120] [--port 8106] [--workers 2]

The server is `uvicorn clubscore.asgi:application --workers N` (what gunicorn's uvicorn workers run),
started and stopped here; the database named in DATABASE_URL is dropped and created afresh.
Targets (issue 25): p95 ≤ 1 s; followers ≤ 20 % of one core; capacity with followers ≥ 90 % without.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
import uuid
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.benchlib import PYTHON, ROOT, django_setup, fresh_postgres, machine, migrate, percentile

HANDS = [  # four valid American deals, played in a cycle: 12 to a game
    {"bid": "seven", "bidder": 1, "trump": "clubs", "tricks": [3, 6, 2, 2]},
    {"bid": "seven", "bidder": 2, "trump": "hearts", "tricks": [2, 2, 7, 2]},
    {"bid": "pass", "tricks": [4, 4, 3, 2]},
    {"bid": "boston", "bidder": 3, "trump": "spades", "tricks": [2, 2, 4, 5]},
]
TABLES, FOLLOWERS, EVERY = 10, 4, 20.0


# --- the scene ---------------------------------------------------------------------------------------


def scene(tables: int, spare: int) -> dict[str, Any]:
    """A club, a scorer with a device token, `tables` followed sessions with 4 seat links each, `spare`
    sessions for the capacity bursts, and a board link."""
    from django.contrib.auth.models import User

    from ledger import services

    admin = User.objects.create_user("bench-admin", password="bench-pass-1234")
    club = services.club_create(actor=admin, name="Bench Club")
    players = [services.player_create(actor=admin, club_id=club.pk, name=f"P{i}") for i in range(4)]
    token, _ = services.token_issue(user=admin, device="bench")

    def session() -> int:
        return services.session_open(
            actor=admin,
            club_id=club.pk,
            variant="american",
            rules={},
            player_ids=[p.pk for p in players],
            first_dealer=0,
        ).pk

    followed = []
    for _ in range(tables):
        sid = session()
        keys = [services.seat_link_issue(actor=admin, session_id=sid, seat=s)[0] for s in range(FOLLOWERS)]
        followed.append({"session": sid, "keys": keys})
    board, _ = services.board_link_issue(actor=admin, club_id=club.pk, label="bench")
    return {"token": token, "tables": followed, "spare": [session() for _ in range(spare)], "board": board}


# --- HTTP ----------------------------------------------------------------------------------------------


class Server:
    def __init__(self, port: int, workers: int, env: dict[str, str]) -> None:
        self.base = f"http://127.0.0.1:{port}"
        self.proc = subprocess.Popen(
            [
                PYTHON,
                "-m",
                "uvicorn",
                "clubscore.asgi:application",
                "--port",
                str(port),
                "--workers",
                str(workers),
                "--no-access-log",
                "--log-level",
                "warning",
            ],
            cwd=ROOT,
            env=env,
            start_new_session=True,
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                urllib.request.urlopen(self.base + "/api/v1/variants/", timeout=2).read()
                return
            except OSError:
                time.sleep(0.3)
        raise SystemExit("the server did not start")

    def pids(self) -> list[int]:
        children = Path(f"/proc/{self.proc.pid}/task/{self.proc.pid}/children").read_text().split()
        return [self.proc.pid, *(int(c) for c in children)]

    def cpu(self) -> float:
        """User + system CPU seconds of the server's processes so far."""
        tick = os.sysconf("SC_CLK_TCK")
        total = 0.0
        for pid in self.pids():
            try:
                fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
                total += (int(fields[11]) + int(fields[12])) / tick
            except OSError:
                pass
        return total

    def stop(self) -> None:
        os.killpg(self.proc.pid, signal.SIGTERM)
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)


def record(base: str, token: str, sid: int, hand: dict[str, Any]) -> tuple[int, int]:
    """POST a deal; (status, the deal's number)."""
    request = urllib.request.Request(
        f"{base}/api/v1/sessions/{sid}/hands/",
        data=json.dumps(hand).encode(),
        method="POST",
        headers={
            "Authorization": f"Token {token}",
            "Content-Type": "application/json",
            "Idempotency-Key": str(uuid.uuid4()),
        },
    )
    with urllib.request.urlopen(request, timeout=30) as answer:
        return answer.status, json.loads(answer.read())["number"]


async def get(port: int, path: str, etag: str | None) -> tuple[int, str | None]:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    headers = f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
    if etag:
        headers += f'If-None-Match: "{etag}"\r\n'
    writer.write((headers + "\r\n").encode())
    await writer.drain()
    raw = await reader.read()
    writer.close()
    head = raw.split(b"\r\n\r\n", 1)[0].decode(errors="replace").split("\r\n")
    status = int(head[0].split()[1])
    tag = next((h.split(":", 1)[1].strip().strip('"') for h in head[1:] if h.lower().startswith("etag:")), None)
    return status, tag


async def follower(
    port: int, stream: str, rows: str, seen: list[tuple[int, int, float]], sid: int, stop: float
) -> None:
    """One phone: its stream; on each change, its fragment again (If-None-Match). Notes (session, deals, when)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"GET {stream} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n".encode())
    await writer.drain()
    tag: str | None = None
    try:
        while time.monotonic() < stop:
            try:
                line = await asyncio.wait_for(reader.readline(), timeout=max(0.1, stop - time.monotonic()))
            except TimeoutError:
                break
            if not line:
                break
            if not line.startswith(b"data: "):
                continue
            data = json.loads(line[6:])
            if data.get("tag") in (None, tag):  # a heartbeat, or nothing new
                continue
            status, fresh = await get(port, rows, tag)
            if status == 200:
                tag = fresh or data.get("tag")
                if "hands" in data:
                    seen.append((sid, int(data["hands"]), time.monotonic()))
    finally:
        writer.close()


async def scorers(
    base: str, token: str, tables: list[dict[str, Any]], seconds: float, recorded: dict[tuple[int, int], float]
) -> None:
    async def one(i: int, sid: int) -> None:
        await asyncio.sleep(i * EVERY / len(tables))  # staggered, as tables are
        deal, end = 0, time.monotonic() + seconds
        while time.monotonic() < end:
            _, number = await asyncio.to_thread(record, base, token, sid, HANDS[deal % 4])
            recorded[(sid, number)] = time.monotonic()
            deal += 1
            await asyncio.sleep(EVERY)

    await asyncio.gather(*(one(i, t["session"]) for i, t in enumerate(tables)))


def capacity(base: str, token: str, sessions: list[int], seconds: float) -> float:
    """Deals a second, 4 clients recording as fast as they can on fresh sessions (12 deals each)."""
    import threading

    queue = list(sessions)
    lock = threading.Lock()
    done = [0]
    end = time.monotonic() + seconds

    def client() -> None:
        while time.monotonic() < end:
            with lock:
                if not queue:
                    return
                sid = queue.pop()
            for deal in range(12):
                if time.monotonic() >= end:
                    return
                record(base, token, sid, HANDS[deal % 4])
                with lock:
                    done[0] += 1

    threads = [threading.Thread(target=client) for _ in range(4)]
    start = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return done[0] / (time.monotonic() - start)


async def with_followers(args: Any, server: Server, data: dict[str, Any]) -> dict[str, Any]:
    port = args.port
    stop = time.monotonic() + args.seconds + args.burst + 15
    seen: list[tuple[int, int, float]] = []
    phones = [
        follower(port, f"/live/seat/{key}/", f"/s/{key}/rows/", seen, t["session"], stop)
        for t in data["tables"]
        for key in t["keys"]
    ]
    board_seen: list[tuple[int, int, float]] = []
    phones.append(follower(port, f"/live/board/{data['board']}/", f"/b/{data['board']}/tables/", board_seen, 0, stop))
    tasks = [asyncio.create_task(p) for p in phones]
    await asyncio.sleep(2)  # every stream open
    recorded: dict[tuple[int, int], float] = {}
    cpu0, t0 = server.cpu(), time.monotonic()
    await scorers(server.base, data["token"], data["tables"], args.seconds, recorded)
    cpu = (server.cpu() - cpu0) / (time.monotonic() - t0)
    burst = await asyncio.to_thread(
        capacity, server.base, data["token"], data["spare"][len(data["spare"]) // 2 :], args.burst
    )
    await asyncio.gather(*tasks, return_exceptions=True)
    latencies = [when - recorded[(sid, n)] for sid, n, when in seen if (sid, n) in recorded]
    return {"latencies": latencies, "expected": len(recorded) * FOLLOWERS, "cpu": cpu, "capacity": burst}


async def without_followers(args: Any, server: Server, data: dict[str, Any], seconds: float) -> dict[str, Any]:
    recorded: dict[tuple[int, int], float] = {}
    cpu0, t0 = server.cpu(), time.monotonic()
    await scorers(server.base, data["token"], data["tables"], seconds, recorded)
    cpu = (server.cpu() - cpu0) / (time.monotonic() - t0)
    burst = await asyncio.to_thread(
        capacity, server.base, data["token"], data["spare"][: len(data["spare"]) // 2], args.burst
    )
    return {"cpu": cpu, "capacity": burst}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=120.0)
    parser.add_argument("--baseline-seconds", type=float, default=60.0)
    parser.add_argument("--burst", type=float, default=10.0)
    parser.add_argument("--port", type=int, default=8106)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    admin_url, redis_url = os.environ.get("DATABASE_URL", ""), os.environ.get("REDIS_URL", "")
    if not admin_url.startswith("postgres") or not redis_url:
        raise SystemExit("set DATABASE_URL (PostgreSQL: dropped and made afresh) and REDIS_URL")
    name = admin_url.rsplit("/", 1)[1]
    url = fresh_postgres(admin_url.rsplit("/", 1)[0] + "/postgres", name)
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "REDIS_URL": redis_url,
        "CONN_MAX_AGE": "0",
        "THROTTLE_USER": "100000/min",
        "THROTTLE_ANON": "100000/min",
        "DEBUG": "0",
        "ALLOWED_HOSTS": "127.0.0.1",
    }
    migrate(env)
    django_setup(env)
    data = scene(TABLES, 400)
    server = Server(args.port, args.workers, env)
    try:
        # the baseline: the same tables recorded, nobody following (half as long: the same rate)
        base = asyncio.run(
            without_followers(
                args,
                server,
                {**data, "tables": [{"session": s, "keys": []} for s in data["spare"][-TABLES:]]},
                args.baseline_seconds,
            )
        )
        data["spare"] = data["spare"][:-TABLES]
        live = asyncio.run(with_followers(args, server, data))
    finally:
        server.stop()
    lat = sorted(live["latencies"])
    print(f"machine: {machine()}; uvicorn --workers {args.workers}, PostgreSQL, Redis pub/sub")
    print(
        f"{TABLES} tables x a deal every {EVERY:.0f} s x {FOLLOWERS} followers (seat links) + 1 board,"
        f" {args.seconds:.0f} s"
    )
    print(f"deliveries: {len(lat)} of {live['expected']} (deal x follower)")
    if lat:
        print(
            "201 -> follower has it: p50 {:.0f} ms, p95 {:.0f} ms, p99 {:.0f} ms, max {:.0f} ms".format(
                *(1000 * percentile(lat, q) for q in (50, 95, 99)), 1000 * lat[-1]
            )
        )
    cost = live["cpu"] - base["cpu"]
    print(
        f"web CPU: {base['cpu'] * 100:.1f} % of a core without followers, {live['cpu'] * 100:.1f} % with:"
        f" followers cost {cost * 100:.1f} % of one core (target <= 20 %)"
    )
    ratio = live["capacity"] / base["capacity"] if base["capacity"] else 0.0
    print(
        f"recording capacity (4 clients, {args.burst:.0f} s): {base['capacity']:.1f} deals/s without followers,"
        f" {live['capacity']:.1f} with: {ratio * 100:.0f} % (target >= 90 %)"
    )


if __name__ == "__main__":
    main()
